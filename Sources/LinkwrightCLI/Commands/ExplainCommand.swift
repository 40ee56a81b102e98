import LinkwrightCore

/// `linkwright explain URL`: why a link opens an app or the browser, layer by layer.
struct ExplainCommand: Command {
    static let platform = Option<Platform?>(
        name: "platform", valueName: "PLATFORM", choices: Platform.allCases, help: "Only this platform")
    static let format = Option.format([OutputFormat.text, .json])
    static let trace = Option<Bool>(
        name: "trace", help: "List every rule tried with every comparison, not just the deciding one")

    static let spec = CommandSpec(
        name: "explain",
        abstract: "Explain, layer by layer, why a URL opens an app or stays on the web",
        discussion: """
            Against the configuration: which environment and host serve the URL and, for each app, the
            verdict and the deciding rule with its YAML location, why the path was compared in
            another form than typed (iOS adds a trailing slash) when that decided, and when no rule
            decided the rules that failed on one part only. --trace adds how each app claims the host
            (entitlement or intent filter; *.x does not cover x), the file each platform fetches, and
            every rule tried (pattern, value compared, ok or failed, the flags that depart
            from Apple's defaults). With --aasa or --assetlinks, the same for any file.
            """,
        options: AssociationFileInput.options + [Workspace.environments, platform, Workspace.config, trace, format],
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
        let format = arguments[Self.format]
        if try AssociationFileInput.isRequested(arguments) {
            let input = try AssociationFileInput.load(arguments, terminal: terminal)
            let explanations = input.apps(arguments).map { app in
                let decision = input.decision(for: url, app: app, tracing: true)
                return Explanation(
                    platform: input.platform, app: app, identity: app, claim: nil, fileHost: nil, decision: decision,
                    decidedBy: input.place(of: decision))
            }
            try terminal.print(
                ExplainReport(.file(explanations), typedPath: url.path, trace: arguments[Self.trace]), as: format)
            return .success
        }
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        guard let configuration, let compiled else {
            workspace.printer.printText(diagnostics)
            return .unusable
        }
        let platforms = arguments[Self.platform].map { [$0] } ?? Platform.allCases
        let prefix = workspace.printer.pathPrefix
        let sections = compiled.environments.map { environment in
            let evaluator = EnvironmentEvaluator(environment)
            let serving = evaluator.servingHosts(for: url.host!)
            let declared = configuration.environment(named: environment.name)
            var lines: [String] = serving.map { host in
                let binding = declared?.hosts.first { $0.host.value == host }
                let domain = binding.flatMap { configuration.domain(named: $0.domain.value) }
                return "\(host) serves domain \(binding?.domain.value ?? "?")"
                    + (domain.map { " (\(prefix)\($0.file))" } ?? "")
            }
            if serving.isEmpty { lines.append("no host of this environment serves \(url.host!)") }
            return ExplainReport.Section(
                environment: environment.name,
                hosting: "\(environment.name) (\(environment.tier.rawValue)): " + lines.joined(separator: "; "),
                explanations: platforms.flatMap { platform in
                    evaluator.verdicts(for: url, platform: platform, tracing: true).map {
                        Explanation(verdict: $0, pathPrefix: prefix)
                    }
                })
        }
        try terminal.print(
            ExplainReport(
                .configuration(url: url.description, sections: sections), typedPath: url.path,
                trace: arguments[Self.trace]),
            as: format)
        return .success
    }
}

extension AssociationFileInput {
    var platform: Platform {
        if case .apple = self { return .ios }
        return .android
    }
}
