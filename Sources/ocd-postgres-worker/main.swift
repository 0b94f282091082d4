// A node of the PostgreSQL store's many-process test (Tests/OpenCoreDataPostgreSQLTests): one process
// saving into a shared database, as a server of a deployment would.
//
//   ocd-postgres-worker <store URL> init
//   ocd-postgres-worker <store URL> work <worker number> <records> <saves> <other workers' records>
//
// `init` creates the layout and the one Counter object. `work` saves its records in that many saves, adds
// one to the counter ten times (refreshing and trying again after each 133020 conflict), then waits up
// to 60 seconds until it sees the other workers' records. It prints `saw <n>`, `conflicts <n>` and the
// keys it was given, and exits 0 when everything went as described.
import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

func workerModel() -> NSManagedObjectModel {
    func attribute(_ name: String) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = .integer64AttributeType
        attribute.isOptional = true
        return attribute
    }
    let record = NSEntityDescription()
    record.name = "Record"
    record.managedObjectClassName = "NSManagedObject"
    record.properties = [attribute("worker"), attribute("sequence")]
    let counter = NSEntityDescription()
    counter.name = "Counter"
    counter.managedObjectClassName = "NSManagedObject"
    counter.properties = [attribute("value")]
    let model = NSManagedObjectModel()
    model.entities = [record, counter]
    return model
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ocd-postgres-worker: \(message)\n".utf8))
    exit(1)
}

/// Runs the command the arguments name.
func main() {
    let arguments = CommandLine.arguments
    guard arguments.count >= 3, let url = URL(string: arguments[1]) else { fail("usage: ocd-postgres-worker <store URL> init|work ...") }
    PostgreSQLStore.register()
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: workerModel())
    do {
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
    } catch {
        fail("cannot open the store: \(error.localizedDescription)")
    }
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator

    switch arguments[2] {
    case "init":
        context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context).setValue(Int64(0), forKey: "value")
            do { try context.save() } catch { fail("cannot save the counter: \(error.localizedDescription)") }
        }
        print("ready")
    case "work":
        guard arguments.count == 7, let worker = Int64(arguments[3]), let records = Int(arguments[4]), let saves = Int(arguments[5]),
            let others = Int(arguments[6]), saves > 0
        else { fail("usage: ocd-postgres-worker <store URL> work <worker> <records> <saves> <others>") }
        context.performAndWait {
            var keys: [String] = []
            var sequence: Int64 = 0
            for save in 0..<saves {
                var inserted: [NSManagedObject] = []
                let count = records / saves + (save < records % saves ? 1 : 0)
                for _ in 0..<count {
                    let record = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
                    record.setValue(worker, forKey: "worker")
                    record.setValue(sequence, forKey: "sequence")
                    sequence += 1
                    inserted.append(record)
                }
                do { try context.save() } catch { fail("save \(save) failed: \(error.localizedDescription)") }
                keys += inserted.map { $0.objectID.uriRepresentation().lastPathComponent }
            }
            print("keys \(keys.joined(separator: ","))")

            var conflicts = 0
            let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
            guard let counter = (try? context.fetch(request))?.first else { fail("no counter") }
            var added = 0
            var attempts = 0
            while added < 10 {
                attempts += 1
                if attempts > 500 { fail("the counter never saved") }
                context.refresh(counter, mergeChanges: false)
                let value = counter.value(forKey: "value") as? Int64 ?? 0
                counter.setValue(value + 1, forKey: "value")
                do {
                    try context.save()
                    added += 1
                } catch let error as NSError where error.code == NSManagedObjectMergeError {
                    conflicts += 1
                    context.rollback()
                } catch {
                    fail("the counter's save failed: \(error.localizedDescription)")
                }
            }
            print("conflicts \(conflicts)")

            let othersRequest = NSFetchRequest<NSManagedObject>(entityName: "Record")
            othersRequest.predicate = NSPredicate(format: "worker != %@", NSNumber(value: worker))
            let deadline = Date().addingTimeInterval(60)
            var seen = 0
            while Date() < deadline {
                seen = (try? context.count(for: othersRequest)) ?? 0
                if seen >= others { break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            print("saw \(seen)")
            if seen < others { fail("saw only \(seen) of the other workers' records") }
        }
    default:
        fail("unknown command \(arguments[2])")
    }
}

main()
