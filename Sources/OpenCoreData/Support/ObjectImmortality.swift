import COpenCoreDataRuntime

/// Makes objects that live for the rest of the process cheap to share.
///
/// Retaining or releasing an object is an atomic read-modify-write of its reference count, about five
/// nanoseconds each on the machines this project is measured on, whatever else the processor is doing.
/// The Swift runtime's own statically allocated objects (an empty array's storage, for one) are
/// immortal: their count is never written, so retaining and releasing them costs a load and a branch.
/// An object made immortal here behaves the same and is never deinitialized.
enum ObjectImmortality {
    /// Makes `object` immortal, returning whether the Swift runtime could (otherwise the object is left
    /// as it was, to be freed as usual). Call it before any other thread can reach the object.
    @discardableResult
    static func make(_ object: AnyObject) -> Bool {
        guard RuntimeTechniques.immortalLayouts else { return false }
        return ocd_makeImmortal(Unmanaged.passUnretained(object).toOpaque())
    }
}
