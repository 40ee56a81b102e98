import LinkwrightCore
import LinkwrightIO

/// `linkwright diagnose URL`: why one link does not open the app, layer by layer.
struct DiagnoseCommand: Command {
    static let environment = Option<String?>(
        name: "env", valueName: "NAME", help: "The environment (default: the one serving the URL's host)")
    static let app = Option<String?>(
        name: "app", valueName: "BUILD", help: "Also check this built app (.apk, .aab, .ipa, .app, .xcarchive) first")
    static let platform = Option<Platform?>(
        name: "platform", valueName: "PLATFORM", choices: Platform.allCases,
        help: "Only this platform (default: the build's, else both)")
    static let format = Option.format([OutputFormat.text, .json])

    static let spec = CommandSpec(
        name: "diagnose",
        abstract: "Walk a link that does not open the app layer by layer and name the first broken one",
        discussion: """
            Checks, in the order that finds the cause fastest, and stops at the first broken layer
            with its fix: 1. binary: with --app, the built app against the contract (as verify --app),
            for this host; 2. origin: the association file the platform fetches for the URL's host,
            fetched live as verify does (status 200, no redirect, application/json, at most 128 KB);
            3. content: the served file means what the build does, and the configuration's decision
            for this URL with the deciding rule and its YAML line; 4. CDN: Apple's CDN copy (iOS);
            5. device: never checkable from here, said with the commands that check it there;
            6. app router: the destination the generated router gives for the URL. The environment
            is the one that serves the URL's host unless --env names it. Exit 1 when a layer is
            broken, 0 when none is found broken from here.
            """,
        options: [environment, app, platform, ServingRound.cdnBase] + ServingRound.networkOptions + [
            Workspace.config, format,
        ],
        arguments: [ArgumentSpec(name: "URL", help: "The link, e.g. https://museo.example/tickets/annual")])

    let arguments: ParsedArguments
    let url: LinkURL
    let host: String

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        guard let text = arguments.positionals.first else { throw UsageError(message: "diagnose needs a URL") }
        guard let parsed = LinkURL(text), let host = parsed.host, parsed.scheme == "https" || parsed.scheme == "http"
        else {
            throw UsageError(message: "\"\(text)\" is not a web link such as https://museo.example/tickets/annual")
        }
        url = parsed
        self.host = host
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let format = arguments[Self.format]
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(
            arguments[Self.environment].map { [$0] } ?? [])
        guard let configuration, let compiled else {
            try workspace.printUnusable(diagnostics, as: format, title: "linkwright diagnose")
            throw Halt(status: .unusable)
        }
        let environment = try chooseEnvironment(compiled)
        let build = try arguments[Self.app].map { path in (path, try terminal.readBuild(path)) }
        let platforms: [Platform]
        switch build?.1 {
        case .android: platforms = [.android]
        case .ios: platforms = [.ios]
        case nil: platforms = arguments[Self.platform].map { [$0] } ?? Platform.allCases
        }
        let buildFindings = build.map { path, facts in
            AppContractCheck(configuration: configuration, environment: environment, file: path).findings(facts)
        }
        let round = ServingRound(arguments: arguments, cdn: true)
        let fetcher = HTTPFetcher(options: try round.fetchOptions(terminal))
        let routes = configuration.domains.reduce(into: [SourceLocation: Route]()) { routes, domain in
            routes.merge(domain.routesByRule) { first, _ in first }
        }
        let prefix = workspace.pathPrefix(for: format)
        let diagnoses = platforms.map { platform in
            diagnose(
                platform, environment, configuration, buildFindings: buildFindings,
                identity: build.map { identity($0.1) },
                fetcher: fetcher, routes: routes, pathPrefix: prefix)
        }
        let report = DiagnosisReport(diagnoses: diagnoses)
        try terminal.print(report, as: format)
        return report.isBroken ? .blocked : .success
    }

    /// The environment serving the URL's host, or the one --env names.
    private func chooseEnvironment(_ compiled: CompiledConfiguration) throws -> CompiledEnvironment {
        if arguments[Self.environment] != nil, let only = compiled.environments.first { return only }
        let serving = compiled.environments.filter { !EnvironmentEvaluator($0).servingHosts(for: host).isEmpty }
        guard serving.count == 1 else {
            throw UsageError(
                message: serving.isEmpty
                    ? "no environment serves \(host)"
                    : "\(host) is served by \(serving.map(\.name).joined(separator: ", ")): pass --env")
        }
        return serving[0]
    }

    /// The app identity a build is checked as: the package, or the app's team and bundle ID.
    private func identity(_ facts: AppBuildFacts) -> String {
        switch facts {
        case .android(let android): android.manifest.package
        case .ios(let ios): "\(ios.main.teamID ?? "").\(ios.main.bundleID)"
        }
    }

    private func diagnose(
        _ platform: Platform, _ environment: CompiledEnvironment, _ configuration: Configuration,
        buildFindings: [Finding]?, identity: String?, fetcher: HTTPFetcher, routes: [SourceLocation: Route],
        pathPrefix: String
    ) -> LinkDiagnosis {
        var checked: [LinkDiagnosis.Layer] = []
        func done() -> LinkDiagnosis {
            LinkDiagnosis(url: url.description, environment: environment.name, platform: platform, checked: checked)
        }
        checked.append(
            buildFindings.map { LinkDiagnosis.binary($0, host: host) }
                ?? LinkDiagnosis.Layer(.binary, .notChecked, "no build given (--app BUILD checks it)"))
        guard checked.last?.status != .broken else { return done() }

        let file = platform.associationFile
        guard let site = SiteLookup(environment).site(serving: host),
            platform == .ios ? site.aasa != nil : site.assetLinks != nil
        else {
            checked.append(
                LinkDiagnosis.Layer(
                    .origin, .broken,
                    "environment \(environment.name) serves no \(file.rawValue) for \(host) on \(platform.rawValue)",
                    fix: "bind \(host) to a domain whose rules name a \(platform.rawValue) app"))
            return done()
        }
        let binding = configuration.environment(named: environment.name)?.bindingsByFileHost()[site.fileHost]
        let scope = ServingCheck.Scope(
            environment: environment.name, host: site.fileHost.name, location: binding?.host.location)
        let originURL = file.originURL(host: site.fileHost.name)
        let originFindings = ServingCheck.origin(file, fetch(originURL, fetcher), expected: site, scope: scope)
        checked.append(LinkDiagnosis.origin(originFindings, url: originURL))
        guard checked.last?.status != .broken else { return done() }

        let explanations = EnvironmentEvaluator(environment).verdicts(for: url, platform: platform).map {
            Explanation(verdict: $0, pathPrefix: pathPrefix)
        }.filter { identity == nil || $0.identity == identity }
        let (content, router) = LinkDiagnosis.content(
            served: originFindings, explanations: explanations, routes: routes, url: url)
        checked.append(content)
        guard content.status != .broken else { return done() }

        if platform == .ios {
            let cdnURL = AssociationFile.cdnURL(base: arguments[ServingRound.cdnBase], host: site.fileHost.name)
            checked.append(
                LinkDiagnosis.cdn(
                    ServingCheck.cdn(fetch(cdnURL, fetcher), expected: site, originAgrees: true, scope: scope)))
        } else {
            checked.append(LinkDiagnosis.cdn(nil))
        }
        guard checked.last?.status != .broken else { return done() }
        checked.append(router)
        return done()
    }

    private func fetch(_ url: String, _ fetcher: HTTPFetcher) -> ServedFile {
        var served: ServedFile?
        fetcher.fetchEach([url]) { _, result in served = ServingRound.served(url, result) }
        return served ?? ServedFile(url: url, outcome: .failure(kind: "no answer", message: "no answer"))
    }
}
