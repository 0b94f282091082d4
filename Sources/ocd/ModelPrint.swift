import ArgumentParser
import OpenCoreData

/// `ocd model`: work with Xcode model files.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Work with Xcode Core Data model files.",
        subcommands: [ModelPrint.self]
    )
}

/// `ocd model print PATH [--version NAME]`: loads a model file and prints it as a tree.
struct ModelPrint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a model's entities, properties, fetch requests and configurations as a tree."
    )

    @Argument(help: "An .xcdatamodeld bundle or an .xcdatamodel version folder.")
    var path: String

    @Option(name: .long, help: "The bundle version to print (e.g. \"Model 2\"); the current version by default.")
    var version: String?

    func run() throws {
        let url = URL(fileURLWithPath: path)
        do {
            let model: NSManagedObjectModel
            if let version {
                let versions = try NSManagedObjectModel.versions(inBundleAt: url)
                guard let match = versions.first(where: { $0.name == version || $0.url.lastPathComponent == version }) else {
                    let names = versions.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError, userInfo: [
                        NSLocalizedDescriptionKey: "\(url.path): no version named \"\(version)\"; the bundle holds \(names)",
                    ])
                }
                model = try match.loadModel()
            } else {
                model = try NSManagedObjectModel.load(from: url)
            }
            print(model.treeDescription, terminator: "")
        } catch {
            let message = "error: " + (error as NSError).localizedDescription + "\n"
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode.failure
        }
    }
}
