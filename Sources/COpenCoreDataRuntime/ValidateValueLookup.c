#include "COpenCoreDataRuntime.h"

// The Swift runtime's class-method lookup: the vtable entry of `method` (a method descriptor of the
// class `description` introduces) in the class `metadata`. Compiled Swift code calls it to dispatch
// methods of resilient classes; its signature is part of the runtime's stable ABI.
extern void *swift_lookUpClassMethod(const void *metadata, const void *method, const void *description);

// `NSManagedObject.validateValue(_:forKey:)`'s method descriptor and `NSManagedObject`'s nominal type
// descriptor, by their mangled names (the OpenCoreData module defines both). Mach-O symbol names carry
// a leading underscore.
#if defined(__APPLE__)
#define OCD_SWIFT_SYMBOL(name) "_" name
#else
#define OCD_SWIFT_SYMBOL(name) name
#endif
extern const char ocd_validateValueMethodDescriptor
    __asm__(OCD_SWIFT_SYMBOL("$s12OpenCoreData15NSManagedObjectC13validateValue_6forKeyySpyyXlSgG_SStKFTq"));
extern const char ocd_managedObjectClassDescriptor
    __asm__(OCD_SWIFT_SYMBOL("$s12OpenCoreData15NSManagedObjectCMn"));

const void *ocd_validateValueImplementation(const void *classMetadata) {
    return swift_lookUpClassMethod(classMetadata, &ocd_validateValueMethodDescriptor,
                                   &ocd_managedObjectClassDescriptor);
}
