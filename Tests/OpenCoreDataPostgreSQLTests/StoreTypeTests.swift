import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

@Test func storeTypeIsPostgreSQL() {
    #expect(NSPersistentStore.StoreType.postgreSQL.rawValue == "PostgreSQL")
}
