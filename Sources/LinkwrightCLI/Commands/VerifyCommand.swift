import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright verify`: what the origin (and Apple's CDN) serve, against the build; with
/// `--app`, a built app against the environment's contract.
struct VerifyCommand: Command {
    static let cdn = Option<Bool>(name: "cdn", help: "Also check Apple's CDN copy")
    static let apps = Option<[String]>(
        name: "app", valueName: "BUILD",
        help:
            "Check this built app (.apk, .aab, .ipa, .app, .xcarchive) against the --env environment, not the served files"
    )
    static let served = Option<Bool>(
        name: "served", help: "With --app: hold the build to the files the hosts serve, not those built")
    static let format = Option.format(OutputFormat.findings)

    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check what each host (and Apple's CDN) really serves against what the configuration compiles to",
        discussion: """
            Fetches https://HOST/.well-known/apple-app-site-association and assetlinks.json for every
            host the selected environments serve (a wildcard host: its root), with TLS verification
            always on and redirects never followed, and checks: status 200, no redirect, Content-Type
            application/json (required for assetlinks, recommended for the AASA), at most 128 KB,
            valid JSON, and the same meaning as the build (key order and whitespace do not matter;
            differences are shown as behaviour). --cdn also fetches Apple's CDN copy and shows its
            Apple-Failure-Reason, Apple-Failure-Details, Age and Cache-Control headers. Every network
            failure is a finding for its host. Exit 1 when any finding blocks.

            Hosts are fetched many at once over at most --max-connections connections, one per host
            (HTTP/2 where offered); a 429 or 503 is asked again after its Retry-After (up to 3 times,
            waits up to 30 s). --shard K/N checks only the hosts whose name falls in part K of N, so
            the jobs of a CI matrix split a fleet; docs/serving.md shows how their --format json
            reports merge. --connect-to sends requests to another address (a test server) while TLS
            and Host keep each host's name; ::127.0.0.1:8443 sends every host there.

            --app BUILD (repeatable, with one --env) checks built apps instead, without the network.
            An Android .apk's package must be an app of the environment, each signing certificate
            must be listed by the assetlinks.json built for every host its filters verify (the key's
            channel is named), every host of the contract must be in an intent filter with
            android:autoVerify="true" and no other host may be; an .aab's upload key must be one the
            contract lists. An iOS .ipa, .app or .xcarchive (and
            its App Clips) must be signed with the contract's associated domains, without a
            ?mode= the environment does not use, with a provisioning profile that allows them and
            the app ID, as a team the built AASA names. Custom schemes must be the contract's. With
            --served the keys and app IDs are held to the files the hosts serve (fetched as above,
            with the same network options) instead of those built; a file that cannot be fetched
            or read is a finding of its own.
            `linkwright inspect` shows what is read.
            """,
        options: ServingRound.options + [cdn, apps, served, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if !arguments[Self.apps].isEmpty {
            guard arguments[Workspace.environments].count == 1 else {
                throw UsageError(message: "verify --app needs exactly one --env: the environment the build is for")
            }
            if arguments[Self.cdn] { throw UsageError(message: "--cdn checks served files; it does not go with --app") }
            // A build claims hosts of its own: it is held to every host of the environment.
            if !arguments[ServingRound.hosts].isEmpty || arguments[ServingRound.shard] != nil {
                throw UsageError(
                    message:
                        "--host and --shard choose hosts to fetch; verify --app checks a build against every host of its environment"
                )
            }
        } else if arguments[Self.served] {
            throw UsageError(message: "--served holds a build to the served files: it needs --app")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let format = arguments[Self.format]
        if !arguments[Self.apps].isEmpty { return try verifyApps(terminal, format: format) }
        let results = try ServingRound(arguments: arguments, cdn: arguments[Self.cdn])
            .run(terminal, format: format, title: "linkwright verify")
        let report = ServingReport(
            title: "linkwright verify", round: "served files", hosts: results.map(\.line),
            findings: results.flatMap(\.findings),
            pathPrefix: Workspace(arguments, terminal: terminal).pathPrefix(for: format))
        try terminal.print(report, as: format)
        return ExitStatus(report)
    }

    private func verifyApps(_ terminal: Terminal, format: OutputFormat) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        guard let configuration, let environment = compiled?.environments.first else {
            try workspace.printUnusable(diagnostics, as: format, title: "linkwright verify")
            throw Halt(status: .unusable)
        }
        // Every build is read before anything is printed: one unreadable build stops the run.
        let builds = try arguments[Self.apps].map { path in (path, try terminal.readBuild(path)) }
        var judged = environment
        var findings: [Finding] = []
        if arguments[Self.served] {
            (judged, findings) = try servedEnvironment(environment, configuration, terminal)
        }
        let source = arguments[Self.served] ? "served" : "built"
        findings += builds.flatMap { path, facts in
            AppContractCheck(configuration: configuration, environment: judged, file: path, source: source)
                .findings(facts)
        }
        let report = CheckReport(
            title: "linkwright verify", base: nil, head: CheckReport.Revision(name: "built apps", commit: nil),
            findings: findings, rules: (AppContractCheck.findingIDs + ServingCheck.findingIDs).map(ReportRule.init),
            pathPrefix: workspace.pathPrefix(for: format))
        try terminal.print(report, as: format)
        return ExitStatus(report)
    }

    /// The environment with what each of its hosts serves in place of the built files, fetched
    /// as `verify` fetches them, and the findings of files that could not be fetched or read.
    private func servedEnvironment(
        _ environment: CompiledEnvironment, _ configuration: Configuration, _ terminal: Terminal
    ) throws -> (CompiledEnvironment, [Finding]) {
        let fetcher = HTTPFetcher(options: try ServingRound(arguments: arguments, cdn: false).fetchOptions(terminal))
        var wanted: [(site: Int, file: AssociationFile)] = []
        for (index, site) in environment.sites.enumerated() {
            if site.aasa != nil { wanted.append((index, .aasa)) }
            if site.assetLinks != nil { wanted.append((index, .assetLinks)) }
        }
        let urls = wanted.map { $0.file.originURL(host: environment.sites[$0.site].fileHost.name) }
        var served = Array(repeating: [(AssociationFile, ServedFile)](), count: environment.sites.count)
        var fetched: [Int: ServedFile] = [:]
        fetcher.fetchEach(urls, deadlineGroups: wanted.map(\.site)) { index, result in
            fetched[index] = ServingRound.served(urls[index], result)
        }
        for (index, entry) in wanted.enumerated() {
            let answer =
                fetched[index]
                ?? ServedFile(url: urls[index], outcome: .failure(kind: "no answer", message: "no answer"))
            served[entry.site].append((entry.file, answer))
        }
        let locations = (configuration.environment(named: environment.name)?.hosts ?? []).reduce(
            into: [String: SourceLocation]()
        ) { $0[$1.host.value.fileHost.name] = $0[$1.host.value.fileHost.name] ?? $1.host.location }
        return AppContractCheck.served(environment, files: served, locations: locations)
    }
}
