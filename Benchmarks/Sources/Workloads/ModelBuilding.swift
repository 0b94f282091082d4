import Foundation
import GRDBSQLite
import OpenCoreData

/// An attribute of a workload's model: `name` of `type`, non-optional unless `optional`.
func makeAttribute(_ name: String, _ type: NSAttributeType, optional: Bool = false) -> NSAttributeDescription {
    let attribute = NSAttributeDescription()
    attribute.name = name
    attribute.attributeType = type
    attribute.isOptional = optional
    return attribute
}

/// An entity of a workload's model, backed by `className` (`"NSManagedObject"` for plain objects).
func makeEntity(_ name: String, className: String, properties: [NSPropertyDescription]) -> NSEntityDescription {
    let entity = NSEntityDescription()
    entity.name = name
    entity.managedObjectClassName = className
    entity.properties = properties
    return entity
}

/// The size of a workload: `standard` rows, or `OCD_BENCH_ROWS` when set (smaller runs under valgrind).
func workloadRows(_ standard: Int) -> Int {
    ProcessInfo.processInfo.environment["OCD_BENCH_ROWS"].flatMap(Int.init) ?? standard
}

/// SQLite's destructor constant that makes it copy bound text (`SQLITE_TRANSIENT`).
var transientText: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
