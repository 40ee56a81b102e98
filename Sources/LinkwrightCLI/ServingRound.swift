import Foundation
import LinkwrightCore
import LinkwrightIO

/// One round of live checks: fetch every association file the selected environments compile to,
/// from the origin and (with `cdn`) from Apple's CDN, concurrently, and check each against the build.
struct ServingRound {
    static let hosts = Option<[String]>(
        name: "host", valueName: "HOST", help: "Only this host (wildcards: their root)")
    static let cdnBase = Option<String>(
        name: "cdn-base", valueName: "URL", default: AssociationFile.defaultCDNBase, help: "Base of Apple's CDN")
    static let resolve = Option<[String]>(
        name: "resolve", valueName: "HOST:PORT:ADDRESS", help: "Connect to ADDRESS for HOST:PORT, like curl")
    static let connectTo = Option<[String]>(
        name: "connect-to", valueName: "HOST:PORT:ADDR:PORT",
        help: "Connect to ADDR:PORT instead of HOST:PORT, like curl (empty HOST or PORT: any)")
    static let caCertificates = Option<String?>(
        name: "cacert", valueName: "FILE", help: "Trust only the CAs in FILE (PEM), like curl")
    static let timeout = Option<String>(
        name: "timeout", valueName: "SECONDS", default: "10", help: "Give up on a request after this long")
    static let deadline = Option<String>(
        name: "deadline", valueName: "SECONDS", default: "20",
        help: "Give up on a host's files after this long, retries and their waits included")
    static let maximumConnections = Option<String>(
        name: "max-connections", valueName: "N", default: String(HTTPFetchOptions.defaultMaximumConnections),
        help: "Open at most N connections at once, one per host")
    static let shard = Option<String?>(
        name: "shard", valueName: "K/N", help: "Only part K of N of the hosts, split by host name (for CI matrices)")
    /// How requests are made: what `diagnose` shares with `verify` and `monitor`.
    static let networkOptions: [any CommandOption] = [
        resolve, connectTo, caCertificates, timeout, deadline, maximumConnections,
    ]
    static let options: [any CommandOption] =
        [Workspace.environments, hosts, shard, cdnBase] + networkOptions + [Workspace.config]

    /// Per host, what was fetched and found, in a stable order.
    struct HostResult {
        var line: ServingReport.HostLine
        var findings: [Finding]
    }

    let arguments: ParsedArguments
    let cdn: Bool

    func run(_ terminal: Terminal, format: OutputFormat, title: String) throws -> [HostResult] {
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        guard let configuration, let compiled else {
            try workspace.printUnusable(diagnostics, as: format, title: title)
            throw Halt(status: .unusable)
        }
        let fetcher = HTTPFetcher(options: try fetchOptions(terminal))
        let cdnBase = arguments[Self.cdnBase]
        let wanted = try arguments[Self.hosts].map { try Host.argument($0).name }
        let shard = try arguments[Self.shard].map { text in
            do throws(Shard.ParseError) {
                return try Shard(text)
            } catch {
                throw UsageError(message: "--shard \(text) \(error)")
            }
        }
        var selected = 0
        var plans: [(scope: ServingCheck.Scope, site: CompiledSite, urls: [(String, String)])] = []
        for environment in compiled.environments {
            // Looked up per site: a search of every host for each made a fleet quadratic.
            let bindings = configuration.environment(named: environment.name)?.bindingsByFileHost() ?? [:]
            for site in environment.sites {
                let names = [site.fileHost.name] + site.servedHosts.map(\.name)
                guard wanted.isEmpty || wanted.contains(where: names.contains) else { continue }
                selected += 1
                guard shard?.contains(host: site.fileHost.name) ?? true else { continue }
                let binding = bindings[site.fileHost]
                var urls: [(String, String)] = []
                if site.aasa != nil { urls.append(("aasa", AssociationFile.aasa.originURL(host: site.fileHost.name))) }
                if site.assetLinks != nil {
                    urls.append(("assetlinks", AssociationFile.assetLinks.originURL(host: site.fileHost.name)))
                }
                if cdn && site.aasa != nil {
                    urls.append(("cdn", AssociationFile.cdnURL(base: cdnBase, host: site.fileHost.name)))
                }
                plans.append(
                    (
                        ServingCheck.Scope(
                            environment: environment.name, host: site.fileHost.name, location: binding?.host.location),
                        site, urls
                    ))
            }
        }
        // By environment, then host, comparing UTF-8 bytes as jq does: the JSON of shards merged
        // with `jq -s` and `sort_by(.environment, .host)` then reads as one run's (docs/serving.md).
        plans.sort { left, right in
            left.scope.environment == right.scope.environment
                ? left.scope.host.utf8.lexicographicallyPrecedes(right.scope.host.utf8)
                : left.scope.environment.utf8.lexicographicallyPrecedes(right.scope.environment.utf8)
        }
        if !wanted.isEmpty && selected == 0 {
            throw UsageError(message: "no selected environment serves \(wanted.joined(separator: ", "))")
        }
        // Each file is checked as it arrives and its body dropped: what a round holds grows with
        // its findings, not with what the fleet serves.
        var checks = plans.map { HostCheck(scope: $0.scope, site: $0.site, kinds: $0.urls.map(\.0)) }
        var slots: [(plan: Int, slot: Int)] = []
        for (plan, entry) in plans.enumerated() { slots += entry.urls.indices.map { (plan, $0) } }
        let urls = plans.flatMap { $0.urls.map(\.1) }
        // A host's origin files share one deadline; each CDN copy, fetched over Apple's one
        // connection behind every other host's, has its own.
        var groups: [Int] = []
        for (plan, entry) in plans.enumerated() {
            for (kind, _) in entry.urls { groups.append(kind == "cdn" ? plans.count + groups.count : plan) }
        }
        fetcher.fetchEach(urls, deadlineGroups: groups) { index, result in
            let (plan, slot) = slots[index]
            checks[plan].receive(Self.served(urls[index], result), at: slot)
        }
        return checks.map(\.result)
    }

    /// One host's files, checked one by one as their fetches end, in whatever order.
    private struct HostCheck {
        let scope: ServingCheck.Scope
        let site: CompiledSite
        /// `aasa`, `assetlinks` or `cdn`, per file.
        let kinds: [String]
        private var outcomes: [String?]
        private var found: [[Finding]]
        /// Whether the origin's AASA matches the build, once it is known: the CDN's copy is judged by it.
        private var originAgrees: Bool?
        private var waitingCDN: (served: ServedFile, slot: Int)?

        init(scope: ServingCheck.Scope, site: CompiledSite, kinds: [String]) {
            self.scope = scope
            self.site = site
            self.kinds = kinds
            outcomes = Array(repeating: nil, count: kinds.count)
            found = Array(repeating: [], count: kinds.count)
            originAgrees = kinds.contains("aasa") ? nil : true
        }

        mutating func receive(_ served: ServedFile, at slot: Int) {
            switch kinds[slot] {
            case "aasa":
                record(ServingCheck.origin(.aasa, served, expected: site, scope: scope), served, at: slot)
                originAgrees = !found[slot].contains { $0.severity == .error }
                if let waiting = waitingCDN {
                    waitingCDN = nil
                    receive(waiting.served, at: waiting.slot)
                }
            case "assetlinks":
                record(ServingCheck.origin(.assetLinks, served, expected: site, scope: scope), served, at: slot)
            default:
                guard let originAgrees else {
                    waitingCDN = (served, slot)
                    return
                }
                record(
                    ServingCheck.cdn(served, expected: site, originAgrees: originAgrees, scope: scope), served, at: slot
                )
            }
        }

        private mutating func record(_ findings: [Finding], _ served: ServedFile, at slot: Int) {
            found[slot] = findings
            outcomes[slot] = ServingRound.outcome(served, findings)
        }

        /// The host's line and findings, in the order of its files; every file has been received.
        var result: HostResult {
            let names = kinds.map { kind in
                kind == "cdn"
                    ? "CDN" : kind == "aasa" ? AssociationFile.aasa.rawValue : AssociationFile.assetLinks.rawValue
            }
            return HostResult(
                line: ServingReport.HostLine(
                    environment: scope.environment, host: scope.host, files: Array(zip(names, outcomes.map { $0! }))),
                findings: found.flatMap { $0 })
        }
    }

    /// The options of `networkOptions`, checked.
    func fetchOptions(_ terminal: Terminal) throws -> HTTPFetchOptions {
        var options = HTTPFetchOptions(userAgent: "linkwright/\(LinkwrightCLI.version)")
        options.caBundlePath = arguments[Self.caCertificates].map { terminal.url($0).path }
        options.resolveOverrides = try arguments[Self.resolve].map { text in
            guard let entry = HTTPResolveOverride(text) else {
                throw UsageError(message: "--resolve \(text) is not HOST:PORT:ADDRESS with an IP address")
            }
            return entry
        }
        options.connectTo = try arguments[Self.connectTo].map { text in
            do throws(HTTPConnectTo.ParseError) {
                return try HTTPConnectTo(text)
            } catch {
                throw UsageError(message: "--connect-to \(text) \(error)")
            }
        }
        let connections = arguments[Self.maximumConnections]
        guard let count = Int(connections), count > 0 else {
            throw UsageError(message: "--max-connections takes a whole number of at least 1, not \(connections)")
        }
        options.maximumConnections = count
        let text = arguments[Self.timeout]
        guard let seconds = Int(text), seconds > 0 else {
            throw UsageError(message: "--timeout takes whole seconds, not \(text)")
        }
        options.totalTimeout = .seconds(seconds)
        options.connectTimeout = .seconds(min(seconds, 5))
        let deadline = arguments[Self.deadline]
        guard let deadlineSeconds = Int(deadline), deadlineSeconds > 0 else {
            throw UsageError(message: "--deadline takes whole seconds, not \(deadline)")
        }
        options.deadline = .seconds(deadlineSeconds)
        return options
    }

    /// The fetch, as the core's checks take it.
    static func served(_ url: String, _ result: HTTPFetchResult) -> ServedFile {
        switch result {
        case .success(let response):
            return ServedFile(
                url: url,
                outcome: .response(
                    ServedFile.Response(
                        status: response.status, mediaType: response.mediaType, contentType: response.contentType,
                        headers: response.headers.fields.map { ($0.name, $0.value) }, body: response.body,
                        isTruncated: response.isBodyTruncated, redirectLocation: response.redirectLocation)))
        case .failure(let failure):
            return ServedFile(url: url, outcome: .failure(kind: failure.kind.summary, message: failure.message))
        }
    }

    /// `ok`, `200 ok (Age: 60)`, or the first finding's ID, for the per-host summary.
    static func outcome(_ served: ServedFile, _ findings: [Finding]) -> String {
        let headers: String
        if case .response(let response) = served.outcome {
            let cdn = ServingCheck.cdnHeaders(response)
            headers = cdn.isEmpty ? "" : " (\(cdn))"
        } else {
            headers = ""
        }
        guard let worst = findings.max(by: { $0.severity < $1.severity }) else { return "ok" + headers }
        return worst.rule + headers
    }
}
