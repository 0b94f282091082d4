#ifndef OPENCOREDATA_RUNTIME_H
#define OPENCOREDATA_RUNTIME_H

/// The implementation of `NSManagedObject.validateValue(_:forKey:)` that instances of the class with
/// the given Swift class metadata call: the class's own override, an inherited one, or
/// `NSManagedObject`'s. The metadata must be that of `NSManagedObject` or a subclass of it.
const void *_Nullable ocd_validateValueImplementation(const void *_Nonnull classMetadata);

#endif
