import ArgumentParser
import OpenCoreData

/// `ocd model`: work with Xcode model files.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Work with Xcode Core Data model files.",
        subcommands: [ModelPrint.self, ModelCompile.self]
    )
}

/// `ocd model print PATH [--version NAME]`: loads a model file and prints it as a tree.
struct ModelPrint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a model's entities, properties, fetch requests and configurations as a tree."
    )

    @Argument(help: "An .xcdatamodeld bundle, an .xcdatamodel version folder, a compiled .momd folder or .mom file.")
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
                    throw NSError(
                        domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                        userInfo: [
                            NSLocalizedDescriptionKey: "\(url.path): no version named \"\(version)\"; the bundle holds \(names)"
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

/// `ocd model compile MODEL -o DIR`: compiles a model as Xcode's model compiler does.
struct ModelCompile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a model as Xcode's model compiler (momc) does: an .xcdatamodeld into a .momd, an .xcdatamodel into a .mom.",
        discussion: """
            The .momd holds a .mom for every version and a VersionInfo.plist naming the current version and \
            each version's entity hashes; Apple's Core Data on Apple platforms reads it as it reads Xcode's. \
            No .omo (the optimized form Xcode adds) is written.
            """
    )

    @Argument(help: "An .xcdatamodeld bundle or an .xcdatamodel version folder.")
    var path: String

    @Option(name: [.short, .customLong("output")], help: "The folder to write the .momd (or .mom) into.")
    var output: String

    func run() throws {
        do {
            let source = URL(fileURLWithPath: path)
            let isBundle = source.pathExtension == "xcdatamodeld"
            let count = isBundle ? try NSManagedObjectModel.versions(inBundleAt: source).count : 1
            let progress = TerminalProgress(total: count, label: "compiling \(source.lastPathComponent)")
            progress.update(0)
            let written = try NSManagedObjectModel.compileModel(at: source, into: URL(fileURLWithPath: output))
            progress.finish()
            print(written.path)
        } catch {
            let message = "error: " + (error as NSError).localizedDescription + "\n"
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode.failure
        }
    }
}
