// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Ferry",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FerryJSON", targets: ["FerryJSON"]),
        .library(name: "FerryModel", targets: ["FerryModel"]),
        .library(name: "FerryLegacy", targets: ["FerryLegacy"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // JSON values, a strict reader and a deterministic writer, shared by every layer below.
        .target(name: "FerryJSON"),

        // Model: parse, resolve versions, lint and diff Core Data model files.
        .target(name: "FerryModel"),

        // Legacy readers: Core Data / SwiftData stores, keyed archives, the five apps' old formats.
        .target(
            name: "FerryLegacy",
            dependencies: ["FerryModel", "FerryJSON", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // The command-line tool: a thin layer over the libraries.
        .executableTarget(
            name: "ferry",
            dependencies: [
                "FerryModel",
                "FerryLegacy",
                "FerryJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests
        .target(
            name: "FerryTestSupport",
            dependencies: ["FerryModel", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/FerryTestSupport"
        ),
        .testTarget(name: "FerryJSONTests", dependencies: ["FerryJSON", "FerryTestSupport"]),
        .testTarget(name: "FerryModelTests", dependencies: ["FerryModel", "FerryTestSupport"], exclude: ["Fixtures", "Expected"]),
        .testTarget(
            name: "FerryLegacyTests",
            dependencies: ["FerryLegacy", "FerryTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FerryCLITests",
            dependencies: ["ferry", "FerryModel", "FerryTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
