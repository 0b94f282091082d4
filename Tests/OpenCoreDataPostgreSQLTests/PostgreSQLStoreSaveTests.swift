import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

/// Saves into PostgreSQL: updates and deletes, versions in `Z_OPT`, keys from `Z_PRIMARYKEY`, optimistic
/// locking between coordinators (133020, or resolved by a merge policy), and saves the server refuses.
@Suite("PostgreSQL store saving", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreSaveTests {
    private func ann(_ context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == 'Ann'")
        return try #require(try context.fetch(request).first)
    }

    @Test("updates add one to Z_OPT, deletes remove the row, keys come from Z_PRIMARYKEY")
    func updateAndDelete() throws {
        let (url, coordinator) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let ann = try ann(context)
            ann.setValue(Int64(32), forKey: "age")
            try context.save()
            ann.setValue("Annie", forKey: "name")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name == 'Bo'")
            context.delete(try #require(try context.fetch(request).first))
            try context.save()
        }
        #expect(try PostgreSQLTestKit.psql("SELECT \"ZAGE\" || ':' || \"Z_OPT\" FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Annie'") == "32:3")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Bo'") == "0")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZNOTE\"") == "8")
        #expect(try PostgreSQLTestKit.psql("SELECT \"Z_MAX\" FROM \"\(schema)\".\"Z_PRIMARYKEY\" WHERE \"Z_NAME\" = 'Person'") == "5")
        #expect(try PostgreSQLTestKit.psql("SELECT max(\"Z_PK\") FROM \"\(schema)\".\"ZNOTE\"") == "10")
        let reader = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        try reader.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "age == 32")
            #expect(try reader.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Annie"])
        }
    }

    /// Two coordinators on one store read Ann; the first changes her age and saves. Returns the second's
    /// context and Ann there, read before that save.
    private func race() throws -> (URL, NSManagedObjectContext, NSManagedObject) {
        let (url, first) = try PostgreSQLTestKit.seeded()
        let second = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        let late = try second.performAndWait {
            let ann = try ann(second)
            _ = ann.value(forKey: "name")
            return ann
        }
        let context = PostgreSQLTestKit.context(first)
        try context.performAndWait { () throws -> Void in
            try ann(context).setValue(Int64(32), forKey: "age")
            try context.save()
        }
        return (url, second, late)
    }

    @Test("a conflicting save from a second coordinator fails with 133020 and writes nothing")
    func conflict() throws {
        let (url, second, ann) = try race()
        let schema = PostgreSQLTestKit.schema(of: url)
        try second.performAndWait { () throws -> Void in
            ann.setValue("Annie", forKey: "name")
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSManagedObjectMergeError)
            let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict]
            #expect(conflicts?.first?.sourceObject === ann)
            #expect(conflicts?.first?.oldVersionNumber == 1)
            #expect(conflicts?.first?.newVersionNumber == 2)
        }
        #expect(
            try PostgreSQLTestKit.psql("SELECT \"ZNAME\" || ':' || \"ZAGE\" || ':' || \"Z_OPT\" FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZAGE\" = 32")
                == "Ann:32:2")
    }

    @Test("a merge policy resolves the conflict and the save goes through")
    func mergePolicy() throws {
        let (url, second, ann) = try race()
        let schema = PostgreSQLTestKit.schema(of: url)
        try second.performAndWait { () throws -> Void in
            second.mergePolicy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
            ann.setValue("Annie", forKey: "name")
            try second.save()
        }
        #expect(
            try PostgreSQLTestKit.psql("SELECT \"ZNAME\" || ':' || \"ZAGE\" || ':' || \"Z_OPT\" FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZAGE\" = 32")
                == "Annie:32:3")
    }

    @Test("a save the server refuses fails whole: nothing of it is written")
    func refusedSave() throws {
        let (url, coordinator) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        // A check an operator added by hand: the second insert breaks it.
        _ = try PostgreSQLTestKit.psql("ALTER TABLE \"\(schema)\".\"ZPERSON\" ADD CONSTRAINT short_names CHECK (length(\"ZNAME\") < 10)")
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            try ann(context).setValue(Int64(99), forKey: "age")
            for name in ["Fay", "A name far too long"] {
                NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue(name, forKey: "name")
            }
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreSaveError)
            #expect(error.localizedDescription.contains("short_names"))
            #expect(context.hasChanges)
        }
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\"") == "5")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZAGE\" = 99") == "0")
    }
}
