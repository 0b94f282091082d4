import GRDB
import Testing

@testable import OpenCoreDataCore

@Suite("SQLite value encoding: attribute values as Core Data stores them, and back")
struct SQLiteValueEncodingTests {
    /// Writes a value into a column of the given declared type and reads back its storage class and value.
    func stored(_ value: DatabaseValue, declaredType: String) throws -> (String, DatabaseValue) {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE T (Z_PK INTEGER PRIMARY KEY, ZVALUE \(declaredType))")
            try db.execute(sql: "INSERT INTO T (ZVALUE) VALUES (?)", arguments: [value])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(ZVALUE), ZVALUE FROM T"))
            let kind: String = row[0]
            return (kind, row[1] as DatabaseValue)
        }
    }

    func roundTrip(_ value: Any, _ type: NSAttributeType) throws -> Any? {
        let declared = try #require(SQLiteColumnType.forAttributeType(type)).rawValue
        let (_, back) = try stored(SQLiteValueEncoding.databaseValue(for: value, attributeType: type), declaredType: declared)
        return SQLiteValueEncoding.value(from: back, attributeType: type)
    }

    @Test("integers keep their width and value; Booleans are 0 and 1")
    func integers() throws {
        #expect(try roundTrip(Int16.max, .integer16AttributeType) as? NSNumber == NSNumber(value: Int16.max))
        #expect(try roundTrip(-7, .integer32AttributeType) as? Int32 == -7)
        #expect(try roundTrip(Int64.min, .integer64AttributeType) as? Int64 == Int64.min)
        #expect(try roundTrip(NSNumber(value: 42), .integer64AttributeType) as? Int == 42)
        #expect(try roundTrip(true, .booleanAttributeType) as? Bool == true)
        #expect(try roundTrip(false, .booleanAttributeType) as? Bool == false)
        #expect(SQLiteValueEncoding.databaseValue(for: true, attributeType: .booleanAttributeType) == 1.databaseValue)
        #expect(SQLiteValueEncoding.databaseValue(for: false, attributeType: .booleanAttributeType) == 0.databaseValue)
    }

    @Test("Double and Float are REAL")
    func floats() throws {
        #expect(try roundTrip(3.141592653589793, .doubleAttributeType) as? Double == 3.141592653589793)
        #expect(try roundTrip(Float(1.5), .floatAttributeType) as? Float == 1.5)
        #expect(try stored(SQLiteValueEncoding.databaseValue(for: 2.0, attributeType: .doubleAttributeType), declaredType: "FLOAT").0 == "real")
    }

    @Test("dates are REAL seconds since 2001-01-01 00:00:00 UTC")
    func dates() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let encoded = SQLiteValueEncoding.databaseValue(for: date, attributeType: .dateAttributeType)
        #expect(encoded == (1_700_000_000.25 - 978_307_200).databaseValue)
        let (kind, _) = try stored(encoded, declaredType: "TIMESTAMP")
        #expect(kind == "real")
        #expect(try roundTrip(date, .dateAttributeType) as? Date == date)
    }

    @Test("strings are TEXT, unicode intact")
    func strings() throws {
        for text in ["Chloé", "ÉLODIE", "straße", "🎉 emoji", "", "tab\tnew\nline"] {
            #expect(try roundTrip(text, .stringAttributeType) as? String == text)
        }
    }

    @Test("UUIDs are 16-byte BLOBs of their bytes in order")
    func uuids() throws {
        let uuid = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
        let encoded = SQLiteValueEncoding.databaseValue(for: uuid, attributeType: .UUIDAttributeType)
        #expect(encoded == Data([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]).databaseValue)
        #expect(try stored(encoded, declaredType: "BLOB").0 == "blob")
        #expect(try roundTrip(uuid, .UUIDAttributeType) as? UUID == uuid)
    }

    @Test("URIs are their absolute string")
    func urls() throws {
        let url = try #require(URL(string: "https://example.com/a%20b?q=%C3%A9#top"))
        #expect(SQLiteValueEncoding.databaseValue(for: url, attributeType: .URIAttributeType) == url.absoluteString.databaseValue)
        #expect(try roundTrip(url, .URIAttributeType) as? URL == url)
    }

    @Test("binary data and transformed values are BLOBs of their bytes")
    func data() throws {
        let bytes = Data([0, 1, 2, 255, 0])
        #expect(try roundTrip(bytes, .binaryDataAttributeType) as? Data == bytes)
        #expect(try roundTrip(Data(), .binaryDataAttributeType) as? Data == Data())
        #expect(try roundTrip(bytes, .transformableAttributeType) as? Data == bytes)
    }

    @Test("decimals are numbers in the DECIMAL column: integral ones exact, others to double precision")
    func decimals() throws {
        let integral = try #require(try roundTrip(NSDecimalNumber(string: "123456789012345678"), .decimalAttributeType) as? NSDecimalNumber)
        #expect(integral == NSDecimalNumber(string: "123456789012345678"))
        #expect(try roundTrip(NSDecimalNumber(string: "12.5"), .decimalAttributeType) as? NSDecimalNumber == NSDecimalNumber(string: "12.5"))
        #expect(try roundTrip(NSDecimalNumber(string: "0.1"), .decimalAttributeType) as? NSDecimalNumber == NSDecimalNumber(string: "0.1"))
        #expect(try roundTrip(Decimal(string: "-3.75") ?? 0, .decimalAttributeType) as? NSDecimalNumber == NSDecimalNumber(string: "-3.75"))
        let (kind, _) = try stored(
            SQLiteValueEncoding.databaseValue(for: NSDecimalNumber(string: "7"), attributeType: .decimalAttributeType),
            declaredType: "DECIMAL")
        #expect(kind == "integer")
        let (realKind, _) = try stored(
            SQLiteValueEncoding.databaseValue(for: NSDecimalNumber(string: "7.5"), attributeType: .decimalAttributeType),
            declaredType: "DECIMAL")
        #expect(realKind == "real")
        // A decimal written as text by another program reads back too.
        #expect(
            SQLiteValueEncoding.value(from: "2.25".databaseValue, attributeType: .decimalAttributeType) as? NSDecimalNumber
                == NSDecimalNumber(string: "2.25"))
    }

    @Test("nil, NSNull and values of the wrong type are NULL; NULL reads as nil")
    func missing() throws {
        for type in NSAttributeType.allCases {
            #expect(SQLiteValueEncoding.databaseValue(for: nil, attributeType: type) == .null)
            #expect(SQLiteValueEncoding.databaseValue(for: NSNull(), attributeType: type) == .null)
            #expect(SQLiteValueEncoding.value(from: .null, attributeType: type) == nil)
        }
        #expect(SQLiteValueEncoding.databaseValue(for: "text", attributeType: .dateAttributeType) == .null)
        #expect(SQLiteValueEncoding.databaseValue(for: 5, attributeType: .UUIDAttributeType) == .null)
        #expect(SQLiteValueEncoding.value(from: Data([1, 2]).databaseValue, attributeType: .UUIDAttributeType) == nil)
    }

    @Test("object ID attributes store the ID's URI")
    func objectIDs() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let id = try fixture.objectID("Post", 3)
        let encoded = SQLiteValueEncoding.databaseValue(for: id.uriRepresentation(), attributeType: .objectIDAttributeType)
        #expect(encoded == id.uriRepresentation().absoluteString.databaseValue)
        #expect(SQLiteValueEncoding.value(from: encoded, attributeType: .objectIDAttributeType) as? URL == id.uriRepresentation())
    }

    @Test("a fetch binds constants with the same encoding the store writes")
    func boundLikeStored() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        let uuid = SQLiteFetchFixture.uuid(3)
        let birthday = SQLiteFetchFixture.reference.addingTimeInterval(-50 * 86_400)
        request.predicate = NSPredicate(format: "uuid == %@ AND birthday == %@ AND isActive == YES", uuid as NSUUID, birthday as NSDate)
        let query = try compiler.compile(request, selection: .objectIDs)
        #expect(try fixture.primaryKeys(query) == [3])
        #expect(!query.sql.contains(uuid.uuidString) && query.sql.contains("?"))
    }
}
