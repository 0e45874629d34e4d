// swift-tools-version: 6.1
import CompilerPluginSupport
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
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", exact: "0.7.0"),
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
                "DocStoreMacros",
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
            dependencies: ["DocStore", "CrashWriter", "Playground"],
            swiftSettings: [
                // Compile-time health: a long filter block must type-check fast.
                .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=200", "-warnings-as-errors"]),
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
                .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=200", "-warnings-as-errors"]),
            ]
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
