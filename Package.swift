// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

/// The library's checked and plain builds (Docs/Internals.md): `OCD_INTERNAL_CHECKS=1` compiles the run-time
/// checks of the invariants its runtime techniques rely on, and `OCD_PLAIN_SWIFT=1` switches every such
/// technique off; `OCD_NO_TYPED_RESULTS_CAST=1` switches off that one technique.
/// Set in the environment, they reach the core target alone, so a dependent package (Benchmarks/) rebuilds
/// only the library and what uses it, not its tools.
let openCoreDataSettings: [SwiftSetting] = [
    "OCD_INTERNAL_CHECKS", "OCD_PLAIN_SWIFT", "OCD_NO_TYPED_RESULTS_CAST",
].compactMap { name in
    Context.environment[name] == "1" ? .define(name) : nil
}

let package = Package(
    name: "OpenCoreData",
    // Synchronization's Atomic and Mutex, which the library uses, need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd", targets: ["ocd"]),
        .library(name: "MagicalRecord", targets: ["MagicalRecord"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // 603 matches the Swift 6.3 compiler's plug-in protocol (602's plug-ins print a spurious
        // "Internal Error: ... Corrupted JSON" when 6.3 closes the connection).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The library users import (Docs/Architecture.md): one file re-exporting the two targets below.
        .target(
            name: "OpenCoreData",
            dependencies: ["OpenCoreDataCore", "OpenCoreDataResults"]
        ),
        // Every layer from Support to Migration, in one module so that the hot paths inline across layers.
        .target(
            name: "OpenCoreDataCore",
            dependencies: [
                "COpenCoreDataRuntime",
                "OpenCoreDataMacros",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: openCoreDataSettings,
            linkerSettings: [.linkedLibrary("xml2", .when(platforms: [.linux]))]
        ),
        // NSFetchedResultsController, above the core: it observes contexts through their notifications.
        .target(
            name: "OpenCoreDataResults",
            dependencies: ["OpenCoreDataCore"]
        ),
        // What Swift cannot spell: the runtime's class-method lookup (see ManagedObjectOverrides.swift), a
        // conditional retain and C thread-local slots.
        // zlib inflates and deflates the raw DEFLATE streams of Core Data's model caches (Z_MODELCACHE).
        .target(name: "COpenCoreDataRuntime", linkerSettings: [.linkedLibrary("z")]),
        .macro(
            name: "OpenCoreDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "ocd",
            dependencies: [
                "OpenCoreData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The crash trials check stores with SQL of their own, beside the library.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // MagicalRecord's API (magicalpanda/MagicalRecord 2.4) over OpenCoreData, its own product. Build with
        // `-Xswiftc -DMR_LOGGING_DISABLED` to compile its logging out, as MagicalRecord's macro of that name does.
        .target(
            name: "MagicalRecord",
            dependencies: [
                "OpenCoreData",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "MagicalRecordTests",
            dependencies: ["MagicalRecord"],
            resources: [.copy("Resources/Staff.xcdatamodeld")]
        ),
        .testTarget(
            name: "OpenCoreDataTests",
            // The library, and its core, which the tests import @testable.
            dependencies: ["OpenCoreData", "OpenCoreDataCore"]
        ),
        .testTarget(
            name: "OpenCoreDataMacrosTests",
            dependencies: [
                "OpenCoreDataMacros",
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The PostgreSQL store (Docs/PostgreSQL.md), its own product on postgres-nio: users of the SQLite store do
// not build it. `OCD_WITHOUT_POSTGRESQL=1` leaves it out of this package's own build (CI's sanitized build).
if Context.environment["OCD_WITHOUT_POSTGRESQL"] != "1" {
    package.products.append(.library(name: "OpenCoreDataPostgreSQL", targets: ["OpenCoreDataPostgreSQL"]))
    package.dependencies.append(.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"))
    // `ocd demo --store postgres://…` runs the demo against a PostgreSQL server.
    if let ocd = package.targets.first(where: { $0.name == "ocd" }) {
        ocd.dependencies.append("OpenCoreDataPostgreSQL")
    }
    package.targets += [
        .target(
            name: "OpenCoreDataPostgreSQL",
            dependencies: [
                "OpenCoreData",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One node of the PostgreSQL store's many-process test.
        .executableTarget(
            name: "ocd-postgres-worker",
            dependencies: ["OpenCoreDataPostgreSQL"]
        ),
        .testTarget(
            name: "OpenCoreDataPostgreSQLTests",
            dependencies: ["OpenCoreDataPostgreSQL"]
        ),
    ]
}
