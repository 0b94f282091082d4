import ArgumentParser
import OpenCoreData

/// The OpenCoreData command-line tool.
@main
struct OCD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocd",
        abstract: "Work with Core Data models and stores from the command line.",
        subcommands: [Demo.self, ModelCommand.self, SelfTest.self, Migrate.self, QueryCommand.self, Inspect.self, Dump.self, Codegen.self]
    )
}
