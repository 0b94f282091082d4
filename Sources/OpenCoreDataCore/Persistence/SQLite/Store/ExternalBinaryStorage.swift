import Foundation
import GRDB

/// Binary values of attributes that allow external storage, as Core Data's SQLite store keeps them: the
/// column holds a tag byte, then either the bytes themselves (`0x01`, values up to ``threshold``) or the
/// ASCII UUID of a file in `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store (`0x02`, larger
/// values). See `Docs/StoreFormat.md` and STORE-FORMAT §9.
struct ExternalBinaryStorage {
    /// Values larger than this many bytes go to a file. Apple does not document its threshold; about
    /// 100 KB is what Apple engineers have described, and OpenCoreData uses 100 KiB.
    static let threshold = 100 * 1024
    static let inlineTag: UInt8 = 0x01
    static let externalTag: UInt8 = 0x02

    /// The folder of externally stored values.
    let directory: URL

    init(storeURL: URL) {
        let name = storeURL.deletingPathExtension().lastPathComponent
        directory = storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// Whether the attribute's values are kept with a tag byte (and large ones in files).
    static func applies(to attribute: NSAttributeDescription) -> Bool {
        attribute.allowsExternalBinaryDataStorage
            && (attribute.attributeType == .binaryDataAttributeType || attribute.attributeType == .transformableAttributeType)
    }

    /// The file holding the value with the given reference.
    func file(_ reference: String) -> URL {
        directory.appendingPathComponent(reference, isDirectory: false)
    }

    /// The column bytes for `data`: inline with its tag, or a new file (recorded in `journal`) and its reference.
    func columnBytes(for data: Data, journal: ExternalDataJournal) throws -> Data {
        guard data.count > Self.threshold else { return Data([Self.inlineTag]) + data }
        let reference = UUID().uuidString
        let url = file(reference)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
        journal.created.append(url)
        return Data([Self.externalTag]) + Data(reference.utf8)
    }

    /// The file reference a column's bytes hold, or `nil` when the value is inline (or untagged) or the
    /// reference is not a plain file name (a damaged or hostile store must not lead reads or removals
    /// outside the external data folder).
    static func reference(in bytes: Data) -> String? {
        guard bytes.first == externalTag else { return nil }
        let text = String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        return isFileName(text) ? text : nil
    }

    /// Whether `text` can name a file of the folder: letters, digits, `-`, `_` and `.`, not starting
    /// with `.` (Core Data's references are UUID strings).
    static func isFileName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first != ".", text.utf8.count <= 255 else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
        }
    }

    /// The value bytes a column's bytes stand for: inline bytes without their tag, or the file's contents.
    /// Bytes with neither tag are returned as they are.
    func valueBytes(from bytes: Data) throws -> Data {
        switch bytes.first {
        case Self.inlineTag?:
            return Data(bytes.dropFirst())
        case Self.externalTag?:
            guard let reference = Self.reference(in: bytes) else {
                let text = String(decoding: bytes.dropFirst().prefix(60), as: UTF8.self)
                throw TransformableStorage.Failure(message: "the external data reference \"\(text)\" is not a file name of \(directory.path)")
            }
            do {
                return try Data(contentsOf: file(reference))
            } catch {
                throw TransformableStorage.Failure(message: "the externally stored value \(reference) is missing from \(directory.path)")
            }
        default:
            return bytes
        }
    }
}

/// The external data files one save creates and makes obsolete: created files are removed when the save
/// fails, obsolete ones (of replaced values and deleted rows) only once it has committed.
/// One save uses its journal on one thread.
final class ExternalDataJournal {
    var created: [URL] = []
    var obsolete: [URL] = []

    func commit() {
        for url in obsolete { try? FileManager.default.removeItem(at: url) }
        created = []
        obsolete = []
    }

    func rollback() {
        for url in created { try? FileManager.default.removeItem(at: url) }
        created = []
        obsolete = []
    }
}

extension SQLiteStore {
    /// The external storage of this store's file.
    var externalBinaryStorage: ExternalBinaryStorage { ExternalBinaryStorage(storeURL: fileURL) }

    /// An attribute value read from a column of an attribute that allows external storage.
    func readExternallyStorableValue(from databaseValue: DatabaseValue, attribute: NSAttributeDescription) throws -> Any? {
        guard let bytes = SQLiteValueEncoding.value(from: databaseValue, attributeType: .binaryDataAttributeType) as? Data else {
            return nil
        }
        let data = try externalBinaryStorage.valueBytes(from: bytes)
        if attribute.attributeType == .transformableAttributeType {
            return try TransformableStorage.value(from: data, attribute: attribute)
        }
        return data
    }
}

extension RowWriter {
    /// The column value of an attribute that allows external storage; large values are written to files.
    func externallyStorableValue(_ value: Any?, attribute: NSAttributeDescription) throws -> DatabaseValue {
        guard let value, !(value is NSNull) else { return .null }
        let data: Data?
        if attribute.attributeType == .transformableAttributeType {
            data = try TransformableStorage.data(for: value, attribute: attribute)
        } else {
            data = value as? Data
        }
        guard let data else { return .null }
        do {
            return try store.externalBinaryStorage.columnBytes(for: data, journal: externalData).databaseValue
        } catch let error as TransformableStorage.Failure {
            throw error
        } catch {
            throw TransformableStorage.Failure(
                message: "cannot write the external data of \(attribute._entity?.name ?? "").\(attribute.name): \(error.localizedDescription)")
        }
    }

    /// Marks the external files of a row's columns obsolete: those of `names` (every externally storable
    /// attribute when `nil`). The files are removed once the save commits.
    func noteObsoleteExternalData(of id: NSManagedObjectID, layout: SQLiteEntityLayout, names: Set<String>?) throws {
        guard let pk = id.primaryKey else { return }
        let columns = store.attributes(of: id.entity).values
            .filter { ExternalBinaryStorage.applies(to: $0) && (names?.contains($0.name) ?? true) }
            .compactMap { layout.attributeColumns[$0.name] }
        guard !columns.isEmpty else { return }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(layout.table) WHERE Z_PK = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [pk]) else { return }
        let storage = store.externalBinaryStorage
        for index in columns.indices {
            if let bytes = Data.fromDatabaseValue(row[index] as DatabaseValue), let reference = ExternalBinaryStorage.reference(in: bytes) {
                externalData.obsolete.append(storage.file(reference))
            }
        }
    }
}
