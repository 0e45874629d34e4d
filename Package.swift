// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DocStore",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "DocStore", targets: ["DocStore"]),
        .executable(name: "docstore", targets: ["DocStoreCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
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
        // The `docstore` REPL: libedit for line editing, a library holding the
        // parser, commands and output (so tests reach them), and a thin main.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
        ),
        .target(
            name: "DocStoreREPL",
            dependencies: [
                "DocStore",
                "CJansson",
                "CEditLine",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "DocStoreCLI",
            dependencies: [
                "DocStoreREPL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DocStoreREPLTests",
            // DocStoreCLI: the tests run the built `docstore` binary.
            dependencies: ["DocStoreREPL", "DocStore", "DocStoreCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
