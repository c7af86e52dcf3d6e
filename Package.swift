// swift-tools-version:6.1

import Foundation
import PackageDescription

let package = Package(
    name: "MigrationBench",
    // Built and tested on Linux; macOS and iOS (the MigrationTesting library, for app tests on the simulator) are
    // declared from the import graph, which scripts/check-library-graph keeps free of Linux-only parts.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "migration-bench", targets: ["MigrationBenchCLI"]),
        .library(name: "ObjectModel", targets: ["ObjectModel"]),
        .library(name: "PersistentStore", targets: ["PersistentStore"]),
        .library(name: "DataGeneration", targets: ["DataGeneration"]),
        .library(name: "MigrationTesting", targets: ["MigrationTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // System libraries.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),

        // Libraries, from the bottom up.
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
        .target(
            name: "ObjectModel",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "PersistentStore", dependencies: ["SQLiteDatabase", "ObjectModel"]),
        .target(
            name: "MappingModel",
            dependencies: ["ObjectModel", "SQLiteDatabase", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "MigrationEngine",
            dependencies: ["ObjectModel", "PersistentStore", "MappingModel", "SQLiteDatabase", "Instrumentation"]
        ),
        .target(
            name: "DataGeneration",
            dependencies: [
                "PersistentStore", "ObjectModel", "SQLiteDatabase", "Instrumentation",
                .product(name: "Yams", package: "Yams"),
            ]),
        .target(
            name: "IntegrityVerification",
            dependencies: ["ObjectModel", "PersistentStore", "MappingModel", "SQLiteDatabase"]
        ),
        // perf_event_open and valgrind's client requests, which are variadic or macros that Swift cannot call.
        .target(name: "CCounters"),
        .target(name: "Instrumentation", dependencies: ["CCounters"]),
        .target(name: "ReportModel"),
        .target(
            name: "Reporting",
            dependencies: ["ReportModel", .product(name: "Mustache", package: "swift-mustache")]
        ),

        .target(
            name: "ScenarioRunner",
            dependencies: [
                "DataGeneration", "Instrumentation", "IntegrityVerification", "MappingModel", "MigrationEngine",
                "ObjectModel", "PersistentStore", "ReportModel", "SQLiteDatabase",
                .product(name: "Yams", package: "Yams"),
            ]
        ),

        // The library for an app's own migration tests.
        .target(
            name: "MigrationTesting",
            dependencies: [
                "DataGeneration", "Instrumentation", "IntegrityVerification", "MappingModel", "MigrationEngine",
                "ObjectModel", "PersistentStore", "ReportModel", "ScenarioRunner", "SQLiteDatabase",
            ]
        ),

        // The command-line tool; the only target that links jemalloc.
        .executableTarget(
            name: "MigrationBenchCLI",
            dependencies: [
                "CJemalloc",
                "DataGeneration",
                "Instrumentation",
                "IntegrityVerification",
                "MappingModel",
                "MigrationEngine",
                "ObjectModel",
                "PersistentStore",
                "ReportModel",
                "Reporting",
                "ScenarioRunner",
                "SQLiteDatabase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),

        // Tests: one target per module, plus end-to-end tests of the built executable.
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase"]),
        .target(
            name: "TestFixtures",
            dependencies: ["ObjectModel"],
            path: "Tests/TestFixtures",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "ObjectModelTests", dependencies: ["ObjectModel", "TestFixtures"]),
        .testTarget(name: "MappingModelTests", dependencies: ["MappingModel", "ObjectModel", "TestFixtures"]),
        .testTarget(
            name: "MigrationEngineTests",
            dependencies: [
                "MigrationEngine", "MappingModel", "ObjectModel", "PersistentStore", "SQLiteDatabase", "DataGeneration",
                "TestFixtures",
            ]
        ),
        .testTarget(
            name: "PersistentStoreTests",
            dependencies: ["PersistentStore", "ObjectModel", "SQLiteDatabase", "TestFixtures"]),
        .testTarget(
            name: "DataGenerationTests",
            dependencies: ["DataGeneration", "PersistentStore", "ObjectModel", "SQLiteDatabase", "TestFixtures"]
        ),
        .testTarget(
            name: "IntegrityVerificationTests",
            dependencies: [
                "IntegrityVerification", "MigrationEngine", "MappingModel", "ObjectModel", "PersistentStore",
                "SQLiteDatabase", "DataGeneration", "TestFixtures",
            ]
        ),
        .testTarget(name: "ReportModelTests", dependencies: ["ReportModel"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "ReportModel"], resources: [.copy("Golden")]),
        .testTarget(
            name: "ScenarioRunnerTests",
            dependencies: [
                "ScenarioRunner", "MigrationEngine", "MappingModel", "ObjectModel", "ReportModel", "Instrumentation",
                "DataGeneration", "PersistentStore", "TestFixtures",
            ]),
        .testTarget(
            name: "MigrationBenchCLITests",
            dependencies: [
                "MigrationBenchCLI", "MigrationEngine", "ReportModel", "ScenarioRunner", "SQLiteDatabase",
                "TestFixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]),
        .testTarget(
            name: "MigrationTestingTests", dependencies: ["MigrationTesting", "PersistentStore", "TestFixtures"]),
        // The README's example package (Examples/AppMigrationTests, an app team's own manifest): its tests are
        // built and run here, beside the package's own, so that the example cannot drift and costs no second build.
        .testTarget(
            name: "AppMigrationTests", dependencies: ["MigrationTesting"],
            path: "Examples/AppMigrationTests/Tests/AppMigrationTests", resources: [.copy("Fixtures")]),
    ]
)

// Fuzz targets (libFuzzer) exist only when scripts/fuzz builds them, never in the default build or CI.
if ProcessInfo.processInfo.environment["MIGRATIONBENCH_FUZZ"] != nil {
    package.products.append(.executable(name: "migration-bench-fuzz", targets: ["MigrationBenchFuzz"]))
    package.targets.append(
        .executableTarget(
            name: "MigrationBenchFuzz",
            dependencies: ["MappingModel", "ObjectModel", "PersistentStore", "ScenarioRunner"],
            path: "Fuzz/MigrationBenchFuzz"
        ))
}

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
