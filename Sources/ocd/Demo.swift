import ArgumentParser
import OpenCoreData

/// `ocd demo`: the README's main job.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the demo: build the User/Post model of the first seed and show it."
    )

    func run() throws {
        print("OpenCoreData demo")
    }
}
