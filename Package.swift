// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Ferry",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FerryJSON", targets: ["FerryJSON"]),
        .library(name: "FerryModel", targets: ["FerryModel"]),
        .library(name: "FerryLegacy", targets: ["FerryLegacy"]),
        .library(name: "FerryCanonical", targets: ["FerryCanonical"]),
        .library(name: "FerryStore", targets: ["FerryStore"]),
        .library(name: "FerryArchive", targets: ["FerryArchive"]),
        .library(name: "FerryBundle", targets: ["FerryBundle"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
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

        // libarchive, through a module map and a shim that re-exports the AE_IF* constants.
        .systemLibrary(name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // Reading and writing archives (zip, tar, tar.zst) over libarchive.
        .target(name: "FerryArchive", dependencies: ["CLibArchive", .product(name: "Crypto", package: "swift-crypto")]),

        // Portable bundles: BagIt bags of a store snapshot, per-table NDJSON and attachments in one
        // archive; verifying, unpacking into staging, importing.
        .target(
            name: "FerryBundle",
            dependencies: ["FerryArchive", "FerryStore", "FerryJSON", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),

        // Canonical recipe / project / log models and the per-app normalizers that make them.
        .target(
            name: "FerryCanonical",
            dependencies: ["FerryLegacy", "FerryJSON", "FerryArchive", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The canonical SQLite store: schema migrations, upserting batches, backups.
        .target(
            name: "FerryStore",
            dependencies: ["FerryCanonical", "FerryJSON", .product(name: "GRDB", package: "GRDB.swift"),
                           // The C API under GRDB, to bind the rows of bulk upserts without boxing each value.
                           .product(name: "GRDBSQLite", package: "GRDB.swift"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The command-line tool: a thin layer over the libraries.
        .executableTarget(
            name: "ferry",
            dependencies: [
                "FerryModel",
                "FerryLegacy",
                "FerryJSON",
                "FerryCanonical",
                "FerryStore",
                "FerryBundle",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Writes the sample stores in Samples/ (`make samples`).
        .executableTarget(name: "make-sample-stores", dependencies: ["FerryTestSupport"], path: "Tools/make-sample-stores"),

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
            name: "FerryConvertTests",
            dependencies: ["FerryCanonical", "FerryStore", "FerryLegacy", "FerryArchive", "FerryJSON", "FerryModel", "FerryTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FerryBundleTests",
            dependencies: ["FerryBundle", "FerryArchive", "FerryStore", "FerryCanonical", "FerryTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FerryCLITests",
            dependencies: ["ferry", "FerryModel", "FerryTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
