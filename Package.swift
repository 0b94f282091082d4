// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd", targets: ["ocd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "OpenCoreData",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            linkerSettings: [.linkedLibrary("xml2", .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "ocd",
            dependencies: [
                "OpenCoreData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: ["OpenCoreData"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
