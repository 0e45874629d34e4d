// swift-tools-version: 6.1
// The benchmark package: beside the library, not inside it, so that users' builds
// never see its dependencies (the shape of apple/swift-nio's Benchmarks/Package.swift).
//
//     swift run -c release --package-path Benchmarks docstore-bench 100000
import PackageDescription

let package = Package(
    name: "DocStoreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DocStore", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The PostgreSQL peer: hand-written jsonb SQL through the same client library
        // DocStorePostgres uses.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // libjansson for the raw C peer. Not named CJansson: the root package has a
        // module of that name, and two module maps may not declare the same module.
        .systemLibrary(
            name: "CJanssonBench",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"]), .brew(["jansson"])]
        ),
        .executableTarget(
            name: "docstore-bench",
            dependencies: [
                .product(name: "DocStore", package: "DocStore"),
                .product(name: "DocStorePostgres", package: "DocStore"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CJanssonBench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
