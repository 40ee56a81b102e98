/// Which URLs change what they open between two compiled configurations.
///
/// URLs to try come from the rules of both sides (each pattern instantiated several ways, with
/// the query items and fragments rules mention) and from the expectations. Every URL is decided
/// on both sides as devices decide it (`EnvironmentEvaluator`), so a difference is real; a change
/// no sample reaches is not seen, which is why such changes are marked approximate. Where the
/// iOS rules of a host compare paths only, `PathDecisionSearch` adds a witness for every way
/// the sides differ and the host's iOS changes are exact.
public enum BehaviourDiff {
    /// One URL decided for one app on both sides.
    public struct Observation: Sendable {
        public var environment: String
        /// The host as configured (`*.x` for a wildcard binding, tried on a subdomain).
        public var host: String
        public var platform: Expectation.Platform
        public var identity: String
        public var url: String
        public var before: EnvironmentEvaluator.Verdict?
        public var after: EnvironmentEvaluator.Verdict?
        /// Whether every URL deciding differently on this host is known to fall in a kind of
        /// change some iOS observation of the host shows (see `PathDecisionSearch`); otherwise
        /// the observations are samples and other URLs may change too.
        public var exhaustive: Bool = false

        public var openedBefore: Bool { before?.opens ?? false }
        public var opensAfter: Bool { after?.opens ?? false }
    }

    /// Every URL whose outcome differs for some app, on hosts served on both sides.
    public static func observations(base: PolicySnapshot, head: PolicySnapshot) -> [Observation] {
        var observations: [Observation] = []
        for after in head.compiled.environments {
            guard let before = base.compiled.environments.first(where: { $0.name == after.name }) else { continue }
            let oldEvaluator = EnvironmentEvaluator(before)
            let newEvaluator = EnvironmentEvaluator(after)
            let oldDomains = Dictionary(
                before.sites.flatMap { site in site.servedHosts.map { ($0, site.domain) } },
                uniquingKeysWith: { first, _ in first })
            let affected = affectedHosts(before, after)
            // The files a device reads for a host, as `EnvironmentEvaluator` picks them.
            func filesByHost(_ environment: CompiledEnvironment) -> [String: CompiledSite] {
                Dictionary(
                    environment.sites.filter { $0.aasa != nil }.map { ($0.fileHost.name, $0) },
                    uniquingKeysWith: { _, last in last })
            }
            let oldFiles = filesByHost(before)
            let newFiles = filesByHost(after)
            let sameClaims = before.iosApps == after.iosApps
            let appIDs = after.iosApps.map(\.appID)
            var searches: [String: PathDecisionSearch.Result] = [:]
            /// The exact search for `host`'s iOS decisions; `nil` when some app reads another
            /// host's file for it or the apps' claims changed, so the search would not cover it.
            func search(_ host: Host, _ url: LinkURL) -> PathDecisionSearch.Result? {
                let fileHost = host.fileHost.name
                let verdicts =
                    oldEvaluator.verdicts(for: url, platform: .ios) + newEvaluator.verdicts(for: url, platform: .ios)
                guard sameClaims, verdicts.allSatisfy({ $0.fileHost == nil || $0.fileHost == fileHost }) else {
                    return nil
                }
                let old = oldFiles[fileHost]
                let new = newFiles[fileHost]
                let key = (old?.domain ?? "") + " " + (new?.domain ?? "")
                let result =
                    searches[key]
                    ?? PathDecisionSearch().differences(before: old?.aasa, after: new?.aasa, appIDs: appIDs)
                searches[key] = result
                return result
            }
            func observe(_ host: Host, _ samples: [String]) {
                let concrete = host.isWildcard ? "subdomain." + host.fileHost.name : host.name
                var samples = samples
                var exact = false
                // Claims do not depend on the path: any URL on the host shows whose files decide.
                if let root = LinkURL("/")?.on(host: concrete), let result = search(host, root) {
                    let known = Set(samples)
                    samples += result.paths.filter { !known.contains($0) }
                    exact = result.complete
                }
                for sample in samples {
                    guard let url = LinkURL(sample)?.on(host: concrete) else { continue }
                    for platform in Expectation.Platform.allCases {
                        let old = oldEvaluator.verdicts(for: url, platform: platform)
                        let new = newEvaluator.verdicts(for: url, platform: platform)
                        var identities = new.map(\.identity)
                        identities += old.map(\.identity).filter { !identities.contains($0) }
                        for identity in identities {
                            let beforeVerdict = old.first { $0.identity == identity }
                            let afterVerdict = new.first { $0.identity == identity }
                            guard
                                beforeVerdict?.opens != afterVerdict?.opens
                                    || beforeVerdict?.decision.outcome != afterVerdict?.decision.outcome
                            else { continue }
                            observations.append(
                                Observation(
                                    environment: after.name, host: host.name, platform: platform, identity: identity,
                                    url: url.description, before: beforeVerdict, after: afterVerdict,
                                    exhaustive: platform == .ios && exact))
                        }
                    }
                }
            }
            // Hosts of the same domain on both sides get the same samples: make them once.
            var samplesByDomains: [String: [String]] = [:]
            for site in after.sites {
                for host in site.servedHosts where affected(host) {
                    guard let oldDomain = oldDomains[host] else { continue }
                    let key = oldDomain + " " + site.domain
                    let samples =
                        samplesByDomains[key]
                        ?? candidateURLs(host: host, base: base, head: head, environment: after.name)
                    samplesByDomains[key] = samples
                    observe(host, samples)
                }
            }
        }
        return observations
    }

    /// Which hosts can decide a URL differently. A device decides a URL on host `h` from the
    /// apps' claims and the files of the host a claim names: `h` itself, or a parent domain for
    /// a wildcard claim. With the same apps and claims on both sides, only hosts at or under a
    /// host whose files changed can change, and the others need no samples: a change to one
    /// domain of hundreds costs that domain's samples only.
    static func affectedHosts(_ before: CompiledEnvironment, _ after: CompiledEnvironment) -> (Host) -> Bool {
        guard before.iosApps == after.iosApps, let changedFilters = changedIntentFilterHosts(before, after) else {
            return { _ in true }
        }
        func files(_ environment: CompiledEnvironment) -> [String: String] {
            var byDomain: [String: String] = [:]
            var byHost: [String: String] = [:]
            for site in environment.sites {
                let text =
                    byDomain[site.domain]
                    ?? (site.aasa.map { $0.json.rendered() } ?? "") + "\u{0}"
                    + (site.assetLinks.map { $0.json.rendered() } ?? "")
                byDomain[site.domain] = text
                byHost[site.fileHost.name] = text
            }
            return byHost
        }
        let old = files(before)
        let new = files(after)
        let changed = Set(Set(old.keys).union(new.keys).filter { old[$0] != new[$0] })
        return { host in
            if changedFilters.contains(where: { $0 == host || HostPattern.androidFilter($0.name, matches: host.name) })
            {
                return true
            }
            // The file host and each parent domain of it.
            var name = Substring(host.fileHost.name)
            while true {
                if changed.contains(String(name)) { return true }
                guard let dot = name.firstIndex(of: ".") else { return false }
                name = name[name.index(after: dot)...]
            }
        }
    }

    /// The hosts of intent filters that differ between the sides, when the apps and the order of
    /// their filters are the same (Android claims a host with the first filter naming it whose
    /// scope accepts the path, so only those filters matter for it); `nil` when anything else
    /// differs, which may change any host.
    private static func changedIntentFilterHosts(_ before: CompiledEnvironment, _ after: CompiledEnvironment)
        -> [Host]?
    {
        guard before.androidApps.map(\.package) == after.androidApps.map(\.package) else { return nil }
        var hosts: [Host] = []
        for (old, new) in zip(before.androidApps, after.androidApps) {
            guard old.intentFilters.map(\.domain) == new.intentFilters.map(\.domain) else { return nil }
            for (oldFilter, newFilter) in zip(old.intentFilters, new.intentFilters) where oldFilter != newFilter {
                hosts += oldFilter.hosts + newFilter.hosts
            }
        }
        return hosts
    }

    /// Behaviour changes, one per (environment, host, platform, kind, apps), with witnesses.
    public static func changes(base: PolicySnapshot?, head: PolicySnapshot) -> [LinkChange] {
        guard let base else { return [] }
        return changes(from: observations(base: base, head: head))
    }

    /// Behaviour changes from observations already made (see `PolicyContext.behaviourObservations`).
    public static func changes(from observations: [Observation]) -> [LinkChange] {
        var changes: [LinkChange] = []
        var index: [String: Int] = [:]
        let observations = observations.filter { $0.openedBefore != $0.opensAfter }
        // Per URL and platform: who opened it before and who opens it now.
        var byURL: [String: [Observation]] = [:]
        var urlOrder: [String] = []
        for observation in observations {
            let key = "\(observation.environment) \(observation.host) \(observation.platform) \(observation.url)"
            if byURL[key] == nil { urlOrder.append(key) }
            byURL[key, default: []].append(observation)
        }
        for key in urlOrder {
            let group = byURL[key]!
            let first = group[0]
            let gained = group.filter(\.opensAfter)
            let lost = group.filter(\.openedBefore)
            var entries: [(LinkChange.Kind, String, String?, String?, Observation)] = []
            for observation in gained {
                if let replaced = lost.first {
                    var both = observation
                    both.exhaustive = observation.exhaustive && replaced.exhaustive
                    entries.append((.changesApp, observation.identity, replaced.identity, observation.identity, both))
                } else {
                    entries.append((.opensApp, observation.identity, "web", observation.identity, observation))
                }
            }
            if gained.isEmpty {
                for observation in lost {
                    entries.append((.opensWeb, observation.identity, observation.identity, "web", observation))
                }
            }
            for (kind, app, before, after, observation) in entries {
                let grouping =
                    "\(first.environment) \(first.host) \(first.platform) \(kind) \(before ?? "") \(after ?? "")"
                if let existing = index[grouping] {
                    if !observation.exhaustive { changes[existing].approximate = true }
                    // Examples with different paths say more than one path with every query.
                    let path = observation.url.prefix { $0 != "?" && $0 != "#" }
                    let shown = changes[existing].witnesses.map { $0.prefix { $0 != "?" && $0 != "#" } }
                    if changes[existing].witnesses.count < 5 && !shown.contains(path) {
                        changes[existing].witnesses.append(observation.url)
                    }
                    continue
                }
                // Point at the head rule that now decides; for a lost link with nothing deciding at
                // the head, at the base rule that used to open it.
                let headRule = observation.after?.decision.origin
                let baseRule = observation.before?.decision.origin
                index[grouping] = changes.count
                changes.append(
                    LinkChange(
                        kind: kind, environment: first.environment, host: first.host, platform: first.platform.rawValue,
                        app: app, before: before, after: after, witnesses: [observation.url],
                        location: headRule ?? baseRule,
                        side: headRule == nil && baseRule != nil ? .base : .head,
                        approximate: !observation.exhaustive))
            }
        }
        return changes
    }

    /// URLs worth trying on `host`: every rule of either side's association files for it,
    /// instantiated several ways (its path alone, and with its own query and fragment), and the
    /// expectations' URLs. Linear in the number of rules: pairing every path with every query
    /// would grow with their product and decide the same regions over and over.
    static func candidateURLs(host: Host, base: PolicySnapshot, head: PolicySnapshot, environment: String) -> [String] {
        var urls: [String] = ["/"]
        func add(paths: [String], query: String?, fragment: String?) {
            for path in paths {
                urls.append(path)
                if let query { urls.append(path + "?" + query) }
                if let fragment { urls.append(path + "#" + fragment) }
                if let query, let fragment { urls.append(path + "?" + query + "#" + fragment) }
            }
        }
        for snapshot in [base, head] {
            guard let compiled = snapshot.compiled.environments.first(where: { $0.name == environment }),
                let site = compiled.sites.first(where: { $0.servedHosts.contains(host) })
            else { continue }
            let variables = site.aasa?.applinks?.substitutionVariables ?? []
            var components = site.aasa?.applinks?.details.flatMap { $0.components ?? [] } ?? []
            components +=
                site.aasa?.applinks?.details.flatMap {
                    ($0.paths ?? []).map { AASAComponent(path: $0.hasPrefix("NOT ") ? String($0.dropFirst(4)) : $0) }
                } ?? []
            for component in components {
                let query: String?
                switch component.query {
                case .whole(let pattern): query = URLSamples.instance(of: pattern, variables: variables)
                case .items(let items):
                    query = items.map {
                        "\($0.name)=\(nonEmpty(URLSamples.instance(of: $0.pattern, variables: variables)))"
                    }.joined(separator: "&")
                default: query = nil
                }
                add(
                    paths: pathVariants(component.path ?? "*", variables), query: query,
                    fragment: component.fragment.map { nonEmpty(URLSamples.instance(of: $0, variables: variables)) })
            }
            for statement in site.assetLinks?.statements ?? [] {
                for component in statement.dynamicComponents ?? [] {
                    add(
                        paths: pathVariants(component.path ?? "*", []),
                        query: component.query.map { items in
                            items.map { "\($0.name)=\(nonEmpty(URLSamples.instance(of: $0.pattern)))" }.joined(
                                separator: "&")
                        },
                        fragment: component.fragment.map { nonEmpty(URLSamples.instance(of: $0)) })
                }
            }
            if let domainName = snapshot.configuration.environment(named: environment)?.hosts.first(where: {
                $0.host.value == host
            })?.domain.value,
                let domain = snapshot.configuration.domain(named: domainName)
            {
                for url in domain.expectations.compactMap({ LinkURL($0.url.value) }) {
                    add(paths: [url.path.isEmpty ? "/" : url.path], query: url.query, fragment: url.fragment)
                }
            }
        }
        var seen: Set<String> = []
        return urls.filter { seen.insert($0).inserted }
    }

    /// A path pattern filled in several ways: wildcards empty and non-empty, with and without
    /// the `/x` Apple lets `/buy/*` also match as `/buy`.
    static func pathVariants(_ pattern: String, _ variables: [AASAVariable]) -> [String] {
        let slashed = pattern.hasPrefix("/") || pattern.hasPrefix("*") ? pattern : "/" + pattern
        let empty = URLSamples.instance(of: slashed, variables: variables)
        let filled = URLSamples.instance(of: slashed.replacing("*", with: "x"), variables: variables)
        let deep = URLSamples.instance(of: slashed.replacing("*", with: "x/y"), variables: variables)
        return [empty, filled, deep].map { $0.hasPrefix("/") ? $0 : "/" + $0 }
    }

    private static func nonEmpty(_ text: String) -> String { text.isEmpty ? "x" : text }
}
