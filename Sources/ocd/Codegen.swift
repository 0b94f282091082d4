import ArgumentParser
import OpenCoreData

/// `ocd codegen MODEL -o DIR`: writes the Swift classes of a model's entities, as Xcode's "Manual/None"
/// class generation writes them, in OpenCoreData's dialect.
struct Codegen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Write Swift classes for a model's entities, as Xcode's Manual/None class generation does.",
        discussion: """
            For each entity: <Class>+CoreDataClass.swift (the class) and <Class>+CoreDataProperties.swift \\
            (fetchRequest(), @Managed properties of the model's types, the generated relationship accessors). \\
            Read from a model's source, scalar types follow its "Use Scalar Type" settings.
            """
    )

    @Argument(help: "An .xcdatamodeld bundle, an .xcdatamodel version folder, a compiled .momd or .mom.")
    var model: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the Swift files into.")
    var output: String

    func run() throws {
        do {
            let loaded = try NSManagedObjectModel.load(from: URL(fileURLWithPath: model))
            for url in try loaded.writeManagedObjectClasses(into: URL(fileURLWithPath: output)) {
                print(url.path)
            }
        } catch {
            FileHandle.standardError.write(Data(("error: " + (error as NSError).localizedDescription + "\n").utf8))
            throw ExitCode.failure
        }
    }
}
