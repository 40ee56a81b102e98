import LinkwrightCore

/// `linkwright explain URL`: why a link opens an app or the browser, layer by layer.
struct ExplainCommand: Command {
    static let platform = Option<Platform?>(
        name: "platform", valueName: "PLATFORM", choices: Platform.allCases, help: "Only this platform")
    static let format = Option.format([OutputFormat.text, .json])

    static let spec = CommandSpec(
        name: "explain",
        abstract: "Explain, layer by layer, why a URL opens an app or stays on the web",
        discussion: """
            Against the configuration: which environment and host serve the URL, which association
            file each platform fetches for it, whether each app claims the host (entitlement or intent
            filter; *.x does not cover x), and each app's decision with every rule tried (pattern,
            value compared, ok or failed, effective caseSensitive and percentEncoded) and the YAML
            location of the deciding rule. With --aasa or --assetlinks, the same for any file.
            """,
        options: AssociationFileInput.options + [Workspace.environments, platform, Workspace.config, format],
        arguments: [ArgumentSpec(name: "URL", help: "The link, e.g. https://museo.example/tickets/annual")],
        groups: [.optional(AssociationFileInput.choice)])

    let arguments: ParsedArguments
    let url: LinkURL

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        guard let text = arguments.positionals.first else { throw UsageError(message: "explain needs a URL") }
        let fileMode = try AssociationFileInput.isRequested(arguments)
        guard let parsed = LinkURL(text), fileMode || parsed.host != nil else {
            throw UsageError(message: "\"\(text)\" is not a full URL such as https://museo.example/tickets/annual")
        }
        url = parsed
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let json = arguments[Self.format] == .json
        if try AssociationFileInput.isRequested(arguments) {
            let input = try AssociationFileInput.load(arguments, terminal: terminal)
            let explanations = input.apps(arguments).map { app in
                Explanation(
                    platform: input.platform, app: app, identity: app, claim: nil, fileHost: nil,
                    decision: input.decision(for: url, app: app, tracing: true), place: input.place)
            }
            terminal.out(json ? JSON.array(explanations.map(\.json)).rendered() : explanations.map(\.text).joined())
            return .success
        }
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        guard let configuration, let compiled else {
            workspace.printer.printText(diagnostics)
            return .unusable
        }
        let platforms = arguments[Self.platform].map { [$0] } ?? Platform.allCases
        var sections: [(String, [Explanation])] = []
        for environment in compiled.environments {
            let evaluator = EnvironmentEvaluator(environment)
            let serving = evaluator.servingHosts(for: url.host!)
            let declared = configuration.environment(named: environment.name)
            var lines: [String] = []
            for host in serving {
                let binding = declared?.hosts.first { $0.host.value == host }
                let domain = binding.flatMap { configuration.domain(named: $0.domain.value) }
                lines.append(
                    "\(host) serves domain \(binding?.domain.value ?? "?")"
                        + (domain.map { " (\(workspace.printer.pathPrefix)\($0.file))" } ?? ""))
            }
            if serving.isEmpty { lines.append("no host of this environment serves \(url.host!)") }
            let explanations = platforms.flatMap { platform in
                evaluator.verdicts(for: url, platform: platform, tracing: true).map { verdict in
                    Explanation(verdict: verdict, printer: workspace.printer)
                }
            }
            sections.append(
                ("\(environment.name) (\(environment.tier.rawValue)): " + lines.joined(separator: "; "), explanations))
        }
        if json {
            terminal.out(
                JSON.object([
                    ("url", .string(url.description)),
                    (
                        "environments",
                        .array(
                            zip(compiled.environments, sections).map { environment, section in
                                .object([
                                    ("environment", .string(environment.name)), ("hosting", .string(section.0)),
                                    ("apps", .array(section.1.map(\.json))),
                                ])
                            })
                    ),
                ]).rendered())
        } else {
            var text = PrintableText.escaped(url.description) + "\n"
            for (heading, explanations) in sections {
                text += "\n\(PrintableText.escaped(heading))\n" + explanations.map(\.text).joined()
            }
            terminal.out(text)
        }
        return .success
    }
}

/// How an app claims the host of a URL, as `explain` words it.
struct HostClaim {
    /// Whether the app takes links for the host at all; when not, its rules decide nothing.
    var holds: Bool
    var text: String
}

/// One app's decision for one URL, ready to print.
struct Explanation {
    var platform: Platform
    var app: String
    var identity: String
    /// How the app claims the host; `nil` when explaining a single file.
    var claim: HostClaim?
    var fileHost: String?
    var decision: LinkDecision
    var place: (LinkDecision) -> String?
    var printer: DiagnosticPrinter?

    init(
        platform: Platform, app: String, identity: String, claim: HostClaim?, fileHost: String?, decision: LinkDecision,
        place: @escaping (LinkDecision) -> String?, printer: DiagnosticPrinter? = nil
    ) {
        self.platform = platform
        self.app = app
        self.identity = identity
        self.claim = claim
        self.fileHost = fileHost
        self.decision = decision
        self.place = place
        self.printer = printer
    }

    init(verdict: EnvironmentEvaluator.Verdict, printer: DiagnosticPrinter) {
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
        self.init(
            platform: verdict.platform, app: verdict.app, identity: verdict.identity,
            claim: HostClaim(holds: verdict.claim != .none, text: claim + scope),
            fileHost: verdict.fileHost, decision: verdict.decision,
            place: { decision in decision.origin.map(printer.path) }, printer: printer)
        if verdict.claim == .none { decision = LinkDecision(outcome: .noMatch) }
    }

    var opens: Bool { decision.outcome == .match && claim?.holds != false }

    var verdictText: String {
        switch decision.outcome {
        case _ where claim?.holds == false: "stays on the web: the app does not claim this host"
        case .match: "opens the app"
        case .exclude: "stays on the web: an exclusion matched"
        case .noMatch: "stays on the web: no rule matched"
        }
    }

    /// One line per fact, each escaped: app IDs, patterns and compared values come from files
    /// and URLs anyone may write.
    var text: String {
        var lines = ["  \(platform.rawValue) \(app)" + (identity == app ? "" : " (\(identity))")]
        if let claim { lines.append("    claim: \(claim.text)") }
        if let fileHost { lines.append("    file: " + platform.associationFile.originURL(host: fileHost)) }
        lines.append(
            "    \(decision.outcome.jsonName): \(verdictText)" + (place(decision).map { ", decided by \($0)" } ?? ""))
        for rule in decision.trace {
            let flags = [
                rule.exclude ? "exclude" : nil, rule.caseSensitive ? nil : "case-insensitive",
                rule.percentEncoded ? nil : "decoded",
            ].compactMap { $0 }
            let origin = rule.origin.map { "  " + (printer?.path($0) ?? $0.description) } ?? ""
            lines.append(
                "    \(rule.matched ? "✓" : "✗") \(rule.label)"
                    + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))") + origin)
            for check in rule.checks {
                let value = check.comparedValue.map { "\"\($0)\"" } ?? "(pattern does not compile)"
                lines.append(
                    "        \(check.matched ? "ok    " : "failed") \(check.part)  \"\(check.pattern)\" vs \(value)"
                        + (check.note.map { "  (\($0))" } ?? ""))
            }
        }
        return lines.map { PrintableText.escaped($0) + "\n" }.joined()
    }

    var json: JSON {
        .object([
            ("platform", .string(platform.rawValue)), ("app", .string(app)), ("identity", .string(identity)),
            ("claim", claim.map { .string($0.text) } ?? .null), ("file_host", fileHost.map(JSON.string) ?? .null),
            ("decision", .string(decision.outcome.jsonName)), ("opens", .bool(opens)),
            ("decided_by", place(decision).map(JSON.string) ?? .null),
            (
                "trace",
                .array(
                    decision.trace.map { rule in
                        .object([
                            ("kind", .string(rule.kind.rawValue)), ("entry", .int(rule.entryIndex)),
                            ("rule", .int(rule.ruleIndex)), ("matched", .bool(rule.matched)),
                            ("exclude", .bool(rule.exclude)), ("case_sensitive", .bool(rule.caseSensitive)),
                            ("percent_encoded", .bool(rule.percentEncoded)),
                            ("origin", rule.origin.map { .string(printer?.path($0) ?? $0.description) } ?? .null),
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

extension AssociationFileInput {
    var platform: Platform {
        if case .apple = self { return .ios }
        return .android
    }
}

extension RuleTrace {
    /// Where the rule sits in its file: `details[1].components[0]`, `details[0].paths[2]`,
    /// `statements[0].dynamic_app_link_components[3]`.
    var label: String {
        switch kind {
        case .component: "details[\(entryIndex)].components[\(ruleIndex)]"
        case .legacyPath: "details[\(entryIndex)].paths[\(ruleIndex)]"
        case .dynamicRule: "statements[\(entryIndex)].dynamic_app_link_components[\(ruleIndex)]"
        }
    }
}
