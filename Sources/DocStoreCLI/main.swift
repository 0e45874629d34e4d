import ArgumentParser
import DocStoreREPL

extension OutputMode: ExpressibleByArgument {}

/// `docstore`: explore a DocStore store with the Swift DSL's query language.
struct DocStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docstore",
        abstract: "Explore a DocStore store interactively, with the Swift DSL's query language.",
        discussion: """
            With no store file, opens an in-memory store holding sample data (teams and players). \
            Reads commands from the terminal with line editing, or from piped input (no prompt; \
            stops at the first error with exit code 1, or with --keep-going reports each error and \
            goes on). Type .help in the REPL for the commands.
            """
    )

    @Argument(help: ArgumentHelp("The store file (created if missing), or a PostgreSQL database: postgres://user@host/database (postgres://user@/database?host=/socket/directory for a Unix socket). Omit it for an in-memory store with sample data.", valueName: "store"))
    var store: String?

    @Flag(name: .long, help: "Open the store read-only: writes are refused.")
    var readOnly = false

    // Unconditional: "-1" is the (refused) value, not an unknown option ("Missing value").
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How long to wait for another process's lock before failing.", valueName: "seconds"))
    var busyTimeout: Double = 5

    @Option(name: .customShort("c"), help: ArgumentHelp("Run a command and exit (non-zero on error); repeat to run several in order.", valueName: "command"))
    var commands: [String] = []

    @Flag(name: .long, help: "Scripts and -c stop at the first error with exit code 1 (the default).")
    var bail = false

    @Flag(name: .long, help: "Scripts and -c report each error with its line and go on; exit code 1 at the end if any failed.")
    var keepGoing = false

    @Option(name: .long, help: "How results are printed: table, csv, tsv, markdown, json, ndjson or line.")
    var mode: OutputMode = .table

    @Flag(name: .long, help: "Open a store whose write-ahead log (-wal) is damaged before intact commits as of its last good commit, after copying the log to STORE-wal.damaged (refused otherwise: SQLite would drop those commits without a word).")
    var setAsideDamagedLog = false

    func validate() throws {
        guard busyTimeout >= 0, busyTimeout.isFinite else {
            throw ValidationError("--busy-timeout takes a number of seconds, 0 or more")
        }
        if bail, keepGoing { throw ValidationError("--bail and --keep-going contradict each other: give one") }
    }

    /// The wait, in milliseconds; a number too large for them is the longest
    /// (the store waits at most SQLite's longest anyway, about 24.8 days).
    static func duration(seconds: Double) -> Duration {
        let milliseconds = seconds * 1000
        return .milliseconds(milliseconds < Double(Int64.max) ? Int64(milliseconds) : Int64.max)
    }

    func run() throws {
        let code = REPLLauncher.run(.init(storePath: store, readOnly: readOnly, commands: commands, mode: mode,
                                          busyTimeout: Self.duration(seconds: busyTimeout), keepGoing: keepGoing,
                                          setAsideDamagedLog: setAsideDamagedLog))
        if code != 0 { throw ExitCode(code) }
    }
}

/// `docstore copy SOURCE DEST`: a store's collections, indexes and key/value
/// entries into another store, file or PostgreSQL.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docstore copy",
        abstract: "Copy every collection, index and key/value entry of one store into another.",
        discussion: """
            Each store is a file or a PostgreSQL URL (postgres://user@host/database). Each collection is \
            copied in one transaction at the destination and verified by its count and a checksum of its \
            documents: a failure leaves it as it was. A destination collection that holds documents is \
            refused unless --replace is given. A progress bar shows on a terminal.

            --salvage reads a damaged store file: every document SQLite can still read is copied, \
            damaged pages are stepped over, and what could not be read is listed (key ranges, damaged \
            documents, collections). Copy into a new store, then check it.
            """
    )

    @Argument(help: ArgumentHelp("The store to copy from: a file, or postgres://…", valueName: "source"))
    var source: String

    @Argument(help: ArgumentHelp("The store to copy into: a file (created if missing), or postgres://…", valueName: "destination"))
    var destination: String

    @Flag(name: .long, help: "Empty destination collections that hold documents, and overwrite key/value entries, instead of refusing.")
    var replace = false

    @Flag(name: .long, help: "Copy what a damaged store file still holds, stepping over damaged pages, and list what could not be read.")
    var salvage = false

    func run() throws {
        let code = CopyLauncher.run(source: source, destination: destination, replace: replace, salvage: salvage)
        if code != 0 { throw ExitCode(code) }
    }
}

// `docstore copy …` is the copy; anything else opens the shell (a store file
// named "copy" opens as ./copy).
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "copy" {
    CopyCommand.main(Array(arguments.dropFirst()))
} else {
    DocStoreCommand.main()
}
