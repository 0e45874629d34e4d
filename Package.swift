// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DocStore",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "DocStore", targets: ["DocStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"]), .brew(["jansson"])]
        ),
        .target(
            name: "DocStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(
            name: "DocStoreTests",
            dependencies: ["DocStore", "CrashWriter", "Playground"]
        ),
        // The guided tour: `swift run Playground`.
        .executableTarget(
            name: "Playground",
            dependencies: ["DocStore"],
            path: "Playground"
        ),
        // A child process the crash-safety test kills mid-transaction.
        .executableTarget(
            name: "CrashWriter",
            dependencies: ["DocStore"],
            path: "Tests/CrashWriter"
        ),
    ],
    swiftLanguageModes: [.v6]
)
