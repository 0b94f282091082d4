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

/// `ocd model print PATH`: loads a model file and prints it as a tree.
struct ModelPrint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a model's entities, properties, fetch requests and configurations as a tree."
    )

    @Argument(help: "An .xcdatamodeld bundle or an .xcdatamodel version folder.")
    var path: String

    func run() throws {
        let url = URL(fileURLWithPath: path)
        let model: NSManagedObjectModel
        do {
            model = try NSManagedObjectModel.load(from: url)
        } catch {
            let message = "error: " + (error as NSError).localizedDescription + "\n"
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode.failure
        }
        print(model.treeDescription, terminator: "")
    }
}
