// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "DocStore",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "DocStore", targets: ["DocStore"]),
        // A separate product, so that embedded users never build NIO.
        .library(name: "DocStorePostgres", targets: ["DocStorePostgres"]),
        .executable(name: "docstore", targets: ["DocStoreCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", exact: "0.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
                .product(name: "DequeModule", package: "swift-collections"),
                "DocStoreMacros",
            ]
        ),
        // The PostgreSQL backend: DocStore's models, DSL and compiler on jsonb.
        .target(
            name: "DocStorePostgres",
            dependencies: [
                "DocStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .macro(
            name: "DocStoreMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "DocStoreTests",
            dependencies: ["DocStore", "DocStorePostgres", "CrashWriter", "Playground"],
            // The recorded SQLite corpus, and the script starting the PostgreSQL
            // test server, read by path.
            exclude: ["SQL/Fixtures", "Postgres/Server"],
            swiftSettings: [
                // Compile-time health: a long filter block must type-check fast.
                // The limit is wall-clock time: while a cold build keeps both of
                // a 2-core machine's cores busy, ordinary test expressions were
                // measured at 180-213 ms, so 200 failed builds at random, and a
                // fresh machine's cold build took 458 ms over an ordinary test
                // expression, so 400 did too; a DSL block that makes the type
                // checker crawl takes several seconds.
                .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=1500", "-warnings-as-errors"]),
            ]
        ),
        // `@Document` models in an app-style target: main-actor isolation by default
        // plus the upcoming features Xcode's "Approachable Concurrency" turns on
        // (isolated conformances are inferred, which is what made the generated
        // conformance main-actor isolated before it was `nonisolated`).
        .testTarget(
            name: "DocStoreDefaultIsolationTests",
            dependencies: ["DocStore"],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .unsafeFlags(["-warnings-as-errors"]),
            ]
        ),
        // `@Document` models in a Swift 5 language mode target still build and query.
        .testTarget(
            name: "DocStoreSwift5Tests",
            dependencies: ["DocStore"],
            swiftSettings: [
                .swiftLanguageMode(.v5),
                .unsafeFlags(["-warnings-as-errors"]),
            ]
        ),
        .testTarget(
            name: "DocStoreMacrosTests",
            dependencies: [
                "DocStoreMacros",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
        // The guided tour: `swift run Playground`.
        .executableTarget(
            name: "Playground",
            dependencies: ["DocStore"],
            path: "Playground",
            swiftSettings: [
                .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=1500", "-warnings-as-errors"]),
            ]
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
                // `docstore postgres://…`: the CLI (not the embedded library) builds NIO.
                "DocStorePostgres",
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
            // GRDB: fault tests hold locks and damage files behind DocStore's back.
            dependencies: ["DocStoreREPL", "DocStore", "DocStoreCLI", .product(name: "GRDB", package: "GRDB.swift")],
            // Expected answers and the Python script that computed them, read by path.
            exclude: ["Fixtures"],
            swiftSettings: [
                .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=1500", "-warnings-as-errors"]),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
