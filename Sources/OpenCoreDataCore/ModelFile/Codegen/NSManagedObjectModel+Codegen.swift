import Foundation

extension NSManagedObjectModel {
    /// Writes, into `directory`, the Swift source Xcode's "Manual/None" class generation writes for each
    /// entity of the model — `<Class>+CoreDataClass.swift` and `<Class>+CoreDataProperties.swift` — in
    /// OpenCoreData's dialect (`@Managed` properties, relationship accessors that call
    /// `managedAdd(_:toKey:)` and its siblings).
    ///
    /// - Returns: The files written, in entity-name order; files already there are replaced.
    ///
    /// This method is an OpenCoreData addition.
    @discardableResult
    public func writeManagedObjectClasses(into directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        for file in ManagedObjectCodeGenerator(model: self).files() {
            let url = directory.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url, options: .atomic)
            written.append(url)
        }
        return written
    }
}
