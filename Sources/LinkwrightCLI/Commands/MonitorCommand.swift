import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright monitor`: `verify --cdn` in rounds, remembering since when Apple's CDN has lagged
/// so a copy that has not caught up yet does not fail every deploy.
struct MonitorCommand: Command {
    static let state = Option<String>.required(
        name: "state", valueName: "FILE", help: "Where to remember CDN lag between rounds")
    static let grace = Option<String>(
        name: "grace", valueName: "DURATION", default: "24h", help: "How long the CDN may lag")
    static let every = Option<String?>(
        name: "every", valueName: "DURATION", help: "Run a round at this interval until stopped")
    static let now = Option<String?>(name: "now", valueName: "TIMESTAMP", help: "Evaluate as if at this time")
    static let format = Option.format(OutputFormat.findings)

    static let spec = CommandSpec(
        name: "monitor",
        abstract: "Verify hosts and Apple's CDN in rounds, tolerating CDN propagation lag",
        discussion: """
            One round per run (for cron or scheduled CI), or a round every --every interval until
            stopped. Origin problems block at once. A CDN copy that differs from the build blocks only
            once it has differed for longer than --grace (default 24h: Apple's CDN fetches within about
            a day and cannot be invalidated); until then the report says for how long the CDN has
            served the previous version. The state file remembers since when, and is replaced
            atomically, so a run killed mid-way leaves the previous state intact. --now evaluates the
            round as if at that time (RFC 3339, e.g. 2026-11-29T12:00:00Z), to replay a state file.
            Exit 1 when a round blocks.
            """,
        options: [state, grace, every, now] + ServingRound.options + [format])

    let arguments: ParsedArguments
    let grace: TimeInterval
    let interval: TimeInterval?
    let now: Date?

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        let graceText = arguments[Self.grace]
        guard let grace = Monitor.duration(graceText) else {
            throw UsageError(message: "--grace \(graceText) is not a duration such as 24h or 90m")
        }
        self.grace = grace
        interval = try arguments[Self.every].map { text in
            guard let seconds = Monitor.duration(text) else {
                throw UsageError(message: "--every \(text) is not a duration such as 15m")
            }
            return seconds
        }
        now = try arguments[Self.now].map { text in
            guard let date = Timestamp.parse(text) else {
                throw UsageError(message: "--now \(text) is not a timestamp such as 2026-11-29T12:00:00Z")
            }
            return date
        }
        if now != nil && interval != nil {
            throw UsageError(message: "--now replays one round; it does not go with --every")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        while true {
            let status = try round(terminal)
            guard let interval else { return status }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    private func round(_ terminal: Terminal) throws -> ExitStatus {
        let stateURL = terminal.url(arguments[Self.state])
        var state = MonitorState()
        if let bytes = try terminal.readInputIfPresent(arguments[Self.state], .monitorState) {
            switch MonitorState.read(bytes, file: arguments[Self.state]) {
            case .success(let read): state = read
            case .failure(let diagnostic):
                DiagnosticPrinter(terminal: terminal, configPath: ".").printText([diagnostic])
                throw Halt(status: .unusable)
            }
        }
        let format = arguments[Self.format]
        let results = try ServingRound(arguments: arguments, cdn: true)
            .run(terminal, format: format, title: "linkwright monitor")
        let (findings, next) = Monitor.apply(
            results.flatMap(\.findings), state: state, now: now ?? Date(), grace: grace)
        do {
            try AtomicFiles.write(Array(next.json.rendered().utf8), to: stateURL)
        } catch {
            throw UnusableInput(message: "\(error)", hint: "the state file was left as it was")
        }
        let report = ServingReport(
            title: "linkwright monitor", round: "monitor round at \(Timestamp.format(next.lastRound!))",
            hosts: results.map(\.line), findings: findings, monitorState: next.json,
            pathPrefix: Workspace(arguments, terminal: terminal).printer.pathPrefix)
        try terminal.print(report, as: format)
        return ExitStatus(report)
    }
}
