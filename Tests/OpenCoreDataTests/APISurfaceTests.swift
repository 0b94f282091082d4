import OpenCoreData
// Names every symbol Docs/APISurface.md marks present (or present with a Linux difference), each with
// its exact type, so that a rename, a changed label, type, optionality or throwing, or a missing
// symbol fails the build. One test per section of the inventory; keep the two in step.
import Testing

@Suite("API surface")
struct APISurfaceTests {
    @Test("NSManagedObjectContextConcurrencyType: Apple's symbols with their types")
    func surface_NSManagedObjectContextConcurrencyType() async throws {
        do { _ = NSManagedObjectContextConcurrencyType.self }
        do { let _: NSManagedObjectContextConcurrencyType = .privateQueueConcurrencyType }
        do { let _: NSManagedObjectContextConcurrencyType = .mainQueueConcurrencyType }
        do { let _: NSManagedObjectContextConcurrencyType? = .init(rawValue: 0) }
    }

    @Test("NSManagedObjectContext: Apple's symbols with their types")
    func surface_NSManagedObjectContext() async throws {
        do { _ = NSManagedObjectContext.self }
        do { let _: (NSManagedObjectContextConcurrencyType) -> NSManagedObjectContext = NSManagedObjectContext.init(concurrencyType:) }
        do { let _: KeyPath<NSManagedObjectContext, NSManagedObjectContextConcurrencyType> = \NSManagedObjectContext.concurrencyType }
        do { let _: [NSManagedObjectContext.ConcurrencyType] = [.mainQueue, .privateQueue] }
        do {
            let _: (NSManagedObjectContextConcurrencyType) -> NSManagedObjectContext.ConcurrencyType = NSManagedObjectContext.ConcurrencyType.init(
                rawValue:)
        }
        do {
            let _: KeyPath<NSManagedObjectContext.ConcurrencyType, NSManagedObjectContextConcurrencyType> =
                \NSManagedObjectContext.ConcurrencyType.rawValue
        }
        do { let _: (NSManagedObjectContext.ConcurrencyType) -> NSManagedObjectContext = NSManagedObjectContext.init(_:) }
        do {
            let _: ReferenceWritableKeyPath<NSManagedObjectContext, NSPersistentStoreCoordinator?> =
                \NSManagedObjectContext.persistentStoreCoordinator
        }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, NSManagedObjectContext?> = \NSManagedObjectContext.parent }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, String?> = \NSManagedObjectContext.name }
        do { let _: KeyPath<NSManagedObjectContext, NSMutableDictionary> = \NSManagedObjectContext.userInfo }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, String?> = \NSManagedObjectContext.transactionAuthor }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, Bool> = \NSManagedObjectContext.automaticallyMergesChangesFromParent }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, Any> = \NSManagedObjectContext.mergePolicy }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, UndoManager?> = \NSManagedObjectContext.undoManager }
        do { let _: KeyPath<NSManagedObjectContext, Bool> = \NSManagedObjectContext.hasChanges }
        do { let _: KeyPath<NSManagedObjectContext, Set<NSManagedObject>> = \NSManagedObjectContext.insertedObjects }
        do { let _: KeyPath<NSManagedObjectContext, Set<NSManagedObject>> = \NSManagedObjectContext.updatedObjects }
        do { let _: KeyPath<NSManagedObjectContext, Set<NSManagedObject>> = \NSManagedObjectContext.deletedObjects }
        do { let _: KeyPath<NSManagedObjectContext, Set<NSManagedObject>> = \NSManagedObjectContext.registeredObjects }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, Bool> = \NSManagedObjectContext.propagatesDeletesAtEndOfEvent }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, Bool> = \NSManagedObjectContext.retainsRegisteredObjects }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, Bool> = \NSManagedObjectContext.shouldDeleteInaccessibleFaults }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, TimeInterval> = \NSManagedObjectContext.stalenessInterval }
        do { let _: KeyPath<NSManagedObjectContext, NSQueryGenerationToken?> = \NSManagedObjectContext.queryGenerationToken }
        do { let _: (NSManagedObjectContext) -> (NSQueryGenerationToken?) throws -> Void = NSManagedObjectContext.setQueryGenerationFrom(_:) }
        do { let _: (NSManagedObjectContext) -> (NSFetchRequest<NSManagedObject>) throws -> [NSManagedObject] = NSManagedObjectContext.fetch(_:) }
        do { let _: (NSManagedObjectContext) -> (NSFetchRequest<NSManagedObject>) throws -> Int = NSManagedObjectContext.count(for:) }
        do { let _: (NSManagedObjectContext) -> (NSPersistentStoreRequest) throws -> NSPersistentStoreResult = NSManagedObjectContext.execute(_:) }
        do { let _: (NSManagedObjectContext) -> (NSManagedObject) -> Void = NSManagedObjectContext.insert(_:) }
        do { let _: (NSManagedObjectContext) -> (NSManagedObject) -> Void = NSManagedObjectContext.delete(_:) }
        do { let _: (NSManagedObjectContext) -> () throws -> Void = NSManagedObjectContext.save }
        do { let _: (NSManagedObjectContext) -> () -> Void = NSManagedObjectContext.rollback }
        do { let _: (NSManagedObjectContext) -> () -> Void = NSManagedObjectContext.reset }
        do { let _: (NSManagedObjectContext) -> () -> Void = NSManagedObjectContext.undo }
        do { let _: (NSManagedObjectContext) -> () -> Void = NSManagedObjectContext.redo }
        do { let _: (NSManagedObjectContext) -> () -> Void = NSManagedObjectContext.processPendingChanges }
        do { let _: (NSManagedObjectContext) -> (NSManagedObjectID) -> NSManagedObject = NSManagedObjectContext.object(with:) }
        do { let _: (NSManagedObjectContext) -> (NSManagedObjectID) throws -> NSManagedObject = NSManagedObjectContext.existingObject(with:) }
        do { let _: (NSManagedObjectContext) -> (NSManagedObjectID) -> NSManagedObject? = NSManagedObjectContext.registeredObject(for:) }
        do { let _: (NSManagedObjectContext) -> (NSManagedObject, Bool) -> Void = NSManagedObjectContext.refresh(_:mergeChanges:) }
        do { let _: (NSManagedObjectContext) -> () -> Void = NSManagedObjectContext.refreshAllObjects }
        do { let _: (NSManagedObjectContext) -> (NSManagedObject) -> Void = NSManagedObjectContext.detectConflicts(for:) }
        do { let _: (NSManagedObjectContext) -> ([NSManagedObject]) throws -> Void = NSManagedObjectContext.obtainPermanentIDs(for:) }
        do { let _: (NSManagedObjectContext) -> (Any, NSPersistentStore) -> Void = NSManagedObjectContext.assign(_:to:) }
        do {
            let _: (NSManagedObjectContext) -> (NSManagedObject, NSManagedObjectID, NSPropertyDescription?) -> Bool = NSManagedObjectContext
                .shouldHandleInaccessibleFault(_:for:triggeredByProperty:)
        }
        do { let _: (NSManagedObjectContext) -> (Notification) -> Void = NSManagedObjectContext.mergeChanges(fromContextDidSave:) }
        do { let _: ([AnyHashable: Any], [NSManagedObjectContext]) -> Void = NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:) }
        do { let _: (NSManagedObjectContext) -> (@escaping @Sendable () -> Void) -> Void = NSManagedObjectContext.perform(_:) }
        do {
            let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            c.performAndWait { () -> Void in }
        }
        do {
            let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            let _: Int = c.performAndWait { 1 }
        }
        do {
            let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            let _: Int = await c.perform(schedule: .enqueued) { 1 }
        }
        do { let _: [NSManagedObjectContext.ScheduledTaskType] = [.immediate, .enqueued] }
    }

    @Test("Context notifications and userInfo keys: Apple's symbols with their types")
    func surface_Context_notifications_and_userInfo_keys() async throws {
        do { let _: Notification.Name = NSManagedObjectContext.didSaveObjectsNotification }
        do { let _: Notification.Name = NSManagedObjectContext.willSaveObjectsNotification }
        do { let _: Notification.Name = NSManagedObjectContext.didChangeObjectsNotification }
        do { let _: Notification.Name = NSManagedObjectContext.didSaveObjectIDsNotification }
        do { let _: Notification.Name = NSManagedObjectContext.didMergeChangesObjectIDsNotification }
        do { let _: Notification.Name = .NSManagedObjectContextObjectsDidChange }
        do { let _: Notification.Name = .NSManagedObjectContextWillSave }
        do { let _: Notification.Name = .NSManagedObjectContextDidSave }
        do { let _: Notification.Name = .NSManagedObjectContextDidSaveObjectIDs }
        do { let _: Notification.Name = .NSManagedObjectContextDidMergeChangesObjectIDs }
        do { let _: NSManagedObjectContext.NotificationKey = .insertedObjects }
        do {
            let _: [NSManagedObjectContext.NotificationKey] = [
                .sourceContext, .queryGeneration, .invalidatedAllObjects, .insertedObjects, .updatedObjects, .deletedObjects, .refreshedObjects,
                .invalidatedObjects, .insertedObjectIDs, .updatedObjectIDs, .deletedObjectIDs, .refreshedObjectIDs, .invalidatedObjectIDs,
            ]
        }
        do { let _: String = NSInsertedObjectsKey }
        do { let _: String = NSUpdatedObjectsKey }
        do { let _: String = NSDeletedObjectsKey }
        do { let _: String = NSRefreshedObjectsKey }
        do { let _: String = NSInvalidatedObjectsKey }
        do { let _: String = NSInvalidatedAllObjectsKey }
        do { let _: String = NSInsertedObjectIDsKey }
        do { let _: String = NSUpdatedObjectIDsKey }
        do { let _: String = NSDeletedObjectIDsKey }
        do { let _: String = NSRefreshedObjectIDsKey }
        do { let _: String = NSInvalidatedObjectIDsKey }
        do { let _: String = NSManagedObjectContextQueryGenerationKey }
    }

    @Test("NSManagedObject: Apple's symbols with their types")
    func surface_NSManagedObject() async throws {
        do { let _: ReferenceWritableKeyPath<NSManagedObject, Any?> = \NSManagedObject.[""] }
        do { _ = NSManagedObject.self }
        do { let _: (NSEntityDescription, NSManagedObjectContext?) -> NSManagedObject = NSManagedObject.init(entity:insertInto:) }
        do { let _: (NSManagedObjectContext) -> NSManagedObject = NSManagedObject.init(context:) }
        do { let _: () -> NSEntityDescription = NSManagedObject.entity }
        do { let _: () -> NSFetchRequest<any NSFetchRequestResult> = NSManagedObject.fetchRequest }
        do { let _: KeyPath<NSManagedObject, NSEntityDescription> = \NSManagedObject.entity }
        do { let _: KeyPath<NSManagedObject, NSManagedObjectID> = \NSManagedObject.objectID }
        do { let _: KeyPath<NSManagedObject, NSManagedObjectContext?> = \NSManagedObject.managedObjectContext }
        do { let _: KeyPath<NSManagedObject, Bool> = \NSManagedObject.isInserted }
        do { let _: KeyPath<NSManagedObject, Bool> = \NSManagedObject.isUpdated }
        do { let _: KeyPath<NSManagedObject, Bool> = \NSManagedObject.isDeleted }
        do { let _: KeyPath<NSManagedObject, Bool> = \NSManagedObject.isFault }
        do { let _: KeyPath<NSManagedObject, Bool> = \NSManagedObject.hasChanges }
        do { let _: KeyPath<NSManagedObject, Bool> = \NSManagedObject.hasPersistentChangedValues }
        do { let _: KeyPath<NSManagedObject, Int> = \NSManagedObject.faultingState }
        do { let _: Bool = NSManagedObject.contextShouldIgnoreUnmodeledPropertyChanges }
        do { let _: (NSManagedObject) -> (String) -> Bool = NSManagedObject.hasFault(forRelationshipNamed:) }
        do { let _: (NSManagedObject) -> (String) -> [NSManagedObjectID] = NSManagedObject.objectIDs(forRelationshipNamed:) }
        do { let _: (NSManagedObject) -> (String) -> Any? = NSManagedObject.value(forKey:) }
        do { let _: (NSManagedObject) -> (Any?, String) -> Void = NSManagedObject.setValue(_:forKey:) }
        do { let _: (NSManagedObject) -> (String) -> Any? = NSManagedObject.primitiveValue(forKey:) }
        do { let _: (NSManagedObject) -> (Any?, String) -> Void = NSManagedObject.setPrimitiveValue(_:forKey:) }
        do { let _: (NSManagedObject) -> (String) -> NSMutableSet = NSManagedObject.mutableSetValue(forKey:) }
        do { let _: (NSManagedObject) -> (String) -> NSMutableOrderedSet = NSManagedObject.mutableOrderedSetValue(forKey:) }
        do { let _: (NSManagedObject) -> ([String]?) -> [String: Any] = NSManagedObject.committedValues(forKeys:) }
        do { let _: (NSManagedObject) -> () -> [String: Any] = NSManagedObject.changedValues }
        do { let _: (NSManagedObject) -> () -> [String: Any] = NSManagedObject.changedValuesForCurrentEvent }
        do { let _: (NSManagedObject) -> (String?) -> Void = NSManagedObject.willAccessValue(forKey:) }
        do { let _: (NSManagedObject) -> (String?) -> Void = NSManagedObject.didAccessValue(forKey:) }
        do { let _: (NSManagedObject) -> (String) -> Void = NSManagedObject.willChangeValue(forKey:) }
        do { let _: (NSManagedObject) -> (String) -> Void = NSManagedObject.didChangeValue(forKey:) }
        do {
            let _: (NSManagedObject) -> (String, NSKeyValueSetMutationKind, Set<AnyHashable>) -> Void = NSManagedObject.willChangeValue(
                forKey:withSetMutation:using:)
        }
        do {
            let _: (NSManagedObject) -> (String, NSKeyValueSetMutationKind, Set<AnyHashable>) -> Void = NSManagedObject.didChangeValue(
                forKey:withSetMutation:using:)
        }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.awakeFromFetch }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.awakeFromInsert }
        do { let _: (NSManagedObject) -> (NSSnapshotEventType) -> Void = NSManagedObject.awake(fromSnapshotEvents:) }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.prepareForDeletion }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.willSave }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.didSave }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.willTurnIntoFault }
        do { let _: (NSManagedObject) -> () -> Void = NSManagedObject.didTurnIntoFault }
        do {
            let _: (NSManagedObject) -> (AutoreleasingUnsafeMutablePointer<AnyObject?>, String) throws -> Void = NSManagedObject.validateValue(
                _:forKey:)
        }
        do { let _: (NSManagedObject) -> () throws -> Void = NSManagedObject.validateForInsert }
        do { let _: (NSManagedObject) -> () throws -> Void = NSManagedObject.validateForUpdate }
        do { let _: (NSManagedObject) -> () throws -> Void = NSManagedObject.validateForDelete }
        do { let _: NSSnapshotEventType = [.undoInsertion, .undoDeletion, .undoUpdate, .rollback, .refresh, .mergePolicy] }
    }

    @Test("NSManagedObjectID: Apple's symbols with their types")
    func surface_NSManagedObjectID() async throws {
        do { _ = NSManagedObjectID.self }
        do { let _: KeyPath<NSManagedObjectID, NSEntityDescription> = \NSManagedObjectID.entity }
        do { let _: KeyPath<NSManagedObjectID, NSPersistentStore?> = \NSManagedObjectID.persistentStore }
        do { let _: KeyPath<NSManagedObjectID, Bool> = \NSManagedObjectID.isTemporaryID }
        do { let _: (NSManagedObjectID) -> () -> URL = NSManagedObjectID.uriRepresentation }
    }

    @Test("NSPersistentStoreCoordinator: Apple's symbols with their types")
    func surface_NSPersistentStoreCoordinator() async throws {
        do {
            let c = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel())
            let _: Int = c.performAndWait { 1 }
            let _: Int = try c.performAndWait { () throws -> Int in 1 }
        }
        do {
            let c = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel())
            let _: Int = await c.perform { 1 }
        }
        do {
            let _: NSPersistentStoreAsynchronousFetchResultCompletionBlock.Type = ((NSAsynchronousFetchResult<any NSFetchRequestResult>) -> Void).self
        }
        do { _ = NSPersistentStoreCoordinator.self }
        do { let _: (NSManagedObjectModel) -> NSPersistentStoreCoordinator = NSPersistentStoreCoordinator.init(managedObjectModel:) }
        do { let _: KeyPath<NSPersistentStoreCoordinator, NSManagedObjectModel> = \NSPersistentStoreCoordinator.managedObjectModel }
        do { let _: KeyPath<NSPersistentStoreCoordinator, [NSPersistentStore]> = \NSPersistentStoreCoordinator.persistentStores }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreCoordinator, String?> = \NSPersistentStoreCoordinator.name }
        do { let _: [String: NSValue] = NSPersistentStoreCoordinator.registeredStoreTypes }
        do { let _: (AnyClass?, String) -> Void = NSPersistentStoreCoordinator.registerStoreClass(_:forStoreType:) }
        do { let _: (AnyClass?, NSPersistentStore.StoreType) -> Void = NSPersistentStoreCoordinator.registerStoreClass(_:type:) }
        do {
            let _: (NSPersistentStoreCoordinator) -> (String, String?, URL?, [AnyHashable: Any]?) throws -> NSPersistentStore =
                NSPersistentStoreCoordinator.addPersistentStore(ofType:configurationName:at:options:)
        }
        do {
            let _: (NSPersistentStoreCoordinator) -> (NSPersistentStore.StoreType, String?, URL, [AnyHashable: Any]?) throws -> NSPersistentStore =
                NSPersistentStoreCoordinator.addPersistentStore(type:configuration:at:options:)
        }
        do {
            let _:
                (NSPersistentStoreCoordinator) -> (NSPersistentStoreDescription, @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) ->
                    Void = NSPersistentStoreCoordinator.addPersistentStore(with:completionHandler:)
        }
        do { let _: (NSPersistentStoreCoordinator) -> (NSPersistentStore) throws -> Void = NSPersistentStoreCoordinator.remove(_:) }
        do { let _: (NSPersistentStoreCoordinator) -> (URL) -> NSPersistentStore? = NSPersistentStoreCoordinator.persistentStore(for:) }
        do { let _: (NSPersistentStoreCoordinator) -> (NSPersistentStore) -> URL = NSPersistentStoreCoordinator.url(for:) }
        do { let _: (NSPersistentStoreCoordinator) -> (URL, NSPersistentStore) -> Bool = NSPersistentStoreCoordinator.setURL(_:for:) }
        do {
            let _: (NSPersistentStoreCoordinator) -> (URL) -> NSManagedObjectID? = NSPersistentStoreCoordinator.managedObjectID(forURIRepresentation:)
        }
        do { let _: (NSPersistentStoreCoordinator) -> (String) -> NSManagedObjectID? = NSPersistentStoreCoordinator.managedObjectID(for:) }
        do {
            let _: (NSPersistentStoreCoordinator) -> (NSPersistentStoreRequest, NSManagedObjectContext) throws -> Any = NSPersistentStoreCoordinator
                .execute(_:with:)
        }
        do { let _: (NSPersistentStoreCoordinator) -> (NSPersistentStore) -> [String: Any] = NSPersistentStoreCoordinator.metadata(for:) }
        do { let _: (NSPersistentStoreCoordinator) -> ([String: Any]?, NSPersistentStore) -> Void = NSPersistentStoreCoordinator.setMetadata(_:for:) }
        do {
            let _: (String, URL, [AnyHashable: Any]?) throws -> [String: Any] = NSPersistentStoreCoordinator.metadataForPersistentStore(
                ofType:at:options:)
        }
        do {
            let _: (NSPersistentStore.StoreType, URL, [AnyHashable: Any]?) throws -> [String: Any] = NSPersistentStoreCoordinator
                .metadataForPersistentStore(type:at:options:)
        }
        do {
            let _: ([String: Any]?, String, URL, [AnyHashable: Any]?) throws -> Void = NSPersistentStoreCoordinator.setMetadata(
                _:forPersistentStoreOfType:at:options:)
        }
        do {
            let _: ([String: Any]?, NSPersistentStore.StoreType, URL, [AnyHashable: Any]?) throws -> Void = NSPersistentStoreCoordinator.setMetadata(
                _:type:at:options:)
        }
        do {
            let _: (NSPersistentStoreCoordinator) -> (NSPersistentStore, URL, [AnyHashable: Any]?, String) throws -> NSPersistentStore =
                NSPersistentStoreCoordinator.migratePersistentStore(_:to:options:withType:)
        }
        do {
            let _:
                (NSPersistentStoreCoordinator) -> (NSPersistentStore, URL, [AnyHashable: Any]?, NSPersistentStore.StoreType) throws ->
                    NSPersistentStore = NSPersistentStoreCoordinator.migratePersistentStore(_:to:options:type:)
        }
        do {
            let _: (NSPersistentStoreCoordinator) -> (URL, String, [AnyHashable: Any]?) throws -> Void = NSPersistentStoreCoordinator
                .destroyPersistentStore(at:ofType:options:)
        }
        do {
            let _: (NSPersistentStoreCoordinator) -> (URL, NSPersistentStore.StoreType, [AnyHashable: Any]?) throws -> Void =
                NSPersistentStoreCoordinator.destroyPersistentStore(at:type:options:)
        }
        do {
            let _: (NSPersistentStoreCoordinator) -> (URL, [AnyHashable: Any]?, URL, [AnyHashable: Any]?, String) throws -> Void =
                NSPersistentStoreCoordinator.replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)
        }
        do {
            let _:
                (NSPersistentStoreCoordinator) -> (URL, [AnyHashable: Any]?, URL, [AnyHashable: Any]?, NSPersistentStore.StoreType) throws -> Void =
                    NSPersistentStoreCoordinator.replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)
        }
        do { let _: (NSPersistentStoreCoordinator) -> (@escaping @Sendable () -> Void) -> Void = NSPersistentStoreCoordinator.perform(_:) }
        do {
            let c = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel())
            c.performAndWait { () -> Void in }
        }
        do { let _: (NSPersistentStoreCoordinator) -> () throws -> Void = NSPersistentStoreCoordinator.finishDeferredLightweightMigration }
        do { let _: (NSPersistentStoreCoordinator) -> () throws -> Void = NSPersistentStoreCoordinator.finishDeferredLightweightMigrationTask }
        do { let _: Notification.Name = .NSPersistentStoreCoordinatorStoresDidChange }
        do { let _: Notification.Name = .NSPersistentStoreCoordinatorStoresWillChange }
        do { let _: Notification.Name = .NSPersistentStoreCoordinatorWillRemoveStore }
        do { let _: Notification.Name = .NSPersistentStoreRemoteChange }
        do { let _: String = NSAddedPersistentStoresKey }
        do { let _: String = NSRemovedPersistentStoresKey }
        do { let _: String = NSUUIDChangedPersistentStoresKey }
        do { let _: String = NSPersistentStoreURLKey }
        do { let _: String = NSPersistentHistoryTokenKey }
    }

    @Test("Store types, options and metadata keys: Apple's symbols with their types")
    func surface_Store_types_options_and_metadata_keys() async throws {
        do { let _: String = NSSQLiteStoreType }
        do { let _: String = NSInMemoryStoreType }
        do { let _: String = NSBinaryStoreType }
        do { let _: [NSPersistentStore.StoreType] = [.sqlite, .inMemory, .binary] }
        do { let _: String = NSReadOnlyPersistentStoreOption }
        do { let _: String = NSPersistentStoreTimeoutOption }
        do { let _: String = NSSQLitePragmasOption }
        do { let _: String = NSSQLiteAnalyzeOption }
        do { let _: String = NSSQLiteManualVacuumOption }
        do { let _: String = NSIgnorePersistentStoreVersioningOption }
        do { let _: String = NSMigratePersistentStoresAutomaticallyOption }
        do { let _: String = NSInferMappingModelAutomaticallyOption }
        do { let _: String = NSPersistentHistoryTrackingKey }
        do { let _: String = NSPersistentStoreRemoteChangeNotificationPostOptionKey }
        do { let _: String = NSPersistentStoreFileProtectionKey }
        do { let _: String = NSPersistentStoreForceDestroyOption }
        do { let _: String = NSPersistentStoreRemoveUbiquitousMetadataOption }
        do { let _: String = NSPersistentStoreDeferredLightweightMigrationOptionKey }
        do { let _: String = NSPersistentStoreStagedMigrationManagerOptionKey }
        do { let _: String = NSPersistentStoreConnectionPoolMaxSizeKey }
        do { let _: String = NSBinaryStoreSecureDecodingClasses }
        do { let _: String = NSBinaryStoreInsecureDecodingCompatibilityOption }
        do { let _: String = NSStoreTypeKey }
        do { let _: String = NSStoreUUIDKey }
        do { let _: String = NSStoreModelVersionHashesKey }
        do { let _: String = NSStoreModelVersionIdentifiersKey }
        do { let _: String = NSPersistenceFrameworkVersionKey }
        do { let _: String = NSStoreModelVersionChecksumKey }
        do { let _: String = NSPersistentStoreModelVersionChecksumKey }
        do { let _: Double = NSCoreDataVersionNumber }
    }

    @Test("NSIncrementalStore, NSIncrementalStoreNode, NSAtomicStore, NSAtomicStoreCacheNode: Apple's symbols with their types")
    func surface_CustomStores() async throws {
        do { let _: NSPersistentStore.Type = NSIncrementalStore.self }
        do { let _: (URL) -> Any = NSIncrementalStore.identifierForNewStore(at:) }
        do { let _: (NSIncrementalStore) -> () throws -> Void = NSIncrementalStore.loadMetadata }
        do { let _: (NSIncrementalStore) -> (NSPersistentStoreRequest, NSManagedObjectContext?) throws -> Any = NSIncrementalStore.execute(_:with:) }
        do {
            let _: (NSIncrementalStore) -> (NSManagedObjectID, NSManagedObjectContext) throws -> NSIncrementalStoreNode = NSIncrementalStore
                .newValuesForObject(with:with:)
        }
        do {
            let _: (NSIncrementalStore) -> (NSRelationshipDescription, NSManagedObjectID, NSManagedObjectContext?) throws -> Any = NSIncrementalStore
                .newValue(forRelationship:forObjectWith:with:)
        }
        do { let _: (NSIncrementalStore) -> ([NSManagedObject]) throws -> [NSManagedObjectID] = NSIncrementalStore.obtainPermanentIDs(for:) }
        do { let _: (NSIncrementalStore) -> ([NSManagedObjectID]) -> Void = NSIncrementalStore.managedObjectContextDidRegisterObjects(with:) }
        do { let _: (NSIncrementalStore) -> ([NSManagedObjectID]) -> Void = NSIncrementalStore.managedObjectContextDidUnregisterObjects(with:) }
        do { let _: (NSIncrementalStore) -> (NSEntityDescription, Any) -> NSManagedObjectID = NSIncrementalStore.newObjectID(for:referenceObject:) }
        do { let _: (NSIncrementalStore) -> (NSManagedObjectID) -> Any = NSIncrementalStore.referenceObject(for:) }
        do { let _: (NSManagedObjectID, [String: Any], UInt64) -> NSIncrementalStoreNode = NSIncrementalStoreNode.init(objectID:withValues:version:) }
        do { let _: (NSIncrementalStoreNode) -> ([String: Any], UInt64) -> Void = NSIncrementalStoreNode.update(withValues:version:) }
        do { let _: KeyPath<NSIncrementalStoreNode, NSManagedObjectID> = \NSIncrementalStoreNode.objectID }
        do { let _: KeyPath<NSIncrementalStoreNode, UInt64> = \NSIncrementalStoreNode.version }
        do { let _: (NSIncrementalStoreNode) -> (NSPropertyDescription) -> Any? = NSIncrementalStoreNode.value(for:) }
        do { let _: NSPersistentStore.Type = NSAtomicStore.self }
        do { let _: (NSAtomicStore) -> () throws -> Void = NSAtomicStore.load }
        do { let _: (NSAtomicStore) -> () throws -> Void = NSAtomicStore.save }
        do { let _: (NSAtomicStore) -> (NSManagedObject) -> NSAtomicStoreCacheNode = NSAtomicStore.newCacheNode(for:) }
        do { let _: (NSAtomicStore) -> (NSManagedObject) -> Any = NSAtomicStore.newReferenceObject(for:) }
        do { let _: (NSAtomicStore) -> (NSAtomicStoreCacheNode, NSManagedObject) -> Void = NSAtomicStore.updateCacheNode(_:from:) }
        do { let _: (NSAtomicStore) -> () -> Set<NSAtomicStoreCacheNode> = NSAtomicStore.cacheNodes }
        do { let _: (NSAtomicStore) -> (Set<NSAtomicStoreCacheNode>) -> Void = NSAtomicStore.addCacheNodes(_:) }
        do { let _: (NSAtomicStore) -> (Set<NSAtomicStoreCacheNode>) -> Void = NSAtomicStore.willRemoveCacheNodes(_:) }
        do { let _: (NSAtomicStore) -> (NSManagedObjectID) -> NSAtomicStoreCacheNode? = NSAtomicStore.cacheNode(for:) }
        do { let _: (NSAtomicStore) -> (NSEntityDescription, Any) -> NSManagedObjectID = NSAtomicStore.objectID(for:withReferenceObject:) }
        do { let _: (NSAtomicStore) -> (NSManagedObjectID) -> Any = NSAtomicStore.referenceObject(for:) }
        do { let _: (NSManagedObjectID) -> NSAtomicStoreCacheNode = NSAtomicStoreCacheNode.init(objectID:) }
        do { let _: KeyPath<NSAtomicStoreCacheNode, NSManagedObjectID> = \NSAtomicStoreCacheNode.objectID }
        do { let _: ReferenceWritableKeyPath<NSAtomicStoreCacheNode, NSMutableDictionary?> = \NSAtomicStoreCacheNode.propertyCache }
        do { let _: (NSAtomicStoreCacheNode) -> (String) -> Any? = NSAtomicStoreCacheNode.value(forKey:) }
        do { let _: (NSAtomicStoreCacheNode) -> (Any?, String) -> Void = NSAtomicStoreCacheNode.setValue(_:forKey:) }
    }

    @Test("NSPersistentStore: Apple's symbols with their types")
    func surface_NSPersistentStore() async throws {
        do { _ = NSPersistentStore.self }
        do {
            let _: (NSPersistentStoreCoordinator?, String?, URL, [AnyHashable: Any]?) -> NSPersistentStore = NSPersistentStore.init(
                persistentStoreCoordinator:configurationName:at:options:)
        }
        do { let _: KeyPath<NSPersistentStore, NSPersistentStoreCoordinator?> = \NSPersistentStore.persistentStoreCoordinator }
        do { let _: KeyPath<NSPersistentStore, String> = \NSPersistentStore.configurationName }
        do { let _: KeyPath<NSPersistentStore, [AnyHashable: Any]?> = \NSPersistentStore.options }
        do { let _: ReferenceWritableKeyPath<NSPersistentStore, URL?> = \NSPersistentStore.url }
        do { let _: ReferenceWritableKeyPath<NSPersistentStore, String?> = \NSPersistentStore.identifier }
        do { let _: KeyPath<NSPersistentStore, String> = \NSPersistentStore.type }
        do { let _: ReferenceWritableKeyPath<NSPersistentStore, Bool> = \NSPersistentStore.isReadOnly }
        do { let _: ReferenceWritableKeyPath<NSPersistentStore, [String: Any]?> = \NSPersistentStore.metadata }
        do { let _: (URL) throws -> [String: Any] = NSPersistentStore.metadataForPersistentStore(with:) }
        do { let _: ([String: Any]?, URL) throws -> Void = NSPersistentStore.setMetadata(_:forPersistentStoreAt:) }
        do { let _: (NSPersistentStore) -> () throws -> Void = NSPersistentStore.loadMetadata }
        do { let _: (NSPersistentStore) -> (NSPersistentStoreCoordinator) -> Void = NSPersistentStore.didAdd(to:) }
        do { let _: (NSPersistentStore) -> (NSPersistentStoreCoordinator?) -> Void = NSPersistentStore.willRemove(from:) }
        do { let _: () -> AnyClass = NSPersistentStore.migrationManagerClass }
    }

    @Test("NSPersistentStoreDescription: Apple's symbols with their types")
    func surface_NSPersistentStoreDescription() async throws {
        do { _ = NSPersistentStoreDescription.self }
        do { let _: (URL) -> NSPersistentStoreDescription = NSPersistentStoreDescription.init(url:) }
        do { let _: () -> NSPersistentStoreDescription = NSPersistentStoreDescription.init }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, String> = \NSPersistentStoreDescription.type }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, String?> = \NSPersistentStoreDescription.configuration }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, URL?> = \NSPersistentStoreDescription.url }
        do { let _: KeyPath<NSPersistentStoreDescription, [String: NSObject]> = \NSPersistentStoreDescription.options }
        do { let _: (NSPersistentStoreDescription) -> (NSObject?, String) -> Void = NSPersistentStoreDescription.setOption(_:forKey:) }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, Bool> = \NSPersistentStoreDescription.isReadOnly }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, TimeInterval> = \NSPersistentStoreDescription.timeout }
        do { let _: KeyPath<NSPersistentStoreDescription, [String: NSObject]> = \NSPersistentStoreDescription.sqlitePragmas }
        do { let _: (NSPersistentStoreDescription) -> (NSObject?, String) -> Void = NSPersistentStoreDescription.setValue(_:forPragmaNamed:) }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, Bool> = \NSPersistentStoreDescription.shouldAddStoreAsynchronously }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, Bool> = \NSPersistentStoreDescription.shouldMigrateStoreAutomatically }
        do {
            let _: ReferenceWritableKeyPath<NSPersistentStoreDescription, Bool> = \NSPersistentStoreDescription.shouldInferMappingModelAutomatically
        }
    }

    @Test("NSPersistentContainer: Apple's symbols with their types")
    func surface_NSPersistentContainer() async throws {
        do { _ = NSPersistentContainer.self }
        do { let _: (String) -> NSPersistentContainer = NSPersistentContainer.init(name:) }
        do { let _: (String, NSManagedObjectModel) -> NSPersistentContainer = NSPersistentContainer.init(name:managedObjectModel:) }
        do { let _: KeyPath<NSPersistentContainer, String> = \NSPersistentContainer.name }
        do { let _: KeyPath<NSPersistentContainer, NSManagedObjectModel> = \NSPersistentContainer.managedObjectModel }
        do { let _: KeyPath<NSPersistentContainer, NSPersistentStoreCoordinator> = \NSPersistentContainer.persistentStoreCoordinator }
        do { let _: KeyPath<NSPersistentContainer, NSManagedObjectContext> = \NSPersistentContainer.viewContext }
        do {
            let _: ReferenceWritableKeyPath<NSPersistentContainer, [NSPersistentStoreDescription]> =
                \NSPersistentContainer.persistentStoreDescriptions
        }
        do { let _: () -> URL = NSPersistentContainer.defaultDirectoryURL }
        do {
            let _: (NSPersistentContainer) -> (@escaping (NSPersistentStoreDescription, (any Error)?) -> Void) -> Void = NSPersistentContainer
                .loadPersistentStores(completionHandler:)
        }
        do { let _: (NSPersistentContainer) -> () -> NSManagedObjectContext = NSPersistentContainer.newBackgroundContext }
        do {
            let _: (NSPersistentContainer) -> (@escaping @Sendable (NSManagedObjectContext) -> Void) -> Void = NSPersistentContainer
                .performBackgroundTask(_:)
        }
        do {
            let c = NSPersistentContainer(name: "M", managedObjectModel: NSManagedObjectModel())
            let _: Int = await c.performBackgroundTask { _ in 1 }
        }
    }

    @Test("NSManagedObjectModel: Apple's symbols with their types")
    func surface_NSManagedObjectModel() async throws {
        do { _ = NSManagedObjectModel.self }
        do { let _: () -> NSManagedObjectModel = NSManagedObjectModel.init }
        do { let _: (URL) -> NSManagedObjectModel? = NSManagedObjectModel.init(contentsOf:) }
        do { let _: ([Bundle]?) -> NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from:) }
        do { let _: ([Bundle]?, [String: Any]) -> NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from:forStoreMetadata:) }
        do { let _: ([NSManagedObjectModel]?) -> NSManagedObjectModel? = NSManagedObjectModel.init(byMerging:) }
        do { let _: ([NSManagedObjectModel], [String: Any]) -> NSManagedObjectModel? = NSManagedObjectModel.init(byMerging:forStoreMetadata:) }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectModel, [NSEntityDescription]> = \NSManagedObjectModel.entities }
        do { let _: KeyPath<NSManagedObjectModel, [String: NSEntityDescription]> = \NSManagedObjectModel.entitiesByName }
        do { let _: KeyPath<NSManagedObjectModel, [String]> = \NSManagedObjectModel.configurations }
        do { let _: (NSManagedObjectModel) -> (String?) -> [NSEntityDescription]? = NSManagedObjectModel.entities(forConfigurationName:) }
        do { let _: (NSManagedObjectModel) -> ([NSEntityDescription], String) -> Void = NSManagedObjectModel.setEntities(_:forConfigurationName:) }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectModel, [String: String]?> = \NSManagedObjectModel.localizationDictionary }
        do {
            let _: KeyPath<NSManagedObjectModel, [String: NSFetchRequest<any NSFetchRequestResult>]> =
                \NSManagedObjectModel.fetchRequestTemplatesByName
        }
        do {
            let _: (NSManagedObjectModel) -> (String) -> NSFetchRequest<any NSFetchRequestResult>? = NSManagedObjectModel.fetchRequestTemplate(
                forName:)
        }
        do {
            let _: (NSManagedObjectModel) -> (String, [String: Any]) -> NSFetchRequest<any NSFetchRequestResult>? = NSManagedObjectModel
                .fetchRequestFromTemplate(withName:substitutionVariables:)
        }
        do {
            let _: (NSManagedObjectModel) -> (NSFetchRequest<any NSFetchRequestResult>?, String) -> Void = NSManagedObjectModel
                .setFetchRequestTemplate(_:forName:)
        }
        do { let _: KeyPath<NSManagedObjectModel, [String: Data]> = \NSManagedObjectModel.entityVersionHashesByName }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectModel, Set<AnyHashable>> = \NSManagedObjectModel.versionIdentifiers }
        do { let _: KeyPath<NSManagedObjectModel, String> = \NSManagedObjectModel.versionChecksum }
        do {
            let _: (NSManagedObjectModel) -> (String?, [String: Any]) -> Bool = NSManagedObjectModel.isConfiguration(
                withName:compatibleWithStoreMetadata:)
        }
        do { let _: (URL) throws -> [String: String] = NSManagedObjectModel.checksumsForVersionedModel(at:) }
    }

    @Test("NSEntityDescription: Apple's symbols with their types")
    func surface_NSEntityDescription() async throws {
        do { _ = NSEntityDescription.self }
        do { let _: (String, NSManagedObjectContext) -> NSEntityDescription? = NSEntityDescription.entity(forEntityName:in:) }
        do { let _: (String, NSManagedObjectContext) -> NSManagedObject = NSEntityDescription.insertNewObject(forEntityName:into:) }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, String?> = \NSEntityDescription.name }
        do { let _: KeyPath<NSEntityDescription, NSManagedObjectModel> = \NSEntityDescription.managedObjectModel }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, String?> = \NSEntityDescription.managedObjectClassName }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, String?> = \NSEntityDescription.renamingIdentifier }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, Bool> = \NSEntityDescription.isAbstract }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, [AnyHashable: Any]?> = \NSEntityDescription.userInfo }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, [NSEntityDescription]> = \NSEntityDescription.subentities }
        do { let _: KeyPath<NSEntityDescription, [String: NSEntityDescription]> = \NSEntityDescription.subentitiesByName }
        do { let _: KeyPath<NSEntityDescription, NSEntityDescription?> = \NSEntityDescription.superentity }
        do { let _: (NSEntityDescription) -> (NSEntityDescription) -> Bool = NSEntityDescription.isKindOf(entity:) }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, [NSPropertyDescription]> = \NSEntityDescription.properties }
        do { let _: KeyPath<NSEntityDescription, [String: NSPropertyDescription]> = \NSEntityDescription.propertiesByName }
        do { let _: KeyPath<NSEntityDescription, [String: NSAttributeDescription]> = \NSEntityDescription.attributesByName }
        do { let _: KeyPath<NSEntityDescription, [String: NSRelationshipDescription]> = \NSEntityDescription.relationshipsByName }
        do {
            let _: (NSEntityDescription) -> (NSEntityDescription) -> [NSRelationshipDescription] = NSEntityDescription.relationships(forDestination:)
        }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, [[Any]]> = \NSEntityDescription.uniquenessConstraints }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, [NSFetchIndexDescription]> = \NSEntityDescription.indexes }
        do { let _: KeyPath<NSEntityDescription, Data> = \NSEntityDescription.versionHash }
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, String?> = \NSEntityDescription.versionHashModifier }
    }

    /// The deprecated symbols of this section, named (type-checked) where that warns of nothing; never run.
    @available(*, deprecated)
    static func surface_NSEntityDescription_deprecated() {
        do { let _: ReferenceWritableKeyPath<NSEntityDescription, [[Any]]> = \NSEntityDescription.compoundIndexes }
    }

    @Test("NSPropertyDescription: Apple's symbols with their types")
    func surface_NSPropertyDescription() async throws {
        do { _ = NSPropertyDescription.self }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, String> = \NSPropertyDescription.name }
        do { let _: KeyPath<NSPropertyDescription, NSEntityDescription> = \NSPropertyDescription.entity }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, Bool> = \NSPropertyDescription.isOptional }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, Bool> = \NSPropertyDescription.isTransient }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, Bool> = \NSPropertyDescription.isIndexedBySpotlight }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, [AnyHashable: Any]?> = \NSPropertyDescription.userInfo }
        do { let _: KeyPath<NSPropertyDescription, [NSPredicate]> = \NSPropertyDescription.validationPredicates }
        do { let _: KeyPath<NSPropertyDescription, [Any]> = \NSPropertyDescription.validationWarnings }
        do {
            let _: (NSPropertyDescription) -> ([NSPredicate]?, [String]?) -> Void = NSPropertyDescription.setValidationPredicates(
                _:withValidationWarnings:)
        }
        do { let _: KeyPath<NSPropertyDescription, Data> = \NSPropertyDescription.versionHash }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, String?> = \NSPropertyDescription.versionHashModifier }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, String?> = \NSPropertyDescription.renamingIdentifier }
    }

    /// The deprecated symbols of this section, named (type-checked) where that warns of nothing; never run.
    @available(*, deprecated)
    static func surface_NSPropertyDescription_deprecated() {
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, Bool> = \NSPropertyDescription.isIndexed }
        do { let _: ReferenceWritableKeyPath<NSPropertyDescription, Bool> = \NSPropertyDescription.isStoredInExternalRecord }
    }

    @Test("NSAttributeDescription and NSAttributeType: Apple's symbols with their types")
    func surface_NSAttributeDescription_and_NSAttributeType() async throws {
        do { _ = NSAttributeDescription.self }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, NSAttributeType> = \NSAttributeDescription.attributeType }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, NSAttributeDescription.AttributeType> = \NSAttributeDescription.type }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, String?> = \NSAttributeDescription.attributeValueClassName }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, Any?> = \NSAttributeDescription.defaultValue }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, String?> = \NSAttributeDescription.valueTransformerName }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, Bool> = \NSAttributeDescription.allowsExternalBinaryDataStorage }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, Bool> = \NSAttributeDescription.preservesValueInHistoryOnDeletion }
        do { let _: ReferenceWritableKeyPath<NSAttributeDescription, Bool> = \NSAttributeDescription.allowsCloudEncryption }
        do {
            let _: [NSAttributeType] = [
                .undefinedAttributeType, .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .decimalAttributeType,
                .doubleAttributeType, .floatAttributeType, .stringAttributeType, .booleanAttributeType, .dateAttributeType, .binaryDataAttributeType,
                .UUIDAttributeType, .URIAttributeType, .transformableAttributeType, .objectIDAttributeType, .compositeAttributeType,
            ]
        }
        do {
            let _: [NSAttributeDescription.AttributeType] = [
                .undefined, .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binaryData, .uuid, .uri,
                .transformable, .objectID, .composite,
            ]
        }
        do { let _: ReferenceWritableKeyPath<NSDerivedAttributeDescription, NSExpression?> = \NSDerivedAttributeDescription.derivationExpression }
        do { let _: ReferenceWritableKeyPath<NSCompositeAttributeDescription, [NSAttributeDescription]> = \NSCompositeAttributeDescription.elements }
    }

    @Test("NSRelationshipDescription and NSDeleteRule: Apple's symbols with their types")
    func surface_NSRelationshipDescription_and_NSDeleteRule() async throws {
        do { _ = NSRelationshipDescription.self }
        do { let _: ReferenceWritableKeyPath<NSRelationshipDescription, NSEntityDescription?> = \NSRelationshipDescription.destinationEntity }
        do { let _: ReferenceWritableKeyPath<NSRelationshipDescription, NSRelationshipDescription?> = \NSRelationshipDescription.inverseRelationship }
        do { let _: ReferenceWritableKeyPath<NSRelationshipDescription, Int> = \NSRelationshipDescription.maxCount }
        do { let _: ReferenceWritableKeyPath<NSRelationshipDescription, Int> = \NSRelationshipDescription.minCount }
        do { let _: ReferenceWritableKeyPath<NSRelationshipDescription, NSDeleteRule> = \NSRelationshipDescription.deleteRule }
        do { let _: KeyPath<NSRelationshipDescription, Bool> = \NSRelationshipDescription.isToMany }
        do { let _: ReferenceWritableKeyPath<NSRelationshipDescription, Bool> = \NSRelationshipDescription.isOrdered }
        do { let _: KeyPath<NSRelationshipDescription, Data> = \NSRelationshipDescription.versionHash }
        do { let _: [NSDeleteRule] = [.noActionDeleteRule, .nullifyDeleteRule, .cascadeDeleteRule, .denyDeleteRule] }
    }

    @Test("NSFetchedPropertyDescription, NSExpressionDescription, fetch indexes: Apple's symbols with their types")
    func surface_NSFetchedPropertyDescription_NSExpressionDescription_fetch_indexes() async throws {
        do {
            let _: ReferenceWritableKeyPath<NSFetchedPropertyDescription, NSFetchRequest<any NSFetchRequestResult>?> =
                \NSFetchedPropertyDescription.fetchRequest
        }
        do { let _: ReferenceWritableKeyPath<NSExpressionDescription, NSExpression?> = \NSExpressionDescription.expression }
        do { let _: ReferenceWritableKeyPath<NSExpressionDescription, NSAttributeType> = \NSExpressionDescription.expressionResultType }
        do { let _: ReferenceWritableKeyPath<NSExpressionDescription, NSAttributeDescription.AttributeType> = \NSExpressionDescription.resultType }
        do { let _: (String, [NSFetchIndexElementDescription]?) -> NSFetchIndexDescription = NSFetchIndexDescription.init(name:elements:) }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSFetchIndexDescription, String>,
                    ReferenceWritableKeyPath<NSFetchIndexDescription, [NSFetchIndexElementDescription]>,
                    KeyPath<NSFetchIndexDescription, NSEntityDescription?>, ReferenceWritableKeyPath<NSFetchIndexDescription, NSPredicate?>
                ) = (\.name, \.elements, \.entity, \.partialIndexPredicate)
        }
        do {
            let _: (NSPropertyDescription, NSFetchIndexElementType) -> NSFetchIndexElementDescription = NSFetchIndexElementDescription.init(
                property:collationType:)
        }
        do {
            let _:
                (
                    KeyPath<NSFetchIndexElementDescription, NSPropertyDescription?>, KeyPath<NSFetchIndexElementDescription, String?>,
                    ReferenceWritableKeyPath<NSFetchIndexElementDescription, NSFetchIndexElementType>,
                    ReferenceWritableKeyPath<NSFetchIndexElementDescription, Bool>, KeyPath<NSFetchIndexElementDescription, NSFetchIndexDescription?>
                ) = (\.property, \.propertyName, \.collationType, \.isAscending, \.indexDescription)
        }
        do { let _: [NSFetchIndexElementType] = [.binary, .rTree] }
    }

    @Test("NSFetchRequest and NSPersistentStoreRequest: Apple's symbols with their types")
    func surface_NSFetchRequest_and_NSPersistentStoreRequest() async throws {
        do { _ = NSPersistentStoreRequest.self }
        do { let _: ReferenceWritableKeyPath<NSPersistentStoreRequest, [NSPersistentStore]?> = \NSPersistentStoreRequest.affectedStores }
        do { let _: KeyPath<NSPersistentStoreRequest, NSPersistentStoreRequestType> = \NSPersistentStoreRequest.requestType }
        do {
            let _: [NSPersistentStoreRequestType] = [
                .fetchRequestType, .saveRequestType, .batchInsertRequestType, .batchUpdateRequestType, .batchDeleteRequestType,
            ]
        }
        do { _ = NSFetchRequest<NSManagedObject>.self }
        do { let _: [any NSFetchRequestResult.Type] = [NSManagedObject.self, NSManagedObjectID.self, NSDictionary.self, NSNumber.self] }
        do { let _: (String) -> NSFetchRequest<NSManagedObject> = NSFetchRequest<NSManagedObject>.init(entityName:) }
        do { let _: () -> NSFetchRequest<NSManagedObject> = NSFetchRequest<NSManagedObject>.init }
        do { let _: (NSFetchRequest<NSManagedObject>) -> () throws -> [NSManagedObject] = NSFetchRequest<NSManagedObject>.execute }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, NSEntityDescription?> = \NSFetchRequest<NSManagedObject>.entity }
        do { let _: KeyPath<NSFetchRequest<NSManagedObject>, String?> = \NSFetchRequest<NSManagedObject>.entityName }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, NSPredicate?> = \NSFetchRequest<NSManagedObject>.predicate }
        do {
            let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, [NSSortDescriptor]?> = \NSFetchRequest<NSManagedObject>.sortDescriptors
        }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Int> = \NSFetchRequest<NSManagedObject>.fetchLimit }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Int> = \NSFetchRequest<NSManagedObject>.fetchOffset }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Int> = \NSFetchRequest<NSManagedObject>.fetchBatchSize }
        do {
            let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, NSFetchRequestResultType> = \NSFetchRequest<NSManagedObject>.resultType
        }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Bool> = \NSFetchRequest<NSManagedObject>.includesSubentities }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Bool> = \NSFetchRequest<NSManagedObject>.includesPropertyValues }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Bool> = \NSFetchRequest<NSManagedObject>.includesPendingChanges }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Bool> = \NSFetchRequest<NSManagedObject>.returnsObjectsAsFaults }
        do {
            let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, [String]?> =
                \NSFetchRequest<NSManagedObject>.relationshipKeyPathsForPrefetching
        }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, [Any]?> = \NSFetchRequest<NSManagedObject>.propertiesToFetch }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, [Any]?> = \NSFetchRequest<NSManagedObject>.propertiesToGroupBy }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, NSPredicate?> = \NSFetchRequest<NSManagedObject>.havingPredicate }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Bool> = \NSFetchRequest<NSManagedObject>.returnsDistinctResults }
        do { let _: ReferenceWritableKeyPath<NSFetchRequest<NSManagedObject>, Bool> = \NSFetchRequest<NSManagedObject>.shouldRefreshRefetchedObjects }
        do { let _: [NSFetchRequestResultType] = [.managedObjectResultType, .managedObjectIDResultType, .dictionaryResultType, .countResultType] }
        do {
            let _: (Set<NSManagedObject>?, Set<NSManagedObject>?, Set<NSManagedObject>?, Set<NSManagedObject>?) -> NSSaveChangesRequest =
                NSSaveChangesRequest.init(inserted:updated:deleted:locked:)
        }
        do {
            let _:
                (
                    KeyPath<NSSaveChangesRequest, Set<NSManagedObject>?>, KeyPath<NSSaveChangesRequest, Set<NSManagedObject>?>,
                    KeyPath<NSSaveChangesRequest, Set<NSManagedObject>?>, KeyPath<NSSaveChangesRequest, Set<NSManagedObject>?>
                ) = (\.insertedObjects, \.updatedObjects, \.deletedObjects, \.lockedObjects)
        }
        do { let _: (NSExpression, NSExpression, Bool) -> NSExpression = NSFetchRequestExpression.expression(forFetch:context:countOnly:) }
        do {
            let _:
                (
                    KeyPath<NSFetchRequestExpression, NSExpression>, KeyPath<NSFetchRequestExpression, NSExpression>,
                    KeyPath<NSFetchRequestExpression, Bool>
                ) = (\.requestExpression, \.contextExpression, \.isCountOnlyRequest)
        }
        do { let _: NSExpression.ExpressionType = NSFetchRequestExpressionType }
    }

    @Test("Results of requests: Apple's symbols with their types")
    func surface_Results_of_requests() async throws {
        do { _ = NSPersistentStoreResult.self }
        do {
            let _:
                (
                    KeyPath<NSPersistentStoreAsynchronousResult, NSManagedObjectContext>, KeyPath<NSPersistentStoreAsynchronousResult, (any Error)?>,
                    KeyPath<NSPersistentStoreAsynchronousResult, Progress?>
                ) = (\.managedObjectContext, \.operationError, \.progress)
        }
        do { let _: (NSPersistentStoreAsynchronousResult) -> () -> Void = NSPersistentStoreAsynchronousResult.cancel }
        do {
            let _: KeyPath<NSAsynchronousFetchResult<NSManagedObject>, [NSManagedObject]?> = \NSAsynchronousFetchResult<NSManagedObject>.finalResult
        }
        do {
            let _: KeyPath<NSAsynchronousFetchResult<NSManagedObject>, NSAsynchronousFetchRequest<NSManagedObject>> =
                \NSAsynchronousFetchResult<NSManagedObject>.fetchRequest
        }
        do {
            let _:
                (NSFetchRequest<NSManagedObject>, ((NSAsynchronousFetchResult<NSManagedObject>) -> Void)?) -> NSAsynchronousFetchRequest<
                    NSManagedObject
                > = NSAsynchronousFetchRequest<NSManagedObject>.init(fetchRequest:completionBlock:)
        }
        do {
            let _:
                (
                    KeyPath<NSAsynchronousFetchRequest<NSManagedObject>, NSFetchRequest<NSManagedObject>>,
                    ReferenceWritableKeyPath<NSAsynchronousFetchRequest<NSManagedObject>, Int>
                ) = (\.fetchRequest, \.estimatedResultCount)
        }
        do {
            let _: ((String) -> NSBatchUpdateRequest, (NSEntityDescription) -> NSBatchUpdateRequest) = (
                NSBatchUpdateRequest.init(entityName:), NSBatchUpdateRequest.init(entity:)
            )
        }
        do {
            let _:
                (
                    KeyPath<NSBatchUpdateRequest, String>, KeyPath<NSBatchUpdateRequest, NSEntityDescription>,
                    ReferenceWritableKeyPath<NSBatchUpdateRequest, NSPredicate?>, ReferenceWritableKeyPath<NSBatchUpdateRequest, Bool>,
                    ReferenceWritableKeyPath<NSBatchUpdateRequest, NSBatchUpdateRequestResultType>,
                    ReferenceWritableKeyPath<NSBatchUpdateRequest, [AnyHashable: Any]?>
                ) = (\.entityName, \.entity, \.predicate, \.includesSubentities, \.resultType, \.propertiesToUpdate)
        }
        do {
            let _: ((NSFetchRequest<any NSFetchRequestResult>) -> NSBatchDeleteRequest, ([NSManagedObjectID]) -> NSBatchDeleteRequest) = (
                NSBatchDeleteRequest.init(fetchRequest:), NSBatchDeleteRequest.init(objectIDs:)
            )
        }
        do {
            let _:
                (
                    KeyPath<NSBatchDeleteRequest, NSFetchRequest<any NSFetchRequestResult>>,
                    ReferenceWritableKeyPath<NSBatchDeleteRequest, NSBatchDeleteRequestResultType>
                ) = (\.fetchRequest, \.resultType)
        }
        do {
            let _: ((String, [[String: Any]]) -> NSBatchInsertRequest, (NSEntityDescription, [[String: Any]]) -> NSBatchInsertRequest) = (
                NSBatchInsertRequest.init(entityName:objects:), NSBatchInsertRequest.init(entity:objects:)
            )
        }
        do {
            let _:
                (
                    (String, @escaping (NSMutableDictionary) -> Bool) -> NSBatchInsertRequest,
                    (NSEntityDescription, @escaping (NSMutableDictionary) -> Bool) -> NSBatchInsertRequest
                ) = (NSBatchInsertRequest.init(entityName:dictionaryHandler:), NSBatchInsertRequest.init(entity:dictionaryHandler:))
        }
        do {
            let _:
                (
                    (String, @escaping (NSManagedObject) -> Bool) -> NSBatchInsertRequest,
                    (NSEntityDescription, @escaping (NSManagedObject) -> Bool) -> NSBatchInsertRequest
                ) = (NSBatchInsertRequest.init(entityName:managedObjectHandler:), NSBatchInsertRequest.init(entity:managedObjectHandler:))
        }
        do {
            let _:
                (
                    KeyPath<NSBatchInsertRequest, String>, KeyPath<NSBatchInsertRequest, NSEntityDescription?>,
                    ReferenceWritableKeyPath<NSBatchInsertRequest, [[String: Any]]?>,
                    ReferenceWritableKeyPath<NSBatchInsertRequest, NSBatchInsertRequestResultType>,
                    ReferenceWritableKeyPath<NSBatchInsertRequest, ((NSMutableDictionary) -> Bool)?>,
                    ReferenceWritableKeyPath<NSBatchInsertRequest, ((NSManagedObject) -> Bool)?>
                ) = (\.entityName, \.entity, \.objectsToInsert, \.resultType, \.dictionaryHandler, \.managedObjectHandler)
        }
        do {
            let _: (KeyPath<NSBatchUpdateResult, Any?>, KeyPath<NSBatchDeleteResult, Any?>, KeyPath<NSBatchInsertResult, Any?>) = (
                \.result, \.result, \.result
            )
        }
        do {
            let _:
                (
                    KeyPath<NSBatchUpdateResult, NSBatchUpdateRequestResultType>, KeyPath<NSBatchDeleteResult, NSBatchDeleteRequestResultType>,
                    KeyPath<NSBatchInsertResult, NSBatchInsertRequestResultType>
                ) = (\.resultType, \.resultType, \.resultType)
        }
        do { let _: [NSBatchUpdateRequestResultType] = [.statusOnlyResultType, .updatedObjectIDsResultType, .updatedObjectsCountResultType] }
        do { let _: [NSBatchDeleteRequestResultType] = [.resultTypeStatusOnly, .resultTypeObjectIDs, .resultTypeCount] }
        do { let _: [NSBatchInsertRequestResultType] = [.statusOnly, .objectIDs, .count] }
    }

    @Test("Persistent history: Apple's symbols with their types")
    func surface_Persistent_history() async throws {
        do {
            _ = (
                NSPersistentHistoryChangeRequest.self, NSPersistentHistoryTransaction.self, NSPersistentHistoryChange.self,
                NSPersistentHistoryToken.self, NSPersistentHistoryResult.self
            )
        }
        do { let _: NSPersistentStoreRequest.Type = NSPersistentHistoryChangeRequest.self }
        do { let _: NSPersistentStoreResult.Type = NSPersistentHistoryResult.self }
        do { let _: (Date) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after:) }
        do { let _: (NSPersistentHistoryToken?) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after:) }
        do { let _: (NSPersistentHistoryTransaction?) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after:) }
        do {
            let _: (NSFetchRequest<any NSFetchRequestResult>) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.fetchHistory(
                withFetch:)
        }
        do { let _: (Date) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before:) }
        do { let _: (NSPersistentHistoryToken?) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before:) }
        do { let _: (NSPersistentHistoryTransaction?) -> NSPersistentHistoryChangeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before:) }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSPersistentHistoryChangeRequest, NSPersistentHistoryResultType>,
                    KeyPath<NSPersistentHistoryChangeRequest, NSPersistentHistoryToken?>,
                    KeyPath<NSPersistentHistoryChangeRequest, NSFetchRequest<any NSFetchRequestResult>?>
                ) = (\.resultType, \.token, \.fetchRequest)
        }
        do {
            let _: (KeyPath<NSPersistentHistoryResult, Any?>, KeyPath<NSPersistentHistoryResult, NSPersistentHistoryResultType>) = (
                \.result, \.resultType
            )
        }
        do { let _: [NSPersistentHistoryResultType] = [.statusOnly, .objectIDs, .count, .transactionsOnly, .changesOnly, .transactionsAndChanges] }
        do {
            #expect(
                [NSPersistentHistoryResultType.statusOnly, .objectIDs, .count, .transactionsOnly, .changesOnly, .transactionsAndChanges].map(
                    \.rawValue) == [0, 1, 2, 3, 4, 5])
        }
        do { #expect([NSPersistentHistoryChangeType.insert, .update, .delete].map(\.rawValue) == [0, 1, 2]) }
        do { #expect(NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast).resultType == .transactionsAndChanges) }
        do {
            let _:
                (
                    KeyPath<NSPersistentHistoryTransaction, Date>, KeyPath<NSPersistentHistoryTransaction, [NSPersistentHistoryChange]?>,
                    KeyPath<NSPersistentHistoryTransaction, Int64>, KeyPath<NSPersistentHistoryTransaction, String>,
                    KeyPath<NSPersistentHistoryTransaction, String>, KeyPath<NSPersistentHistoryTransaction, String>,
                    KeyPath<NSPersistentHistoryTransaction, String?>, KeyPath<NSPersistentHistoryTransaction, String?>,
                    KeyPath<NSPersistentHistoryTransaction, NSPersistentHistoryToken>
                ) = (\.timestamp, \.changes, \.transactionNumber, \.storeID, \.bundleID, \.processID, \.contextName, \.author, \.token)
        }
        do { let _: (NSPersistentHistoryTransaction) -> () -> Notification = NSPersistentHistoryTransaction.objectIDNotification }
        do { let _: (NSManagedObjectContext) -> NSEntityDescription? = NSPersistentHistoryTransaction.entityDescription(with:) }
        do {
            let _: (NSEntityDescription?, NSFetchRequest<any NSFetchRequestResult>?) = (
                NSPersistentHistoryTransaction.entityDescription, NSPersistentHistoryTransaction.fetchRequest
            )
        }
        do {
            let _:
                (
                    KeyPath<NSPersistentHistoryChange, Int64>, KeyPath<NSPersistentHistoryChange, NSManagedObjectID>,
                    KeyPath<NSPersistentHistoryChange, NSPersistentHistoryChangeType>, KeyPath<NSPersistentHistoryChange, [AnyHashable: Any]?>,
                    KeyPath<NSPersistentHistoryChange, NSPersistentHistoryTransaction?>,
                    KeyPath<NSPersistentHistoryChange, Set<NSPropertyDescription>?>
                ) = (\.changeID, \.changedObjectID, \.changeType, \.tombstone, \.transaction, \.updatedProperties)
        }
        do { let _: (NSManagedObjectContext) -> NSEntityDescription? = NSPersistentHistoryChange.entityDescription(with:) }
        do {
            let _: (NSEntityDescription?, NSFetchRequest<any NSFetchRequestResult>?) = (
                NSPersistentHistoryChange.entityDescription, NSPersistentHistoryChange.fetchRequest
            )
        }
        do {
            let _: any (NSCopying & NSSecureCoding).Type = NSPersistentHistoryToken.self
            #expect(NSPersistentHistoryToken.supportsSecureCoding)
        }
        do {
            let _: any NSCopying.Type = NSPersistentHistoryTransaction.self
            let _: any NSCopying.Type = NSPersistentHistoryChange.self
        }
        do {
            let _: (NSPersistentStoreCoordinator) -> ([Any]?) -> NSPersistentHistoryToken? = NSPersistentStoreCoordinator
                .currentPersistentHistoryToken(fromStores:)
        }
        do { let _: ReferenceWritableKeyPath<NSManagedObjectContext, String?> = \NSManagedObjectContext.transactionAuthor }
        do {
            let _: (String, String, String, Notification.Name) = (
                NSPersistentHistoryTrackingKey, NSPersistentStoreRemoteChangeNotificationPostOptionKey, NSPersistentHistoryTokenKey,
                .NSPersistentStoreRemoteChange
            )
        }
        do { #expect(NSPersistentHistoryTrackingKey == "NSPersistentHistoryTrackingKey") }
        do { #expect(NSPersistentStoreRemoteChangeNotificationPostOptionKey == "NSPersistentStoreRemoteChangeNotificationOptionKey") }
        do { #expect(NSPersistentHistoryTokenKey == "historyToken") }
        do { #expect(Notification.Name.NSPersistentStoreRemoteChange.rawValue == "NSPersistentStoreRemoteChangeNotification") }
        do { #expect(NSPersistentHistoryTokenExpiredError == 134301) }
        do {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            #expect(NSPersistentHistoryTransaction.entityDescription(with: context)?.name == "Transaction")
            #expect(NSPersistentHistoryChange.entityDescription(with: context)?.name == "Change")
        }
    }

    @Test("Merge policies and conflicts: Apple's symbols with their types")
    func surface_Merge_policies_and_conflicts() async throws {
        do { let _: (NSMergePolicyType) -> NSMergePolicy = NSMergePolicy.init(merge:) }
        do {
            let _: [NSMergePolicy] = [
                NSMergePolicy.error, NSMergePolicy.rollback, NSMergePolicy.overwrite, NSMergePolicy.mergeByPropertyObjectTrump,
                NSMergePolicy.mergeByPropertyStoreTrump,
            ]
        }
        do { let _: KeyPath<NSMergePolicy, NSMergePolicyType> = \NSMergePolicy.mergeType }
        do { let _: (NSMergePolicy) -> ([Any]) throws -> Void = NSMergePolicy.resolve(mergeConflicts:) }
        do { let _: (NSMergePolicy) -> ([NSMergeConflict]) throws -> Void = NSMergePolicy.resolve(optimisticLockingConflicts:) }
        do { let _: (NSMergePolicy) -> ([NSConstraintConflict]) throws -> Void = NSMergePolicy.resolve(constraintConflicts:) }
        do {
            let _: [NSMergePolicyType] = [
                .errorMergePolicyType, .mergeByPropertyStoreTrumpMergePolicyType, .mergeByPropertyObjectTrumpMergePolicyType,
                .overwriteMergePolicyType, .rollbackMergePolicyType,
            ]
        }
        do {
            let _: [AnyObject] = [
                NSErrorMergePolicy, NSMergeByPropertyStoreTrumpMergePolicy, NSMergeByPropertyObjectTrumpMergePolicy, NSOverwriteMergePolicy,
                NSRollbackMergePolicy,
            ]
        }
        do {
            let _: (NSManagedObject, Int, Int, [String: Any]?, [String: Any]?) -> NSMergeConflict = NSMergeConflict.init(
                source:newVersion:oldVersion:cachedSnapshot:persistedSnapshot:)
        }
        do {
            let _:
                (
                    KeyPath<NSMergeConflict, NSManagedObject>, KeyPath<NSMergeConflict, [String: Any]?>, KeyPath<NSMergeConflict, [String: Any]?>,
                    KeyPath<NSMergeConflict, [String: Any]?>, KeyPath<NSMergeConflict, Int>, KeyPath<NSMergeConflict, Int>
                ) = (\.sourceObject, \.objectSnapshot, \.cachedSnapshot, \.persistedSnapshot, \.newVersionNumber, \.oldVersionNumber)
        }
        do {
            let _: ([String], NSManagedObject?, [AnyHashable: Any]?, [NSManagedObject], [Any]) -> NSConstraintConflict = NSConstraintConflict.init(
                constraint:database:databaseSnapshot:conflicting:conflictingSnapshots:)
        }
        do {
            let _:
                (
                    KeyPath<NSConstraintConflict, [String]>, KeyPath<NSConstraintConflict, [String: Any]>,
                    KeyPath<NSConstraintConflict, NSManagedObject?>, KeyPath<NSConstraintConflict, [String: Any]?>,
                    KeyPath<NSConstraintConflict, [NSManagedObject]>, KeyPath<NSConstraintConflict, [[AnyHashable: Any]]>
                ) = (\.constraint, \.constraintValues, \.databaseObject, \.databaseSnapshot, \.conflictingObjects, \.conflictingSnapshots)
        }
    }

    @Test("Query generations: Apple's symbols with their types")
    func surface_Query_generations() async throws {
        do { let _: NSQueryGenerationToken = NSQueryGenerationToken.current }
    }

    @Test("Migration: Apple's symbols with their types")
    func surface_Migration() async throws {
        do {
            let _: ([Bundle]?, NSManagedObjectModel?, NSManagedObjectModel?) -> NSMappingModel? = NSMappingModel.init(
                from:forSourceModel:destinationModel:)
        }
        do { let _: (URL?) -> NSMappingModel? = NSMappingModel.init(contentsOf:) }
        do {
            let _: (NSManagedObjectModel, NSManagedObjectModel) throws -> NSMappingModel = NSMappingModel.inferredMappingModel(
                forSourceModel:destinationModel:)
        }
        do {
            let _: (ReferenceWritableKeyPath<NSMappingModel, [NSEntityMapping]?>, KeyPath<NSMappingModel, [String: NSEntityMapping]>) = (
                \.entityMappings, \.entityMappingsByName
            )
        }
        do { _ = NSEntityMapping.self }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSEntityMapping, String?>, ReferenceWritableKeyPath<NSEntityMapping, NSEntityMappingType>,
                    ReferenceWritableKeyPath<NSEntityMapping, String?>, ReferenceWritableKeyPath<NSEntityMapping, Data?>,
                    ReferenceWritableKeyPath<NSEntityMapping, String?>, ReferenceWritableKeyPath<NSEntityMapping, Data?>
                ) = (\.name, \.mappingType, \.sourceEntityName, \.sourceEntityVersionHash, \.destinationEntityName, \.destinationEntityVersionHash)
        }
        do {
            let _:
                (ReferenceWritableKeyPath<NSEntityMapping, [NSPropertyMapping]?>, ReferenceWritableKeyPath<NSEntityMapping, [NSPropertyMapping]?>) = (
                    \.attributeMappings, \.relationshipMappings
                )
        }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSEntityMapping, NSExpression?>, ReferenceWritableKeyPath<NSEntityMapping, [AnyHashable: Any]?>,
                    ReferenceWritableKeyPath<NSEntityMapping, String?>
                ) = (\.sourceExpression, \.userInfo, \.entityMigrationPolicyClassName)
        }
        do {
            let _: [NSEntityMappingType] = [
                .undefinedEntityMappingType, .customEntityMappingType, .addEntityMappingType, .removeEntityMappingType, .copyEntityMappingType,
                .transformEntityMappingType,
            ]
        }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSPropertyMapping, String?>, ReferenceWritableKeyPath<NSPropertyMapping, NSExpression?>,
                    ReferenceWritableKeyPath<NSPropertyMapping, [AnyHashable: Any]?>
                ) = (\.name, \.valueExpression, \.userInfo)
        }
        do { let _: (NSManagedObjectModel, NSManagedObjectModel) -> NSMigrationManager = NSMigrationManager.init(sourceModel:destinationModel:) }
        do {
            let _: (NSMigrationManager) -> (URL, String, [AnyHashable: Any]?, NSMappingModel?, URL, String, [AnyHashable: Any]?) throws -> Void =
                NSMigrationManager.migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)
        }
        do {
            let _:
                (NSMigrationManager) -> (
                    URL, NSPersistentStore.StoreType, [AnyHashable: Any]?, NSMappingModel, URL, NSPersistentStore.StoreType, [AnyHashable: Any]?
                ) throws -> Void = NSMigrationManager.migrateStore(from:type:options:mapping:to:type:options:)
        }
        do {
            let _:
                (
                    KeyPath<NSMigrationManager, NSManagedObjectModel>, KeyPath<NSMigrationManager, NSManagedObjectModel>,
                    KeyPath<NSMigrationManager, NSMappingModel>, KeyPath<NSMigrationManager, NSManagedObjectContext>,
                    KeyPath<NSMigrationManager, NSManagedObjectContext>
                ) = (\.sourceModel, \.destinationModel, \.mappingModel, \.sourceContext, \.destinationContext)
        }
        do {
            let _:
                (
                    KeyPath<NSMigrationManager, NSEntityMapping>, KeyPath<NSMigrationManager, Float>,
                    ReferenceWritableKeyPath<NSMigrationManager, [AnyHashable: Any]?>, ReferenceWritableKeyPath<NSMigrationManager, Bool>
                ) = (\.currentEntityMapping, \.migrationProgress, \.userInfo, \.usesStoreSpecificMigrationManager)
        }
        do {
            let _: (NSMigrationManager) -> (NSManagedObject, NSManagedObject, NSEntityMapping) -> Void = NSMigrationManager.associate(
                sourceInstance:withDestinationInstance:for:)
        }
        do {
            let _:
                (
                    (NSMigrationManager) -> (String, [NSManagedObject]?) -> [NSManagedObject],
                    (NSMigrationManager) -> (String, [NSManagedObject]?) -> [NSManagedObject]
                ) = (
                    NSMigrationManager.destinationInstances(forEntityMappingName:sourceInstances:),
                    NSMigrationManager.sourceInstances(forEntityMappingName:destinationInstances:)
                )
        }
        do {
            let _:
                ((NSMigrationManager) -> (NSEntityMapping) -> NSEntityDescription?, (NSMigrationManager) -> (NSEntityMapping) -> NSEntityDescription?) =
                    (NSMigrationManager.sourceEntity(for:), NSMigrationManager.destinationEntity(for:))
        }
        do { let _: (NSMigrationManager) -> (any Error) -> Void = NSMigrationManager.cancelMigrationWithError(_:) }
        do { _ = NSEntityMigrationPolicy.self }
        do {
            let _:
                (
                    (NSEntityMigrationPolicy) -> (NSEntityMapping, NSMigrationManager) throws -> Void,
                    (NSEntityMigrationPolicy) -> (NSManagedObject, NSEntityMapping, NSMigrationManager) throws -> Void,
                    (NSEntityMigrationPolicy) -> (NSEntityMapping, NSMigrationManager) throws -> Void
                ) = (
                    NSEntityMigrationPolicy.begin(_:with:), NSEntityMigrationPolicy.createDestinationInstances(forSource:in:manager:),
                    NSEntityMigrationPolicy.endInstanceCreation(forMapping:manager:)
                )
        }
        do {
            let _:
                (
                    (NSEntityMigrationPolicy) -> (NSManagedObject, NSEntityMapping, NSMigrationManager) throws -> Void,
                    (NSEntityMigrationPolicy) -> (NSEntityMapping, NSMigrationManager) throws -> Void,
                    (NSEntityMigrationPolicy) -> (NSEntityMapping, NSMigrationManager) throws -> Void,
                    (NSEntityMigrationPolicy) -> (NSEntityMapping, NSMigrationManager) throws -> Void
                ) = (
                    NSEntityMigrationPolicy.createRelationships(forDestination:in:manager:),
                    NSEntityMigrationPolicy.endRelationshipCreation(forMapping:manager:),
                    NSEntityMigrationPolicy.performCustomValidation(forMapping:manager:), NSEntityMigrationPolicy.end(_:manager:)
                )
        }
        do {
            let _: [String] = [
                NSMigrationManagerKey, NSMigrationSourceObjectKey, NSMigrationDestinationObjectKey, NSMigrationEntityMappingKey,
                NSMigrationPropertyMappingKey, NSMigrationEntityPolicyKey,
            ]
        }
        do { let _: ([NSMigrationStage]) -> NSStagedMigrationManager = NSStagedMigrationManager.init(_:) }
        do {
            let _: (KeyPath<NSStagedMigrationManager, [NSMigrationStage]>, KeyPath<NSStagedMigrationManager, NSPersistentContainer?>) = (
                \.stages, \.container
            )
        }
        do {
            let _: ReferenceWritableKeyPath<NSMigrationStage, String?> = \NSMigrationStage.label
            let stage = NSLightweightMigrationStage([])
            stage.label = "x"
            let _: String = stage.label
        }
        do { let _: ([String]) -> NSLightweightMigrationStage = NSLightweightMigrationStage.init(_:) }
        do {
            let _: (NSManagedObjectModelReference, NSManagedObjectModelReference) -> NSCustomMigrationStage = NSCustomMigrationStage.init(
                migratingFrom:to:)
        }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSCustomMigrationStage, ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?>,
                    ReferenceWritableKeyPath<NSCustomMigrationStage, ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?>
                ) = (\.willMigrateHandler, \.didMigrateHandler)
        }
        do {
            let _:
                (
                    (NSManagedObjectModel, String) -> NSManagedObjectModelReference, (URL, String) -> NSManagedObjectModelReference,
                    (String, Bundle?, String) -> NSManagedObjectModelReference
                ) = (
                    NSManagedObjectModelReference.init(model:versionChecksum:), NSManagedObjectModelReference.init(fileURL:versionChecksum:),
                    NSManagedObjectModelReference.init(name:in:versionChecksum:)
                )
        }
        do {
            let _: (KeyPath<NSManagedObjectModelReference, NSManagedObjectModel>, KeyPath<NSManagedObjectModelReference, String>) = (
                \.resolvedModel, \.versionChecksum
            )
        }
        do {
            let _: ([AnyHashable: Any], Bundle?, String) -> NSManagedObjectModelReference = NSManagedObjectModelReference.init(
                entityVersionHashes:in:versionChecksum:)
        }
    }

    @Test("Fetched results controller: Apple's symbols with their types")
    func surface_Fetched_results_controller() async throws {
        do {
            let _: (NSFetchRequest<NSManagedObject>, NSManagedObjectContext, String?, String?) -> NSFetchedResultsController<NSManagedObject> =
                NSFetchedResultsController<NSManagedObject>.init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)
        }
        do { let _: (NSFetchedResultsController<NSManagedObject>) -> () throws -> Void = NSFetchedResultsController<NSManagedObject>.performFetch }
        do {
            let _:
                (
                    KeyPath<NSFetchedResultsController<NSManagedObject>, NSFetchRequest<NSManagedObject>>,
                    KeyPath<NSFetchedResultsController<NSManagedObject>, NSManagedObjectContext>,
                    KeyPath<NSFetchedResultsController<NSManagedObject>, String?>, KeyPath<NSFetchedResultsController<NSManagedObject>, String?>
                ) = (\.fetchRequest, \.managedObjectContext, \.sectionNameKeyPath, \.cacheName)
        }
        do {
            let _:
                (
                    ReferenceWritableKeyPath<NSFetchedResultsController<NSManagedObject>, (any NSFetchedResultsControllerDelegate)?>,
                    KeyPath<NSFetchedResultsController<NSManagedObject>, [NSManagedObject]?>,
                    KeyPath<NSFetchedResultsController<NSManagedObject>, [any NSFetchedResultsSectionInfo]?>,
                    KeyPath<NSFetchedResultsController<NSManagedObject>, [String]>
                ) = (\.delegate, \.fetchedObjects, \.sections, \.sectionIndexTitles)
        }
        do {
            let _:
                (
                    (NSFetchedResultsController<NSManagedObject>) -> (IndexPath) -> NSManagedObject,
                    (NSFetchedResultsController<NSManagedObject>) -> (NSManagedObject) -> IndexPath?
                ) = (NSFetchedResultsController<NSManagedObject>.object(at:), NSFetchedResultsController<NSManagedObject>.indexPath(forObject:))
        }
        do {
            let _:
                (
                    (NSFetchedResultsController<NSManagedObject>) -> (String) -> String?,
                    (NSFetchedResultsController<NSManagedObject>) -> (String, Int) -> Int
                ) = (
                    NSFetchedResultsController<NSManagedObject>.sectionIndexTitle(forSectionName:),
                    NSFetchedResultsController<NSManagedObject>.section(forSectionIndexTitle:at:)
                )
        }
        do { let _: (String?) -> Void = NSFetchedResultsController<NSManagedObject>.deleteCache(withName:) }
        do {
            let _:
                (
                    KeyPath<any NSFetchedResultsSectionInfo, String>, KeyPath<any NSFetchedResultsSectionInfo, String?>,
                    KeyPath<any NSFetchedResultsSectionInfo, Int>, KeyPath<any NSFetchedResultsSectionInfo, [Any]?>
                ) = (\.name, \.indexTitle, \.numberOfObjects, \.objects)
        }
        do { _ = (any NSFetchedResultsControllerDelegate).self }
        do { let _: [NSFetchedResultsChangeType] = [.insert, .delete, .move, .update] }
    }

    @Test("Value transformers: Apple's symbols with their types")
    func surface_Value_transformers() async throws {
        do {
            let _:
                ((ValueTransformer?, NSValueTransformerName) -> Void, (NSValueTransformerName) -> ValueTransformer?, () -> [NSValueTransformerName]) =
                    (ValueTransformer.setValueTransformer(_:forName:), ValueTransformer.init(forName:), ValueTransformer.valueTransformerNames)
        }
        do { let _: [AnyClass] = NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses }
        do { let _: NSValueTransformerName = .secureUnarchiveFromDataTransformerName }
    }

    @Test("Error codes (NSCocoaErrorDomain): Apple's symbols with their types")
    func surface_Error_codes_NSCocoaErrorDomain() async throws {
        do { #expect(NSManagedObjectValidationError == 1550) }
        do { #expect(NSManagedObjectConstraintValidationError == 1551) }
        do { #expect(NSValidationMultipleErrorsError == 1560) }
        do { #expect(NSValidationMissingMandatoryPropertyError == 1570) }
        do { #expect(NSValidationRelationshipLacksMinimumCountError == 1580) }
        do { #expect(NSValidationRelationshipExceedsMaximumCountError == 1590) }
        do { #expect(NSValidationRelationshipDeniedDeleteError == 1600) }
        do { #expect(NSValidationNumberTooLargeError == 1610) }
        do { #expect(NSValidationNumberTooSmallError == 1620) }
        do { #expect(NSValidationDateTooLateError == 1630) }
        do { #expect(NSValidationDateTooSoonError == 1640) }
        do { #expect(NSValidationInvalidDateError == 1650) }
        do { #expect(NSValidationStringTooLongError == 1660) }
        do { #expect(NSValidationStringTooShortError == 1670) }
        do { #expect(NSValidationStringPatternMatchingError == 1680) }
        do { #expect(NSValidationInvalidURIError == 1690) }
        do { #expect(NSManagedObjectContextLockingError == 132000) }
        do { #expect(NSPersistentStoreCoordinatorLockingError == 132010) }
        do { #expect(NSManagedObjectReferentialIntegrityError == 133000) }
        do { #expect(NSManagedObjectExternalRelationshipError == 133010) }
        do { #expect(NSManagedObjectMergeError == 133020) }
        do { #expect(NSManagedObjectConstraintMergeError == 133021) }
        do { #expect(NSPersistentStoreInvalidTypeError == 134000) }
        do { #expect(NSPersistentStoreTypeMismatchError == 134010) }
        do { #expect(NSPersistentStoreIncompatibleSchemaError == 134020) }
        do { #expect(NSPersistentStoreSaveError == 134030) }
        do { #expect(NSPersistentStoreIncompleteSaveError == 134040) }
        do { #expect(NSPersistentStoreSaveConflictsError == 134050) }
        do { #expect(NSCoreDataError == 134060) }
        do { #expect(NSPersistentStoreOperationError == 134070) }
        do { #expect(NSPersistentStoreOpenError == 134080) }
        do { #expect(NSPersistentStoreTimeoutError == 134090) }
        do { #expect(NSPersistentStoreUnsupportedRequestTypeError == 134091) }
        do { #expect(NSPersistentStoreIncompatibleVersionHashError == 134100) }
        do { #expect(NSMigrationError == 134110) }
        do { #expect(NSMigrationConstraintViolationError == 134111) }
        do { #expect(NSMigrationCancelledError == 134120) }
        do { #expect(NSMigrationMissingSourceModelError == 134130) }
        do { #expect(NSMigrationMissingMappingModelError == 134140) }
        do { #expect(NSMigrationManagerSourceStoreError == 134150) }
        do { #expect(NSMigrationManagerDestinationStoreError == 134160) }
        do { #expect(NSEntityMigrationPolicyError == 134170) }
        do { #expect(NSSQLiteError == 134180) }
        do { #expect(NSInferredMappingModelError == 134190) }
        do { #expect(NSExternalRecordImportError == 134200) }
        do { #expect(NSPersistentHistoryTokenExpiredError == 134301) }
        do { #expect(NSManagedObjectModelReferenceNotFoundError == 134504) }
        do { #expect(NSStagedMigrationFrameworkVersionMismatchError == 134505) }
        do { #expect(NSStagedMigrationBackwardMigrationError == 134506) }
    }

    @Test("Error userInfo keys and domains: Apple's symbols with their types")
    func surface_Error_userInfo_keys_and_domains() async throws {
        do { #expect(NSDetailedErrorsKey == "NSDetailedErrors") }
        do { #expect(NSValidationObjectErrorKey == "NSValidationErrorObject") }
        do { #expect(NSValidationKeyErrorKey == "NSValidationErrorKey") }
        do { #expect(NSValidationPredicateErrorKey == "NSValidationErrorPredicate") }
        do { #expect(NSValidationValueErrorKey == "NSValidationErrorValue") }
        do { #expect(NSAffectedStoresErrorKey == "NSAffectedStoresErrorKey") }
        do { #expect(NSAffectedObjectsErrorKey == "NSAffectedObjectsErrorKey") }
        do { #expect(NSPersistentStoreSaveConflictsErrorKey == "conflictList") }
        do { #expect(NSSQLiteErrorDomain == "NSSQLiteErrorDomain") }
    }
}
