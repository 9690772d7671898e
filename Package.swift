// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Ferry",
    // macOS and iOS build in .github/workflows/ci.yml; Linux is tested by .ci/run.
    platforms: [.macOS(.v13), .iOS(.v16)],
    // A library per target an app may embed, each named as its target.
    products: [
        "FerrySystem", "FerryJSON", "FerryFiles", "FerryModel", "FerryCoreData", "FerryCanonical",
        "FerryStore", "FerryConvert", "FerryArchive", "FerryFormats", "FerryView", "FerryBundle",
    ].map { Product.library(name: $0, targets: [$0]) } + [.executable(name: "ferry", targets: ["ferry"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `swift package generate-documentation` (`make docs`): the DocC of the libraries an app embeds.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    // Each target imports only targets above it in this list, and declares every one it imports.
    // The readers (model, Core Data, canonical, convert) link without libarchive: an app can
    // embed them and convert on the device.
    targets: [
        // The platform layer: the C library (Glibc or Darwin) and the system calls that differ
        // between Linux and Apple's systems, in one place (scripts/check_platform.py holds it).
        .target(name: "FerrySystem"),

        // JSON values, a strict reader and a deterministic writer, shared by every layer below.
        .target(name: "FerryJSON", dependencies: ["FerrySystem"]),

        // Outputs that appear whole or not at all: flushing, renaming into place, atomic files;
        // scratch files named by their run, removed when it is interrupted or found dead; and
        // what a reader needs of an archive, so that readers need not link libarchive.
        .target(name: "FerryFiles", dependencies: ["FerrySystem"]),

        // Model: parse, resolve versions, lint and diff Core Data model files.
        .target(name: "FerryModel", dependencies: ["FerryJSON", "FerryFiles", .product(name: "Crypto", package: "swift-crypto")]),

        // zlib, for the raw DEFLATE of Core Data's model cache.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Core Data and SwiftData stores (read only), compiled models, keyed archives, property lists.
        .target(
            name: "FerryCoreData",
            dependencies: ["FerryModel", "FerryJSON", "FerryFiles", "FerrySystem", "CZlib", .product(name: "GRDB", package: "GRDB.swift"),
                           // The C API under GRDB, to bind the rows `load` writes without boxing each value.
                           .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),

        // The canonical recipe / project / log models, their values, snapshot linking and the
        // conversion report: what the readers hand to the store.
        .target(
            name: "FerryCanonical",
            dependencies: ["FerryJSON", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The canonical SQLite store: schema migrations, writing batches, reading snapshots for
        // export, backups, merge. With `load`'s row binding in FerryCoreData, the only code that
        // calls SQLite's C API directly.
        .target(
            name: "FerryStore",
            dependencies: ["FerryCanonical", "FerryCoreData", "FerryModel", "FerryJSON", "FerryFiles", "FerrySystem", .product(name: "GRDB", package: "GRDB.swift"),
                           // The C API under GRDB, to bind the rows of bulk upserts without boxing each value.
                           .product(name: "GRDBSQLite", package: "GRDB.swift")],
            plugins: ["EmbedModels"]
        ),

        // Converting: the five apps' readers, normalisation into canonical records, and the
        // conversion job that writes them into the store.
        .target(
            name: "FerryConvert",
            dependencies: ["FerryCanonical", "FerryCoreData", "FerryStore", "FerryModel", "FerryJSON", "FerryFiles", "FerrySystem",
                           .product(name: "Crypto", package: "swift-crypto")],
            plugins: ["EmbedModels"]
        ),

        // libarchive, through a module map and a shim that re-exports the AE_IF* constants.
        .systemLibrary(name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // Reading and writing archives (zip, tar, tar.zst) over libarchive.
        .target(name: "FerryArchive", dependencies: ["CLibArchive", "FerryFiles", "FerryJSON", "FerrySystem", .product(name: "Crypto", package: "swift-crypto")]),

        // Other apps' formats written from a store snapshot: schema.org JSON-LD, Paprika, iCalendar,
        // CSV with a Data Package; and the reading of records with their parts that they share with the view.
        .target(name: "FerryFormats", dependencies: ["FerryStore", "FerryCoreData", "FerryArchive", "FerryJSON", "FerryFiles", "FerrySystem",
                                               .product(name: "Crypto", package: "swift-crypto")]),
        // The bundle's human view: static HTML pages rendered from a store snapshot.
        .target(name: "FerryView", dependencies: ["FerryCanonical", "FerryFormats", "FerryStore", "FerryJSON"]),

        // Portable bundles: BagIt bags of a store snapshot, per-table NDJSON and attachments in one
        // archive; verifying, unpacking into staging, importing.
        .target(
            name: "FerryBundle",
            dependencies: ["FerryArchive", "FerryStore", "FerryFormats", "FerryView", "FerryJSON", "FerryFiles", "FerrySystem", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The command-line tool: a thin layer over the libraries.
        .executableTarget(
            name: "ferry",
            dependencies: [
                "FerryModel",
                "FerryCoreData",
                "FerryJSON",
                "FerryFiles",
                "FerrySystem",
                "FerryCanonical",
                "FerryConvert",
                "FerryStore",
                "FerryArchive",
                "FerryBundle",
                "FerryFormats",
                "FerryView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Builds Formats/' models into FerryConvert (legacy) and FerryStore (canonical mirror).
        .executableTarget(name: "embed-models", path: "Tools/embed-models"),
        .plugin(name: "EmbedModels", capability: .buildTool(), dependencies: ["embed-models"], path: "Plugins/EmbedModels"),

        // Writes the sample stores in Samples/ (`make samples`).
        .executableTarget(name: "make-sample-stores", dependencies: ["FerryTestSupport"], path: "Tools/make-sample-stores"),

        // Tests
        .target(
            name: "FerryTestSupport",
            dependencies: ["FerryModel", "FerryCoreData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/FerryTestSupport"
        ),
        // `.needsCorpus`: the tests that read ../shared/corpus, skipped (and counted) without it.
        .target(name: "FerryTestTraits", dependencies: ["FerryTestSupport"], path: "Tests/FerryTestTraits"),
        .testTarget(name: "FerryJSONTests", dependencies: ["FerryJSON", "FerryTestSupport", "FerryTestTraits"]),
        .testTarget(name: "FerryModelTests", dependencies: ["FerryModel", "FerryJSON", "FerryTestSupport", "FerryTestTraits"], exclude: ["Fixtures", "Expected"]),
        .testTarget(
            name: "FerryCoreDataTests",
            dependencies: ["FerryCoreData", "FerryModel", "FerryJSON", "FerryFiles", "FerryTestSupport", "FerryTestTraits", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FerryStoreTests",
            dependencies: ["FerryStore", "FerryCanonical", "FerryJSON", "FerryTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FerryConvertTests",
            dependencies: ["FerryConvert", "FerryCanonical", "FerryStore", "FerryCoreData", "FerryArchive", "FerryJSON", "FerryModel",
                           "FerryTestSupport", "FerryTestTraits", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "FerryViewTests", dependencies: ["FerryView"]),
        .testTarget(
            name: "FerryBundleTests",
            dependencies: ["FerryView", "FerryBundle", "FerryFormats", "FerryCanonical", "FerryArchive", "FerryStore", "FerryConvert", "FerryJSON", "FerryTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "FerryCLITests",
            dependencies: ["ferry", "FerryModel", "FerryFiles", "FerryStore", "FerryTestSupport", "FerryTestTraits",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto")]
        ),
    ]
)
