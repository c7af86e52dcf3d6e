// swift-tools-version:6.1

// An app team's migration tests with MigrationTesting: wibosco's CoreDataMigration-Example model (four versions),
// its two Xcode mapping models and its Post2ToPost3MigrationPolicy ported to Swift. The repository builds and
// runs these tests as its own test target 'AppMigrationTests' (see its Package.swift), and checks this manifest.

import PackageDescription

let package = Package(
    name: "AppMigrationTests",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // A path dependency is known by its folder's name ('package:' below would have to say the clone's folder
        // name) unless `name:` gives it one. From GitHub instead, the last part of the URL names it:
        //   .package(url: "https://github.com/<owner>/MigrationBench", branch: "main")
        .package(name: "MigrationBench", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "AppMigrationTests",
            dependencies: [.product(name: "MigrationTesting", package: "MigrationBench")],
            // Copied as a folder. Not one named 'Resources': SwiftPM on Linux takes that folder as the resource
            // bundle's own root, so Bundle.module.url(forResource: "Resources", ...) finds nothing.
            resources: [.copy("Fixtures")]
        )
    ]
)
