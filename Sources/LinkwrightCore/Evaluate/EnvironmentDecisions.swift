/// What a device decides on a host of the environment: how each app claims it, and the
/// verdict of the association file that then decides.
extension EnvironmentEvaluator {
    /// An app's `applinks:` entries, for finding the one that covers a host.
    struct ClaimIndex: Sendable {
        /// Lowercased exact host → the entry as written.
        let exact: [String: String]
        /// `*.` entries, longest first.
        let wildcards: [String]

        init(_ associatedDomains: [String]) {
            var exact: [String: String] = [:]
            var wildcards: [String] = []
            for entry in associatedDomains where entry.hasPrefix("applinks:") {
                let host = String(entry.dropFirst("applinks:".count).prefix { $0 != "?" })
                if host.hasPrefix("*.") {
                    wildcards.append(host)
                } else if exact[host.lowercased()] == nil {
                    exact[host.lowercased()] = host
                }
            }
            self.exact = exact
            // Stable: of equally long entries the first written stays first.
            self.wildcards = wildcards.enumerated().sorted {
                ($1.element.count, $0.offset) < ($0.element.count, $1.offset)
            }
            .map(\.element)
        }

        /// The longest entry covering `host`: an exact entry is never shorter than a wildcard
        /// covering the same host, so it wins ("Domain matching is based on the longest substring
        /// in the applinks entries", App Search Programming Guide).
        func claim(for host: String) -> Claim {
            if let entry = exact[host.lowercased()] { return .exact(entry) }
            if let entry = wildcards.first(where: { HostPattern.appleEntitlement($0, matches: host) }) {
                return .wildcard(entry)
            }
            return .none
        }
    }

    /// How an app claims a URL's host.
    public enum Claim: Sendable, Equatable {
        /// The entitlement or intent-filter host is the URL's host.
        case exact(String)
        /// A `*.` wildcard covers the URL's host.
        case wildcard(String)
        case none

        public var declared: String? {
            switch self {
            case .exact(let host), .wildcard(let host): host
            case .none: nil
            }
        }
    }

    /// What one app does with one URL.
    public struct Verdict: Sendable {
        public var platform: Platform
        /// The logical app name.
        public var app: String
        /// `TEAMID.bundle` on iOS, the package on Android.
        public var identity: String
        public var claim: Claim
        /// The host whose association file decides; `nil` when the app does not claim the host.
        public var fileHost: String?
        /// The intent-filter scope that accepted the path (Android).
        public var scope: PathScope?
        public var decision: LinkDecision
        /// Whether the link opens the app.
        public var opens: Bool { Self.opens(claim, decision) }

        /// Whether an app with `claim` on the host opens a link its file decides so.
        static func opens(_ claim: Claim, _ decision: LinkDecision) -> Bool {
            claim != .none && decision.outcome == .match
        }
    }

    /// Every app of the environment on `platform`, in declaration order, with what it does with
    /// `url` (which must have a host).
    public func verdicts(for url: LinkURL, platform: Platform, tracing: Bool = false) -> [Verdict] {
        guard let host = url.host else { return [] }
        return verdicts(for: url, claims: claims(of: host, on: platform), tracing: tracing)
    }

    /// `verdicts` with `claims` found beforehand for the URL's host.
    func verdicts(for url: LinkURL, claims: HostClaims, tracing: Bool = false) -> [Verdict] {
        verdicts(for: url, claims: claims, tracing: tracing) { _, _, decide in decide() }
    }

    /// How the environment's apps claim one host on one platform: everything `verdicts` reads
    /// apart from the URL's path, query and fragment. Callers deciding many URLs on one host
    /// find it once (`test` decides thousands of expectations on each host).
    struct HostClaims: Sendable {
        var host: String
        let platform: Platform
        /// iOS: per app, its claim and the file that then decides.
        fileprivate let ios: [(claim: Claim, file: FileRef?)]
        /// Android: per app, the intent filters naming the host, in declaration order.
        let android: [[AndroidClaimLink]]

        /// The host whose file decides for the iOS app at `position`; nil when it does not
        /// claim the host.
        func iosFileHost(app position: Int) -> String? { ios[position].file?.host }

        /// How many apps of the platform the claims are of.
        var appCount: Int { platform == .ios ? ios.count : android.count }

        /// The file that decides for the app at `position` whenever it claims a URL on the host:
        /// on Android every filter of an app naming the host decides through the same file
        /// (`androidDecidingFile`). Nil when the app cannot claim the host.
        func decidingFile(app position: Int) -> FileRef? {
            platform == .ios ? ios[position].file : android[position].first?.file
        }
    }

    /// A file an app's claim makes decide: the host serving it, and a number naming that host
    /// among the environment's file hosts (`-1` for a host serving none), cheaper to compare.
    /// On Android, `readsRules` is false where the file verifies the host but its dynamic rules
    /// are not the host's (`androidDecidingFile`): the intent filters alone decide there.
    struct FileRef: Sendable, Hashable {
        let host: String
        let number: Int
        var readsRules = true
    }

    /// A host, compared exactly (`ExactText`: the claims keep its spelling), and a platform.
    struct ClaimsKey: Hashable {
        let host: ExactText
        let platform: Platform
    }

    /// The most hosts and platforms whose claims an evaluator keeps.
    static let knownClaimsCapacity = 4096

    /// How each app of `platform` claims `host`, found once per host and platform while caching
    /// (`Caching`): a changelog's decision lists, its witnesses and its readable URLs each ask
    /// for every host they compare, of the evaluator the revision's comparisons with the one
    /// before and the one after it share, and an Android app's claims cost a dozen thousand
    /// instructions (its deciding file tried on every parent domain).
    func claims(of host: String, on platform: Platform) -> HostClaims {
        guard Caching.isEnabled else { return claimsFound(of: host, on: platform) }
        let key = ClaimsKey(host: ExactText(host), platform: platform)
        if var known = knownClaims.withLock({ $0[key] }) {
            // The asker's own text (exactly equal): its URLs' hosts, compared with it for every
            // witness, then share its storage and compare at once.
            known.host = host
            return known
        }
        let found = claimsFound(of: host, on: platform)
        knownClaims.withLock { if $0.count < Self.knownClaimsCapacity { $0[key] = found } }
        return found
    }

    /// How each app of `platform` claims `host`, found afresh.
    func claimsFound(of host: String, on platform: Platform) -> HostClaims {
        switch platform {
        case .ios:
            let ios = environment.iosApps.indices.map { position in
                let claim = iosClaims[position].claim(for: host)
                // An exact entry fetches the host's own file, a wildcard its root's (TN3155).
                let fileHost = claim.declared.map { $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 }
                return (claim, fileHost.map(fileRef))
            }
            return HostClaims(host: host, platform: platform, ios: ios, android: [])
        case .android:
            let android = environment.androidApps.indices.map { androidClaimChain(app: $0, host: host) }
            return HostClaims(host: host, platform: platform, ios: [], android: android)
        }
    }

    /// The file `host` serves, as claims name it.
    func fileRef(_ host: String) -> FileRef { FileRef(host: host, number: fileNumbers[host] ?? -1) }

    /// `verdicts` with `found` found beforehand for the URL's host (found again when the URL is
    /// on another), with each file's decision for an app made through `decide`: it receives the
    /// app's position, the file that decides and the function making that file's decision, and
    /// may answer from a decision made already by a file with the same rules (the decision
    /// reads the URL's path, query and fragment, never its host).
    func verdicts(
        for url: LinkURL, claims found: HostClaims, tracing: Bool = false,
        decide: (_ app: Int, _ file: FileRef, _ make: () -> LinkDecision) -> LinkDecision
    ) -> [Verdict] {
        var verdicts: [Verdict] = []
        // One verdict per app: grown one at a time, the array was copied at each verdict.
        verdicts.reserveCapacity(found.appCount)
        forEachApp(for: url, claims: found, tracing: tracing, decide: decide) {
            position, claim, file, scope, decision in
            let (name, identity) =
                found.platform == .ios
                ? (environment.iosApps[position].name, environment.iosApps[position].appID)
                : (environment.androidApps[position].name, environment.androidApps[position].package)
            verdicts.append(
                Verdict(
                    platform: found.platform, app: name, identity: identity, claim: claim, fileHost: file?.host,
                    scope: scope, decision: decision))
        }
        return verdicts
    }

    /// What `verdicts` makes its verdicts of, handed to `body` app by app, in declaration order:
    /// the app's position, its claim on the URL's host, the file that decides, the intent-filter
    /// scope that accepted the path (Android) and the decision. `test` reads these in place: a
    /// verdict holds half a dozen strings, copied for each of 100,000 expectations.
    func forEachApp(
        for url: LinkURL, claims found: HostClaims, tracing: Bool = false,
        decide: (_ app: Int, _ file: FileRef, _ make: () -> LinkDecision) -> LinkDecision,
        _ body: (_ app: Int, _ claim: Claim, _ file: FileRef?, _ scope: PathScope?, _ decision: LinkDecision) -> Void
    ) {
        guard let host = url.host else { return }
        let claims = host == found.host ? found : self.claims(of: host, on: found.platform)
        forEachApp(deciding: url, on: claims, tracing: tracing, decide: decide, body)
    }

    /// `forEachApp` on the host `claims` were found for, whichever host `url` names: a path
    /// expectation's URL names none, and is not made again on each host for deciding (the
    /// decisions read its path, query and fragment only, and an intent filter of a claim names
    /// the host already).
    func forEachApp(
        deciding url: LinkURL, on claims: HostClaims, tracing: Bool = false,
        decide: (_ app: Int, _ file: FileRef, _ make: () -> LinkDecision) -> LinkDecision,
        _ body: (_ app: Int, _ claim: Claim, _ file: FileRef?, _ scope: PathScope?, _ decision: LinkDecision) -> Void
    ) {
        precondition(
            platforms.contains(claims.platform), "the evaluator did not compile \(claims.platform.rawValue)'s files")
        switch claims.platform {
        case .ios:
            for position in environment.iosApps.indices {
                let (claim, file) = claims.ios[position]
                let decision =
                    file.map { file in
                        decide(position, file) {
                            file.number < 0
                                ? LinkDecision(outcome: .noMatch)
                                : aasaByFile[file.number]?.decision(
                                    for: url, appID: environment.iosApps[position].appID, tracing: tracing)
                                    ?? LinkDecision(outcome: .noMatch)
                        }
                    } ?? LinkDecision(outcome: .noMatch)
                body(position, claim, file, nil, decision)
            }
        case .android:
            let onClaimedHost = url.host.map { $0 == claims.host } ?? true
            for position in environment.androidApps.indices {
                var claim = Claim.none
                var scope: PathScope?
                var file: FileRef?
                // The first filter naming the host whose path scope accepts the URL claims it.
                for link in claims.android[position] {
                    guard let index = link.scope(for: url, onClaimedHost: onClaimedHost) else { continue }
                    claim = link.declared.isWildcard ? .wildcard(link.declared.name) : .exact(link.declared.name)
                    scope = link.filter.scopes[index]
                    file = link.file
                    break
                }
                let decision =
                    file.map { file in
                        decide(position, file) {
                            file.number < 0
                                ? LinkDecision(outcome: .noMatch)
                                : assetLinksByFile[file.number]?.decision(
                                    for: url, package: environment.androidApps[position].package,
                                    readingRules: file.readsRules, tracing: tracing)
                                    ?? LinkDecision(outcome: .noMatch)
                        }
                    } ?? LinkDecision(outcome: .noMatch)
                body(position, claim, file, scope, decision)
            }
        }
    }

    /// Prepares the files each app's claim in `claims` decides through for `urls` distinct
    /// URLs on the host (`LazyRuleIndex.anticipate`).
    func anticipate(urls: Int, through claims: HostClaims) {
        switch claims.platform {
        case .ios:
            for (position, claim) in claims.ios.enumerated() {
                guard let number = claim.file?.number, number >= 0 else { continue }
                aasaByFile[number]?.anticipate(urls: urls, appID: environment.iosApps[position].appID)
            }
        case .android:
            for (position, chain) in claims.android.enumerated() {
                // Every filter of an app on one host decides through the same file.
                guard let file = chain.first?.file, file.readsRules, file.number >= 0 else { continue }
                assetLinksByFile[file.number]?.deciding(package: environment.androidApps[position].package)?.rules?
                    .anticipate(urls: urls)
            }
        }
    }

    /// The logical name of the app at `position` among the apps of `platform`.
    func appName(_ position: Int, on platform: Platform) -> String {
        platform == .ios ? environment.iosApps[position].name : environment.androidApps[position].name
    }

    /// One intent filter that may claim a host, with the host it names and the file that then
    /// decides (the same for every filter of the app on one host: `androidDecidingFile`).
    struct AndroidClaimLink: Sendable {
        /// The filter's position in the app's list.
        let index: Int
        let filter: IntentFilter
        let declared: Host
        let file: FileRef
        var fileHost: String { file.host }

        /// The first of the filter's scopes accepting `url` (`IntentFilter.matchingScope`). A
        /// URL on the host the link was found for (`onClaimedHost`), or on none, is on a host
        /// the filter names (`androidClaimChain` keeps no other filter), so its scopes alone
        /// tell: checking its hosts again cost a third of a witness's Android claims.
        func scope(for url: LinkURL, onClaimedHost: Bool) -> Int? {
            onClaimedHost ? filter.scopes.firstIndex { $0.matches(url) } : filter.matchingScope(for: url)
        }
    }

    /// The filters of the Android app at `position` that name `host`, exactly or by wildcard, in
    /// declaration order: the first whose path scope accepts a URL claims it (AOSP
    /// `IntentFilter.matchData`). Which filter claims decides nothing else: Android verifies and
    /// applies dynamic rules per package and URL host (`androidDecidingFile`).
    private func androidClaimChain(app position: Int, host: String) -> [AndroidClaimLink] {
        let app = environment.androidApps[position]
        let exact = exactFilters[position][host] ?? []
        let wildcard = wildcardFilters[position]
        let candidates = wildcard.isEmpty ? exact : Array(Set(exact + wildcard)).sorted()
        var deciding: FileRef?
        return candidates.compactMap { index in
            let filter = app.intentFilters[index]
            let declared =
                filter.hosts.first { $0.name == host }
                ?? filter.hosts.first { HostPattern.androidFilter($0.name, matches: host) }
            guard let declared else { return nil }
            deciding = deciding ?? androidDecidingFile(app: position, host: host)
            return AndroidClaimLink(index: index, filter: filter, declared: declared, file: deciding!)
        }
    }

    /// `*.` with each parent domain of `host` that holds a dot, nearest first.
    static func parentWildcards(of host: String) -> [String] {
        if host.utf8.allSatisfy({ (0x21..<0x80).contains($0) }) {
            // Each character is one byte: the dots are found among the bytes, without the
            // searches below (a tenth of deciding the hosts' claims).
            let dots = host.utf8.indices.filter { host.utf8[$0] == UInt8(ascii: ".") }
            return dots.dropLast().map { "*." + host[host.utf8.index(after: $0)...] }
        }
        return parentWildcardsByCharacters(of: host)
    }

    /// `parentWildcards(of:)` searched character by character, for any host.
    static func parentWildcardsByCharacters(of host: String) -> [String] {
        var wildcards: [String] = []
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: "."), rest[rest.index(after: dot)...].contains(".") {
            rest = rest[rest.index(after: dot)...]
            wildcards.append("*." + rest)
        }
        return wildcards
    }

    /// The file deciding the Android app at `position`'s URLs on `host`, as AOSP's
    /// `DomainVerificationService` decides once an intent filter matched (`fillMapWithApprovalLevels`):
    ///
    /// - Dynamic rules: `matchUriRelativeFilterGroups` takes the groups StatementService stored
    ///   for the URL's own host (`getUriRelativeFilterGroups(package, uri.getHost())`), keyed by
    ///   each domain the package declares and verified, with the rules of the file that verified
    ///   it; an empty list is not stored (`setUriRelativeFilterGroups`). `latest` looks for the
    ///   host itself, then `*.` with each parent domain, nearest first, never `*.` with the last
    ///   label alone; `15-initial` for the host itself only. No groups: the filter alone decides.
    /// - Verification, where no rules are found: the host is approved when a verified domain is
    ///   the host or a wildcard whose root ends it (`approvalLevelForDomainInternal`:
    ///   `host.endsWith(domain.substring(2))`); a domain is verified when its file vouches for
    ///   the package. Its file decides then without rules (`readsRules` false).
    /// - Nothing vouches: the host's own declared file, else the nearest wildcard's, decides
    ///   that the link stays on the web.
    private func androidDecidingFile(app position: Int, host: String) -> FileRef {
        let package = environment.androidApps[position].package
        let declared = declaredDomains[position]
        let host = host.lowercased()
        func vouching(_ domain: String) -> (fileHost: String, hasRules: Bool)? {
            guard let fileHost = declared[domain],
                let statement = compiledAssetLinks(fileHost: fileHost)?.deciding(package: package)
            else { return nil }
            return (fileHost, statement.rules != nil)
        }
        // The host, then `*.` with each parent domain holding a dot, nearest first.
        let lookup = [host] + Self.parentWildcards(of: host)
        let rulesLookup = androidRelease == .latest ? lookup : [host]
        if let found = rulesLookup.lazy.compactMap(vouching).first(where: \.hasRules) {
            return fileRef(found.fileHost)
        }
        // Approval by any verified wildcard whose root ends the host, the longest first.
        let wildcards = declaredWildcards[position].map(\.domain).filter { host.hasSuffix($0.dropFirst(2)) }
        if let verified = ([host] + wildcards).lazy.compactMap(vouching).first {
            var ref = fileRef(verified.fileHost)
            ref.readsRules = false
            return ref
        }
        let nearest = ([host] + wildcards).first { declared[$0] != nil }
        return fileRef(nearest.flatMap { declared[$0] } ?? host)
    }

    /// What decides a URL on a host apart from its path, query and fragment: per app, whether and
    /// how it claims the host (through which intent filters on Android) and which domain's files
    /// then decide. Two hosts in the same situation decide every path alike, so `test` decides
    /// each expectation once per situation rather than once per host.
    struct Situation: Hashable {
        /// Per iOS app: `nil` when it does not claim the host, else the domain of the file that
        /// decides (`""` when no file is served there).
        var ios: [String?]
        /// Per Android app: the claiming filters in order, each with its file's domain and
        /// whether that file's dynamic rules apply (`FileRef.readsRules`).
        var android: [[Int: AndroidFile]]

        struct AndroidFile: Hashable {
            var domain: String
            var readsRules: Bool
        }
    }

    /// What decides every path, query and fragment on a host, in terms that compare across
    /// environments: per app of the platform, in order, its name and each way it may claim a URL
    /// there (its iOS claim; on Android each intent filter naming the host, in order, with the
    /// path scopes that accept), with the rules that then decide as `rules` numbers them (nil:
    /// none, so the app does not open). Hosts of any environments with equal keys decide every
    /// path alike, through the same deciding rule: `test` decides an expectation once per key.
    /// The names are those of the apps built for the platform (a usable configuration gives
    /// every iOS build an app ID: `MISSING_TEAM_ID`), so an expectation naming an app finds it
    /// built alike too.
    struct DecidingKey: Hashable {
        struct App: Hashable {
            var name: String
            var ways: [Way]
        }

        struct Way: Hashable {
            /// Android: the filter's path scopes; nil on iOS, where a claim covers every path.
            var scopes: [PathScope]?
            var rules: Int?
        }

        var apps: [App]
    }

    /// The key of hosts with `claims`; `rules` numbers the rules a file gives the app at a
    /// position (`decidingRules`), nil when it gives none.
    func decidingKey(_ claims: HostClaims, rules: (_ app: Int, _ file: FileRef) -> Int?) -> DecidingKey {
        switch claims.platform {
        case .ios:
            return DecidingKey(
                apps: environment.iosApps.indices.map { position in
                    DecidingKey.App(
                        name: environment.iosApps[position].name,
                        ways: claims.ios[position].file.map { [DecidingKey.Way(rules: rules(position, $0))] } ?? [])
                })
        case .android:
            return DecidingKey(
                apps: environment.androidApps.indices.map { position in
                    DecidingKey.App(
                        name: environment.androidApps[position].name,
                        ways: claims.android[position].map { link in
                            DecidingKey.Way(scopes: link.filter.scopes, rules: rules(position, link.file))
                        })
                })
        }
    }

    /// The situation of the host both claims were found for.
    func situation(ios: HostClaims, android: HostClaims) -> Situation {
        func domain(_ fileHost: String) -> String { domainByFileHost[fileHost] ?? "" }
        return Situation(
            ios: ios.ios.map { $0.file.map { domain($0.host) } },
            android: android.android.map { chain in
                var links: [Int: Situation.AndroidFile] = [:]
                for link in chain {
                    links[link.index] = Situation.AndroidFile(
                        domain: domain(link.fileHost), readsRules: link.file.readsRules)
                }
                return links
            })
    }

    /// The compiled association files a host serves.
    func compiledAASA(fileHost: String) -> CompiledAASA? { fileNumbers[fileHost].flatMap { aasaByFile[$0] } }
    func compiledAssetLinks(fileHost: String) -> CompiledAssetLinks? {
        fileNumbers[fileHost].flatMap { assetLinksByFile[$0] }
    }

    /// The bindings of this environment that serve `host` (the host itself, or a wildcard over it).
    public func servingHosts(for host: String) -> [Host] {
        environment.sites.flatMap(\.servedHosts).filter { served in
            served.name == host || (served.isWildcard && HostPattern.appleEntitlement(served.name, matches: host))
        }
    }
}
