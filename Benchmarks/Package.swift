// swift-tools-version:6.1
import PackageDescription

// OpenCoreData's speed, measured side by side with the raw SQLite C API and GRDB on the same machine.
// A separate package so that the main build never pulls benchmark-only dependencies.
// Run: `swift package --disable-sandbox benchmark` (see README.md).
let package = Package(
    name: "OpenCoreDataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenCoreData", path: ".."),
        // The MallocInterposer trait keeps the allocation metrics; the other default trait
        // (RuntimeInterposer) needs a package this machine does not carry.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The workloads, one file per contender, shared by the benchmarks and the profiling driver.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "OpenCoreData", package: "OpenCoreData"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // ordo-one/benchmark's suite: `swift package --disable-sandbox benchmark`.
        .executableTarget(
            name: "Persistence",
            dependencies: [
                "Workloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Persistence",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Runs one workload once, for `valgrind --tool=callgrind`.
        .executableTarget(
            name: "workload-driver",
            dependencies: ["Workloads"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
