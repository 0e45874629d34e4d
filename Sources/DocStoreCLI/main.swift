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

    @Argument(help: "The store file (created if missing). Omit it for an in-memory store with sample data.")
    var store: String?

    @Flag(name: .long, help: "Open the store read-only: writes are refused.")
    var readOnly = false

    @Option(name: .long, help: ArgumentHelp("How long to wait for another process's lock before failing.", valueName: "seconds"))
    var busyTimeout: Double = 5

    @Option(name: .customShort("c"), help: ArgumentHelp("Run a command and exit (non-zero on error); repeat to run several in order.", valueName: "command"))
    var commands: [String] = []

    @Flag(name: .long, help: "Scripts and -c stop at the first error with exit code 1 (the default).")
    var bail = false

    @Flag(name: .long, help: "Scripts and -c report each error with its line and go on; exit code 1 at the end if any failed.")
    var keepGoing = false

    @Option(name: .long, help: "How results are printed: table, csv, tsv, markdown, json, ndjson or line.")
    var mode: OutputMode = .table

    func validate() throws {
        guard busyTimeout >= 0, busyTimeout.isFinite else {
            throw ValidationError("--busy-timeout takes a number of seconds, 0 or more")
        }
        if bail, keepGoing { throw ValidationError("--bail and --keep-going contradict each other: give one") }
    }

    func run() throws {
        let code = REPLLauncher.run(.init(storePath: store, readOnly: readOnly, commands: commands, mode: mode,
                                          busyTimeout: .milliseconds(Int64(busyTimeout * 1000)), keepGoing: keepGoing))
        if code != 0 { throw ExitCode(code) }
    }
}

DocStoreCommand.main()
