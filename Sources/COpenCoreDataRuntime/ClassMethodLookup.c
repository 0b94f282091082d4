#include "COpenCoreDataRuntime.h"

// The Swift runtime's class-method lookup: the vtable entry of `method` (a method descriptor of the
// class `description` introduces) in the class `metadata`. Compiled Swift code calls it to dispatch
// methods of resilient classes; its signature is part of the runtime's stable ABI.
extern void *swift_lookUpClassMethod(const void *metadata, const void *method, const void *description);

// Method descriptors of `NSManagedObject`'s overridable methods and `NSManagedObject`'s nominal type
// descriptor, by their mangled names (the OpenCoreDataCore module defines them all). Mach-O symbol names
// carry a leading underscore.
#if defined(__APPLE__)
#define OCD_SWIFT_SYMBOL(name) "_" name
#else
#define OCD_SWIFT_SYMBOL(name) name
#endif
// Declares `variable` as the symbol with the mangled Swift name `mangled`.
#define OCD_SWIFT_DESCRIPTOR(variable, mangled) extern const char variable __asm__(OCD_SWIFT_SYMBOL(mangled))
OCD_SWIFT_DESCRIPTOR(ocd_validateValueMethodDescriptor,
                     "$s012OpenCoreDataB015NSManagedObjectC13validateValue_6forKeyySpyyXlSgG_SStKFTq");
OCD_SWIFT_DESCRIPTOR(ocd_willAccessValueMethodDescriptor,
                     "$s012OpenCoreDataB015NSManagedObjectC15willAccessValue6forKeyySSSg_tFTq");
OCD_SWIFT_DESCRIPTOR(ocd_didAccessValueMethodDescriptor,
                     "$s012OpenCoreDataB015NSManagedObjectC14didAccessValue6forKeyySSSg_tFTq");
OCD_SWIFT_DESCRIPTOR(ocd_willChangeValueMethodDescriptor,
                     "$s012OpenCoreDataB015NSManagedObjectC15willChangeValue6forKeyySS_tFTq");
OCD_SWIFT_DESCRIPTOR(ocd_didChangeValueMethodDescriptor,
                     "$s012OpenCoreDataB015NSManagedObjectC14didChangeValue6forKeyySS_tFTq");
OCD_SWIFT_DESCRIPTOR(ocd_awakeFromFetchMethodDescriptor, "$s012OpenCoreDataB015NSManagedObjectC14awakeFromFetchyyFTq");
OCD_SWIFT_DESCRIPTOR(ocd_managedObjectClassDescriptor, "$s012OpenCoreDataB015NSManagedObjectCMn");

const void *ocd_managedObjectMethodImplementation(const void *classMetadata, OCDManagedObjectMethod method) {
    const void *descriptor;
    switch (method) {
    case OCDManagedObjectMethodValidateValue: descriptor = &ocd_validateValueMethodDescriptor; break;
    case OCDManagedObjectMethodWillAccessValue: descriptor = &ocd_willAccessValueMethodDescriptor; break;
    case OCDManagedObjectMethodDidAccessValue: descriptor = &ocd_didAccessValueMethodDescriptor; break;
    case OCDManagedObjectMethodWillChangeValue: descriptor = &ocd_willChangeValueMethodDescriptor; break;
    case OCDManagedObjectMethodDidChangeValue: descriptor = &ocd_didChangeValueMethodDescriptor; break;
    case OCDManagedObjectMethodAwakeFromFetch: descriptor = &ocd_awakeFromFetchMethodDescriptor; break;
    default: return 0;
    }
    return swift_lookUpClassMethod(classMetadata, descriptor, &ocd_managedObjectClassDescriptor);
}
