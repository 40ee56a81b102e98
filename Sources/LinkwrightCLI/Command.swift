import LinkwrightCore

/// The exit-code contract: 0 nothing blocks, 1 the tool ran and found something that blocks
/// (drift, a failing expectation, a policy violation, a failed live check), 2 the input cannot
/// be used (usage error, invalid configuration, unknown revision, unwritable output).
enum ExitStatus: Int32 {
    case success = 0
    case blocked = 1
    case unusable = 2

    /// What a report means for the exit code.
    init(_ report: some Report) {
        self = report.isUnusable ? .unusable : report.blocks ? .blocked : .success
    }
}

/// One subcommand: its spec, a parse step that rejects bad command lines, and a short `run()`
/// that hands the work to the library.
protocol Command {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments) throws
    func run(_ terminal: Terminal) throws -> ExitStatus
}

/// A reason the command cannot go on, printed as `error: …` with a hint; exit code 2.
struct UnusableInput: Error {
    var message: String
    var hint: String?
}

/// The command has already printed why it stops; exit with this status.
struct Halt: Error {
    var status: ExitStatus
}
