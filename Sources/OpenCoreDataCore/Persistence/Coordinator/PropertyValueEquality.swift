import Foundation

/// Equality of property values in snapshot form (canonical values, object IDs, arrays of object IDs).
enum PropertyValueEquality {
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        let lhs = lhs is NSNull ? nil : lhs
        let rhs = rhs is NSNull ? nil : rhs
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (l as [NSManagedObjectID], r as [NSManagedObjectID]): return Set(l) == Set(r) && l.count == r.count
        case let (l as NSObject, r as NSObject): return l.isEqual(r)
        case let (l as String, r as String): return l == r
        case let (l as Date, r as Date): return l == r
        case let (l as Data, r as Data): return l == r
        case let (l as UUID, r as UUID): return l == r
        case let (l as URL, r as URL): return l == r
        case let (l as AnyHashable, r as AnyHashable): return l == r
        default: return false
        }
    }
}
