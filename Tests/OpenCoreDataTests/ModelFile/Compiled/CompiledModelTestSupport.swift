import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// The compiled model and the model caches of the fixture stores.
enum CompiledFixtures {
    /// `SampleModel.momd`, compiled by Apple's model compiler from `SampleModel.xcdatamodeld` beside it.
    static let sampleFolder = Fixtures.stores.appendingPathComponent("alemar11__CoreDataPlus__SampleModel_V2")
    static let sampleMomd = sampleFolder.appendingPathComponent("SampleModel.momd")
    static let sampleSource = sampleFolder.appendingPathComponent("SampleModel.xcdatamodeld")

    /// A fixture store with a model cache, and the source model version that wrote it (`nil`: the model
    /// exists only in the cache).
    struct CachedStore: Sendable, CustomTestStringConvertible {
        let folder: String
        let file: String
        let modelVersion: String?

        var testDescription: String { file }
        var url: URL { Fixtures.stores.appendingPathComponent(folder).appendingPathComponent(file) }
        var modelURL: URL? { modelVersion.map { Fixtures.stores.appendingPathComponent(folder).appendingPathComponent($0) } }

        /// Copies the store (and its `-wal` and `-shm`) into `directory`; returns the copy's URL.
        func copy(into directory: URL) throws -> URL {
            let target = directory.appendingPathComponent(file)
            for suffix in ["", "-wal", "-shm"] {
                let from = URL(fileURLWithPath: url.path + suffix)
                guard FileManager.default.fileExists(atPath: from.path) else { continue }
                try FileManager.default.copyItem(at: from, to: URL(fileURLWithPath: target.path + suffix))
            }
            return target
        }
    }

    static let cachedStores: [CachedStore] = [
        CachedStore(
            folder: "alemar11__CoreDataPlus__SampleModel_V1", file: "SampleModel_V1.sqlite",
            modelVersion: "SampleModel.xcdatamodeld/SampleModel.xcdatamodel"),
        CachedStore(
            folder: "alemar11__CoreDataPlus__SampleModel_V2", file: "SampleModel_V2.sqlite",
            modelVersion: "SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"),
        CachedStore(folder: "alemar11__CoreDataPlus__SampleModel2_V1", file: "SampleModel2_V1.sqlite", modelVersion: nil),
        CachedStore(
            folder: "wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example_3",
            file: "CoreDataMigration_Example_3.sqlite",
            modelVersion: "CoreDataMigration_Example.xcdatamodeld/CoreDataMigration_Example 3.xcdatamodel"),
        CachedStore(
            folder: "duckduckgo__BrowserServicesKit__Bookmarks_V5", file: "Bookmarks_V5.sqlite",
            modelVersion: "BookmarksModel.xcdatamodeld/BookmarksModel 5.xcdatamodel"),
    ]

    /// The raw `Z_MODELCACHE.Z_CONTENT` and the `Z_METADATA` hashes of a store (read from a copy: opening
    /// a WAL store can change it).
    static func cacheAndHashes(of store: CachedStore) throws -> (cache: Data, hashes: [String: Data]) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = try store.copy(into: directory)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let cache = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") ?? Data()
            let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") ?? Data()
            let metadata = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any] ?? [:]
            return (cache, metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:])
        }
    }

    /// The model in a store's cache.
    static func cachedModel(of store: CachedStore) throws -> NSManagedObjectModel {
        let blob = try cacheAndHashes(of: store).cache
        return try CompiledModelDecoder.decode(try RawDeflate.inflate(blob))
    }
}
