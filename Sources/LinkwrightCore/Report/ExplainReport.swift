/// What `explain` prints: why a URL opens an app or stays on the web, layer by layer, for each
/// environment that serves it (or for one association file).
public struct ExplainReport: CommandOutput {
    /// One environment: which of its hosts serve the URL, and each app's decision there.
    public struct Section: Sendable {
        public var environment: String
        /// "production (production): museo.example serves domain museo (domains/museo.yaml)".
        public var hosting: String
        public var explanations: [Explanation]

        public init(environment: String, hosting: String, explanations: [Explanation]) {
            self.environment = environment
            self.hosting = hosting
            self.explanations = explanations
        }
    }

    public enum Subject: Sendable {
        /// Against the configuration: one section per environment.
        case configuration(url: String, sections: [Section])
        /// Against one association file.
        case file([Explanation])
    }

    public var subject: Subject
    /// The URL's path as given, to say where a platform compares another.
    public var typedPath: String
    /// Every rule tried with every comparison (`--trace`), rather than the verdict, the deciding
    /// rule and the rules that nearly matched.
    public var trace: Bool

    public init(_ subject: Subject, typedPath: String, trace: Bool) {
        self.subject = subject
        self.typedPath = typedPath
        self.trace = trace
    }

    func text(_ explanation: Explanation) -> String {
        trace ? explanation.text : explanation.summary(typedPath: typedPath)
    }

    public func printed(as format: OutputFormat, style: TextStyle, version: String) -> PrintedReport? {
        switch (format, subject) {
        case (.text, .file(let explanations)): PrintedReport(out: explanations.map(text).joined())
        case (.json, .file(let explanations)): PrintedReport(out: JSON.array(explanations.map(\.json)).rendered())
        case (.text, .configuration(let url, let sections)):
            PrintedReport(
                out: PrintableText.escaped(url) + "\n"
                    + sections.map { "\n\(PrintableText.escaped($0.hosting))\n" + $0.explanations.map(text).joined() }
                    .joined())
        case (.json, .configuration(let url, let sections)):
            PrintedReport(
                out: JSON.object([
                    ("url", .string(url)),
                    (
                        "environments",
                        .array(
                            sections.map { section in
                                .object([
                                    ("environment", .string(section.environment)),
                                    ("hosting", .string(section.hosting)),
                                    ("apps", .array(section.explanations.map(\.json))),
                                ])
                            })
                    ),
                ]).rendered())
        default: nil
        }
    }
}

/// How an app claims the host of a URL, as `explain` words it.
public struct HostClaim: Sendable {
    /// Whether the app takes links for the host at all; when not, its rules decide nothing.
    public var holds: Bool
    public var text: String

    public init(holds: Bool, text: String) {
        self.holds = holds
        self.text = text
    }
}

/// One app's decision for one URL, ready to print.
public struct Explanation: Sendable {
    public var platform: Platform
    public var app: String
    public var identity: String
    /// How the app claims the host; `nil` when explaining a single file.
    public var claim: HostClaim?
    public var fileHost: String?
    public var decision: LinkDecision
    /// Where the deciding rule is, as printed.
    public var decidedBy: String?
    /// Prepended to the configuration-relative paths of the rules tried; `nil` for a single file.
    public var pathPrefix: String?

    public init(
        platform: Platform, app: String, identity: String, claim: HostClaim?, fileHost: String?,
        decision: LinkDecision, decidedBy: String?, pathPrefix: String? = nil
    ) {
        self.platform = platform
        self.app = app
        self.identity = identity
        self.claim = claim
        self.fileHost = fileHost
        self.decision = decision
        self.decidedBy = decidedBy
        self.pathPrefix = pathPrefix
    }

    /// An app's verdict in an environment, with paths written after `pathPrefix`.
    public init(verdict: EnvironmentEvaluator.Verdict, pathPrefix: String) {
        let claim: String
        switch verdict.claim {
        case .exact(let host):
            claim = verdict.platform == .ios ? "applinks:\(host) (exact)" : "intent filter host \(host) (exact)"
        case .wildcard(let host):
            claim = verdict.platform == .ios ? "applinks:\(host) (wildcard)" : "intent filter host \(host) (wildcard)"
        case .none:
            claim =
                verdict.platform == .ios
                ? "no applinks entry covers the host" : "no intent filter accepts the host and path"
        }
        let scope = verdict.scope.map { ", " + $0.attribute } ?? ""
        let decision = verdict.claim == .none ? LinkDecision(outcome: .noMatch) : verdict.decision
        self.init(
            platform: verdict.platform, app: verdict.app, identity: verdict.identity,
            claim: HostClaim(holds: verdict.claim != .none, text: claim + scope), fileHost: verdict.fileHost,
            decision: decision, decidedBy: decision.origin.map { pathPrefix + $0.description }, pathPrefix: pathPrefix)
    }

    public var opens: Bool { decision.outcome == .match && claim?.holds != false }

    public var verdictText: String {
        switch decision.outcome {
        case _ where claim?.holds == false: "stays on the web: the app does not claim this host"
        case .match: "opens the app"
        case .exclude: "stays on the web: an exclusion matched"
        case .noMatch: "stays on the web: no rule matched"
        }
    }

    func origin(_ location: SourceLocation) -> String { (pathPrefix ?? "") + location.description }

    /// Rules that nearly matched, listed when none decided: at most this many.
    static let nearest = 3

    /// For a person: the verdict, the deciding rule and its place, why the path was compared in
    /// another form than typed where that decided, and otherwise the rules that failed on one
    /// part only. Each line escaped.
    public func summary(typedPath: String) -> String {
        let name = "\(platform.rawValue) \(app)" + (identity == app ? "" : " (\(identity))")
        guard claim?.holds != false else {
            return PrintableText.escaped("  \(name): \(verdictText) (\(claim!.text))") + "\n"
        }
        var lines = ["  \(name): \(verdictText)"]
        let path = decision.trace.lazy.flatMap(\.checks).first { $0.part == .path && $0.comparedValue != nil }
        // Whether the path as compared is shown, or decided: then how it differs from the typed one is said.
        var pathMatters = false
        if let deciding = decision.trace.first(where: \.matched) {
            lines.append("    decided by \(describe(deciding))")
            let pattern = deciding.checks.first { $0.part == .path }?.pattern
            pathMatters = pattern.map { $0.hasSuffix("/*") && String($0.dropLast(2)) == typedPath } ?? false
        } else {
            // Rules whose path matched but another part did not: the ones a reader meant.
            let near = decision.trace.filter { rule in
                rule.checks.contains { $0.part == .path && $0.matched } && rule.checks.contains { !$0.matched }
            }
            for rule in near.prefix(Self.nearest) {
                let failed = rule.checks.first { !$0.matched }!
                let value = failed.comparedValue.map { "\"\($0)\"" } ?? "(pattern does not compile)"
                lines.append(
                    "    nearly: \(describe(rule)), but \(failed.part) \"\(failed.pattern)\" does not match \(value)")
            }
            if near.isEmpty, !decision.trace.isEmpty, let compared = path?.comparedValue {
                lines.append("    no rule's path pattern matches \"\(compared)\"")
                pathMatters = true
            }
        }
        if pathMatters, let compared = path?.comparedValue, compared != typedPath {
            let why =
                compared == typedPath + "/"
                ? "iOS compares paths with a trailing slash, so /x/* also matches /x (docs/semantics.md)"
                : "the path is compared as the platform normalises it (decoded, or case-folded; docs/semantics.md)"
            lines.append("    path compared as \"\(compared)\": \(why)")
        }
        return lines.map { PrintableText.escaped($0) + "\n" }.joined()
    }

    /// `domains/museo.yaml:17:9 "/tickets/*" ?source "?*"`, or the rule's place in its file.
    func describe(_ rule: RuleTrace) -> String {
        let patterns = rule.checks.filter {
            !($0.part == .fragment && $0.pattern == "*") && !($0.part == .query && $0.pattern == "*")
        }
        .map { $0.part == .path ? "\"\($0.pattern)\"" : "\($0.part) \"\($0.pattern)\"" }
        let place = rule.origin.map(origin) ?? rule.label
        return ([place] + patterns).joined(separator: " ") + (rule.exclude ? " (exclude)" : "")
    }

    /// One line per fact, each escaped: app IDs, patterns and compared values come from files
    /// and URLs anyone may write.
    public var text: String {
        var lines = ["  \(platform.rawValue) \(app)" + (identity == app ? "" : " (\(identity))")]
        if let claim { lines.append("    claim: \(claim.text)") }
        if let fileHost { lines.append("    file: " + platform.associationFile.originURL(host: fileHost)) }
        lines.append(
            "    \(decision.outcome.jsonName): \(verdictText)" + (decidedBy.map { ", decided by \($0)" } ?? ""))
        for rule in decision.trace {
            let flags = (rule.exclude ? ["exclude"] : []) + rule.flags.departures.map(\.departure)
            lines.append(
                "    \(rule.matched ? "✓" : "✗") \(rule.label)"
                    + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
                    + (rule.origin.map { "  " + origin($0) } ?? ""))
            for check in rule.checks {
                let value = check.comparedValue.map { "\"\($0)\"" } ?? "(pattern does not compile)"
                lines.append(
                    "        \(check.matched ? "ok    " : "failed") \(check.part)  \"\(check.pattern)\" vs \(value)"
                        + (check.note.map { "  (\($0))" } ?? ""))
            }
        }
        return lines.map { PrintableText.escaped($0) + "\n" }.joined()
    }

    public var json: JSON {
        .object([
            ("platform", .string(platform.rawValue)), ("app", .string(app)), ("identity", .string(identity)),
            ("claim", claim.map { .string($0.text) } ?? .null), ("file_host", fileHost.map(JSON.string) ?? .null),
            ("decision", .string(decision.outcome.jsonName)), ("opens", .bool(opens)),
            ("decided_by", decidedBy.map(JSON.string) ?? .null),
            (
                "trace",
                .array(
                    decision.trace.map { rule in
                        let flags: [(String, JSON)] = ComponentFlag.allCases.map {
                            ($0.configurationKey, .bool(rule.flags[$0]))
                        }
                        let placed: [(String, JSON)] = [
                            ("kind", .string(rule.kind.rawValue)), ("entry", .int(rule.entryIndex)),
                            ("rule", .int(rule.ruleIndex)), ("matched", .bool(rule.matched)),
                            ("exclude", .bool(rule.exclude)),
                        ]
                        return .object(
                            placed + flags + [
                                ("origin", rule.origin.map { .string(origin($0)) } ?? .null),
                                (
                                    "checks",
                                    .array(
                                        rule.checks.map { check in
                                            .object([
                                                ("part", .string(check.part.description)),
                                                ("pattern", .string(check.pattern)),
                                                ("value", check.comparedValue.map(JSON.string) ?? .null),
                                                ("matched", .bool(check.matched)),
                                                ("note", check.note.map(JSON.string) ?? .null),
                                            ])
                                        })
                                ),
                            ])
                    })
            ),
        ])
    }
}

extension LinkOutcome {
    /// `match`, `exclude` or `no_match`, the spelling of the JSON output.
    public var jsonName: String { self == .noMatch ? "no_match" : rawValue }
}

extension RuleTrace {
    /// Where the rule sits in its file: `details[1].components[0]`, `details[0].paths[2]`,
    /// `statements[0].dynamic_app_link_components[3]`.
    public var label: String {
        switch kind {
        case .component: "details[\(entryIndex)].components[\(ruleIndex)]"
        case .legacyPath: "details[\(entryIndex)].paths[\(ruleIndex)]"
        case .dynamicRule: "statements[\(entryIndex)].dynamic_app_link_components[\(ruleIndex)]"
        }
    }
}
