#if !canImport(ObjectiveC)
/// A pointer to an object reference, as Core Data's validation methods receive the value to validate.
///
/// On Apple platforms this is the standard library's autoreleasing pointer; Swift on Linux has no
/// Objective-C runtime, so the name refers to a mutable pointer with the same use: pass `&value` where
/// `value` is an `AnyObject?` variable, read `pointee` and assign it to replace the value.
public typealias AutoreleasingUnsafeMutablePointer<Pointee> = UnsafeMutablePointer<Pointee>
#endif
