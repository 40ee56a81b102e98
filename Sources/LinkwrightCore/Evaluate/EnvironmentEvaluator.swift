/// Decides what a URL does in one compiled environment, per platform and app, the way devices
/// do: the app must claim the host (entitlement or intent filter), and the association file the
/// device fetches for that claim must let the URL open it.
///
/// A class: `test` and the behaviour diff hand one evaluator to millions of decisions, and a
/// copy of a dozen tables for each cost more than the decision.
public final class EnvironmentEvaluator: Sendable {
    public let environment: CompiledEnvironment
    /// The documents the compiled association files were compiled from (what `decidingRules`
    /// compares), by the name of the host that serves them.
    private let aasaDocuments: [String: AASADocument]
    /// Hashed once: `reading` looks each up again for every older Android release.
    private let assetLinksDocuments: [String: HashedKey<AssetLinksDocument>]
    /// How `assetLinksByFile` reads Android's dynamic rules.
    private let androidRelease: AndroidRelease
    /// Per iOS app (in `environment.iosApps` order), its applinks entries indexed for lookup.
    private let iosClaims: [ClaimIndex]
    /// Per Android app, per host, the intent filters that name it exactly (in filter order).
    private let exactFilters: [[String: [Int]]]
    /// Per Android app, the intent filters with a wildcard host.
    private let wildcardFilters: [[Int]]
    /// Per Android app, every host its intent filters declare (lowercased, `*.` kept) with the
    /// host whose assetlinks.json verifies it: the domains Android verifies for the package.
    private let declaredDomains: [[String: String]]
    /// Per Android app, its declared `*.` domains with their file hosts, longest first (ties
    /// in name order): the few `androidDecidingFile` tries on every host, without walking
    /// the thousands of exact hosts a fleet's app may declare.
    private let declaredWildcards: [[(domain: String, fileHost: String)]]

    /// The domain whose files each host serves: hosts of one domain share their compiled files.
    private let domainByFileHost: [String: String]
    /// Each host serving files, numbered in site order (`FileRef`).
    private let fileNumbers: [String: Int]
    /// Compiled association files by the number of the host that serves them (`fileNumbers`):
    /// a decision reads its file in place, where a table lookup by host copied the compiled
    /// file for each one.
    private let aasaByFile: [CompiledAASA?]
    private let assetLinksByFile: [CompiledAssetLinks?]

    /// The platforms whose association files were compiled: `verdicts` answers for these only.
    public let platforms: Set<Platform>

    /// Evaluates `environment`; Android's dynamic rules are read as `androidRelease` reads them.
    /// Only the files of `platforms` are compiled (compiling assetlinks.json's dynamic rules for
    /// thousands of hosts costs more than deciding iOS-only expectations on them).
    public convenience init(
        _ environment: CompiledEnvironment, androidRelease: AndroidRelease = .latest,
        platforms: Set<Platform> = Set(Platform.allCases)
    ) {
        var files = CompiledFiles()
        self.init(environment, androidRelease: androidRelease, platforms: platforms, sharing: &files)
    }

    /// Files compiled so far for other environments or revisions. Apple's by what they compile
    /// (`CompiledAASA.rulesKey`): the environments of a domain usually serve the same rules to
    /// differently named apps, so each environment after the first takes them with its app IDs.
    /// Android's by document and release: a revision of a fleet's contract serves the files of
    /// every domain it did not change again.
    ///
    /// Shared by several snapshots (`PolicySnapshot.Reuse`), a file is kept while a snapshot
    /// whose evaluators read it keeps them: each snapshot counts once per file it read (`add`)
    /// and is discounted when it forgets its evaluators (`release`).
    struct CompiledFiles {
        fileprivate var aasa: [HashedKey<AppLinksSection>?: CompiledAASA] = [:]
        fileprivate var assetLinks: [AssetLinksKey: CompiledAssetLinks] = [:]
        /// The files read since `beginReading`.
        private(set) var read = Keys()
        /// How many snapshots read each file.
        private var readers: [Keys.Key: Int] = [:]
        /// The keys made last of each environment's domain ("production/shop"), taken again for
        /// the same file: a changelog's revisions of a fleet serve the same instance of every
        /// file they did not change (`DomainCompilations`), which compares at once, so each is
        /// not hashed again for every revision's evaluators.
        private var aasaKeys: [String: (document: AASADocument, key: HashedKey<AppLinksSection>?)] = [:]
        private var assetLinksKeys: [String: HashedKey<AssetLinksDocument>] = [:]

        /// An asset links document as one release reads it.
        fileprivate struct AssetLinksKey: Hashable {
            var document: HashedKey<AssetLinksDocument>
            var release: AndroidRelease
        }

        /// Names of compiled files.
        struct Keys {
            fileprivate enum Key: Hashable {
                case aasa(HashedKey<AppLinksSection>?)
                case assetLinks(AssetLinksKey)
            }

            fileprivate var keys: Set<Key> = []

            /// Those not in `other`.
            func subtracting(_ other: Keys) -> Keys { Keys(keys: keys.subtracting(other.keys)) }
            mutating func formUnion(_ other: Keys) { keys.formUnion(other.keys) }
        }

        mutating func beginReading() { read = Keys() }

        /// `CompiledAASA.rulesKey(document)`, served by `domain` in `environment`.
        fileprivate mutating func rulesKey(_ document: AASADocument, domain: String, in environment: String)
            -> HashedKey<AppLinksSection>?
        {
            let name = environment + "/" + domain
            if let known = aasaKeys[name], known.document == document { return known.key }
            let key = CompiledAASA.rulesKey(document)
            aasaKeys[name] = (document, key)
            return key
        }

        /// `document` with its hash, served by `domain` in `environment`.
        fileprivate mutating func hashed(_ document: AssetLinksDocument, domain: String, in environment: String)
            -> HashedKey<AssetLinksDocument>
        {
            let name = environment + "/" + domain
            if let known = assetLinksKeys[name], known.value == document { return known }
            let key = HashedKey(document)
            assetLinksKeys[name] = key
            return key
        }

        /// How many compiled files are kept.
        var count: Int { aasa.count + assetLinks.count }

        /// Compares `key` in full once, with the stored key it equals, and records the stored
        /// one as read: copies of one key share its storage and compare at once, where each
        /// environment's key was its own and compared rule by rule with every lookup.
        fileprivate mutating func aasa(_ key: HashedKey<AppLinksSection>?) -> CompiledAASA? {
            guard let index = aasa.index(forKey: key) else {
                read.keys.insert(.aasa(key))
                return nil
            }
            read.keys.insert(.aasa(aasa[index].key))
            return aasa[index].value
        }

        fileprivate mutating func assetLinks(_ key: AssetLinksKey) -> CompiledAssetLinks? {
            read.keys.insert(.assetLinks(key))
            return assetLinks[key]
        }

        /// Adds the files `other` read, and counts one more snapshot reading those of `readers`.
        mutating func add(_ other: CompiledFiles, readers: Keys = Keys()) {
            for key in other.read.keys {
                switch key {
                case .aasa(let name): aasa[name] = aasa[name] ?? other.aasa[name]
                case .assetLinks(let name): assetLinks[name] = assetLinks[name] ?? other.assetLinks[name]
                }
            }
            for key in readers.keys { self.readers[key, default: 0] += 1 }
            aasaKeys.merge(other.aasaKeys) { $1 }
            assetLinksKeys.merge(other.assetLinksKeys) { $1 }
        }

        /// Counts one snapshot fewer reading `keys`, and drops the files no snapshot reads.
        mutating func release(_ keys: Keys) {
            for key in keys.keys {
                guard let count = readers[key] else { continue }
                guard count <= 1 else {
                    readers[key] = count - 1
                    continue
                }
                readers[key] = nil
                switch key {
                case .aasa(let name): aasa[name] = nil
                case .assetLinks(let name): assetLinks[name] = nil
                }
            }
        }
    }

    /// `init`, taking Apple's files already compiled in `files` and adding those it compiles.
    init(
        _ environment: CompiledEnvironment, androidRelease: AndroidRelease = .latest,
        platforms: Set<Platform> = Set(Platform.allCases), sharing files: inout CompiledFiles
    ) {
        self.environment = environment
        self.platforms = platforms
        domainByFileHost = Dictionary(
            environment.sites.map { ($0.fileHost.name, $0.domain) }, uniquingKeysWith: { first, _ in first })
        var fileNumbers: [String: Int] = [:]
        for site in environment.sites where fileNumbers[site.fileHost.name] == nil {
            fileNumbers[site.fileHost.name] = fileNumbers.count
        }
        self.fileNumbers = fileNumbers
        var aasa: [String: CompiledAASA] = [:]
        var aasaDocuments: [String: AASADocument] = [:]
        // Every host of a domain serves the same files in one environment: compile them once.
        // The rules no earlier environment compiled are compiled on every core, each set once.
        let appleSites = platforms.contains(.ios) ? environment.sites.filter { $0.aasa != nil } : []
        var keyOfDomain: [String: HashedKey<AppLinksSection>?] = [:]
        // The rules compiled before, by domain: each key is looked up once.
        var compiledOfDomain: [String: CompiledAASA] = [:]
        var toCompile: [(key: HashedKey<AppLinksSection>?, document: AASADocument)] = []
        var keysToCompile: Set<HashedKey<AppLinksSection>?> = []
        for site in appleSites where keyOfDomain[site.domain] == nil {
            let key = files.rulesKey(site.aasa!, domain: site.domain, in: environment.name)
            keyOfDomain[site.domain] = key
            if let compiled = files.aasa(key) {
                compiledOfDomain[site.domain] = compiled
            } else if keysToCompile.insert(key).inserted {
                toCompile.append((key, site.aasa!))
            }
        }
        let newlyCompiled = toCompile.parallelMap { CompiledAASA($0.document) }
        for (file, compiled) in zip(toCompile, newlyCompiled) { files.aasa[file.key] = compiled }
        var aasaByDomain: [String: (CompiledAASA, AASADocument)] = [:]
        for site in appleSites {
            let document = site.aasa!
            let compiled =
                aasaByDomain[site.domain]
                ?? (
                    CompiledAASA(
                        document,
                        sharingRulesOf: compiledOfDomain[site.domain] ?? files.aasa[keyOfDomain[site.domain]!]!),
                    document
                )
            aasaByDomain[site.domain] = compiled
            (aasa[site.fileHost.name], aasaDocuments[site.fileHost.name]) = compiled
        }
        aasaByFile = Self.byFile(aasa, fileNumbers)
        self.aasaDocuments = aasaDocuments
        self.androidRelease = androidRelease
        let assetLinks: [String: CompiledAssetLinks]
        (assetLinks, assetLinksDocuments) =
            platforms.contains(.android)
            ? Self.assetLinks(of: environment, release: androidRelease, sharing: &files) : ([:], [:])
        assetLinksByFile = Self.byFile(assetLinks, fileNumbers)
        iosClaims = environment.iosApps.map { ClaimIndex($0.associatedDomains) }
        exactFilters = environment.androidApps.map { app in
            var index: [String: [Int]] = [:]
            for (position, filter) in app.intentFilters.enumerated() {
                for host in Set(filter.hosts.filter { !$0.isWildcard }.map { $0.name.lowercased() }) {
                    index[host, default: []].append(position)
                }
            }
            return index
        }
        wildcardFilters = environment.androidApps.map { app in
            app.intentFilters.indices.filter { app.intentFilters[$0].hosts.contains(where: \.isWildcard) }
        }
        declaredDomains = environment.androidApps.map { app in
            var domains: [String: String] = [:]
            for host in app.intentFilters.flatMap(\.hosts) {
                domains[host.name.lowercased()] = host.fileHost.name
            }
            return domains
        }
        declaredWildcards = declaredDomains.map { domains in
            domains.filter { $0.key.hasPrefix("*.") }.map { (domain: $0.key, fileHost: $0.value) }
                .sorted {
                    $0.domain.count != $1.domain.count ? $0.domain.count > $1.domain.count : $0.domain < $1.domain
                }
        }
    }

    /// The same environment with Android's dynamic rules read as `release` reads them: the asset
    /// links are read again once per domain, sharing their compiled patterns, or taken from
    /// `files` where read before; everything else is shared.
    func reading(androidRelease release: AndroidRelease, sharing files: inout CompiledFiles) -> EnvironmentEvaluator {
        guard platforms.contains(.android) else { return self }
        var byDomain: [String: CompiledAssetLinks] = [:]
        var assetLinks: [String: CompiledAssetLinks] = [:]
        for site in environment.sites {
            let host = site.fileHost.name
            guard let compiled = compiledAssetLinks(fileHost: host), let document = assetLinksDocuments[host] else {
                continue
            }
            if byDomain[site.domain] == nil {
                let key = CompiledFiles.AssetLinksKey(document: document, release: release)
                byDomain[site.domain] = files.assetLinks(key) ?? compiled.reading(release)
                files.assetLinks[key] = byDomain[site.domain]
            }
            assetLinks[host] = byDomain[site.domain]
        }
        return EnvironmentEvaluator(self, assetLinks: assetLinks, androidRelease: release)
    }

    /// `other` with Android's files and release replaced.
    private init(
        _ other: EnvironmentEvaluator, assetLinks: [String: CompiledAssetLinks], androidRelease: AndroidRelease
    ) {
        (environment, platforms) = (other.environment, other.platforms)
        aasaDocuments = other.aasaDocuments
        (assetLinksDocuments, self.androidRelease) = (other.assetLinksDocuments, androidRelease)
        (iosClaims, exactFilters, wildcardFilters) = (other.iosClaims, other.exactFilters, other.wildcardFilters)
        (declaredDomains, declaredWildcards) = (other.declaredDomains, other.declaredWildcards)
        (domainByFileHost, fileNumbers) = (other.domainByFileHost, other.fileNumbers)
        aasaByFile = other.aasaByFile
        assetLinksByFile = Self.byFile(assetLinks, fileNumbers)
    }

    /// `files` by the number of the host serving each (`fileNumbers`).
    private static func byFile<File>(_ files: [String: File], _ numbers: [String: Int]) -> [File?] {
        var byNumber = [File?](repeating: nil, count: numbers.count)
        for (host, number) in numbers { byNumber[number] = files[host] }
        return byNumber
    }

    /// Whether Android's dynamic rules decide every URL as the newest release reads them: the
    /// newest itself, or a release reading each rule of each file alike.
    var decidesAndroidAsNewest: Bool {
        androidRelease == .latest
            || (assetLinksByFile.allSatisfy { $0?.readsEveryRuleAsNewest ?? true } && !wildcardHasDynamicRules)
    }

    /// Whether an Android app's wildcard host verifies with dynamic rules: `15-initial` finds
    /// no rules on the subdomains only the wildcard covers, where `latest` finds these
    /// (`androidDecidingFile`).
    private var wildcardHasDynamicRules: Bool {
        environment.androidApps.indices.contains { position in
            let package = environment.androidApps[position].package
            return declaredWildcards[position].contains { wildcard in
                compiledAssetLinks(fileHost: wildcard.fileHost)?.deciding(package: package)?.rules != nil
            }
        }
    }

    /// Each host's asset links as `release` reads them, compiled once per domain: every host of
    /// a domain serves the same file in one environment, taken from `files` where compiled
    /// before, and added to it otherwise.
    private static func assetLinks(
        of environment: CompiledEnvironment, release: AndroidRelease, sharing files: inout CompiledFiles
    ) -> (compiled: [String: CompiledAssetLinks], documents: [String: HashedKey<AssetLinksDocument>]) {
        var byHost: [String: CompiledAssetLinks] = [:]
        var documents: [String: HashedKey<AssetLinksDocument>] = [:]
        // The first site of each domain, whose file every host of the domain serves; the
        // domains' files not compiled before are compiled on every core.
        var domainFiles: [(document: AssetLinksDocument, key: CompiledFiles.AssetLinksKey)] = []
        var position: [String: Int] = [:]
        for site in environment.sites where site.assetLinks != nil && position[site.domain] == nil {
            position[site.domain] = domainFiles.count
            let document = files.hashed(site.assetLinks!, domain: site.domain, in: environment.name)
            domainFiles.append((site.assetLinks!, .init(document: document, release: release)))
        }
        let toCompile = domainFiles.indices.filter { files.assetLinks(domainFiles[$0].key) == nil }
        let domainDocuments = domainFiles.map(\.document)
        let newlyCompiled = toCompile.parallelMap { CompiledAssetLinks(domainDocuments[$0], release: release) }
        for (index, file) in zip(toCompile, newlyCompiled) { files.assetLinks[domainFiles[index].key] = file }
        let compiled = domainFiles.map { files.assetLinks[$0.key] }
        for site in environment.sites where site.assetLinks != nil {
            let domain = position[site.domain]!
            (byHost[site.fileHost.name], documents[site.fileHost.name]) = (
                compiled[domain]!, domainFiles[domain].key.document
            )
        }
        return (byHost, documents)
    }

    /// The rules that decide for one app in one file, whatever the app is called.
    enum DecidingRules: Hashable {
        /// iOS: the file's variables and defaults, and each entry in file order, without its app
        /// IDs when it names the app and nil when it does not (`CompiledAASA.decision`).
        case apple(variables: [AASAVariable], defaults: AASAComponent?, entries: [AASADetails?])
        /// Android: the statement that decides for the package (`CompiledAssetLinks.deciding`)
        /// with its dynamic rules as `release` reads them; no statement when none vouches for it.
        case android(statement: Int?, rules: [DynamicComponent]?, release: AndroidRelease)
    }

    /// What decides for the app at `position` on `platform` through `file`: equal values make
    /// the same decision, naming the same rule, for every path, query and fragment, so staging's
    /// apps reading production's rules under other IDs share its decisions (`test`). Nil when
    /// no file of the platform was compiled for the host.
    func decidingRules(app position: Int, platform: Platform, file: FileRef) -> DecidingRules? {
        let fileHost = file.host
        switch platform {
        case .ios:
            guard let applinks = aasaDocuments[fileHost].map(\.applinks) else { return nil }
            let appID = environment.iosApps[position].appID
            return .apple(
                variables: applinks?.substitutionVariables ?? [], defaults: applinks?.defaults,
                entries: (applinks?.details ?? []).map { entry in
                    entry.effectiveAppIDs.contains(appID) ? entry.withoutAppIDs : nil
                })
        case .android:
            guard let compiled = compiledAssetLinks(fileHost: fileHost), let document = assetLinksDocuments[fileHost]
            else { return nil }
            let statement = compiled.deciding(package: environment.androidApps[position].package)
            return .android(
                statement: statement?.index,
                rules: file.readsRules && statement?.rules != nil
                    ? document.value.statements[statement!.index].dynamicComponents : nil,
                release: androidRelease)
        }
    }

    /// An app's `applinks:` entries, for finding the one that covers a host.
    private struct ClaimIndex: Sendable {
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
        let host: String
        let platform: Platform
        /// iOS: per app, its claim and the file that then decides.
        fileprivate let ios: [(claim: Claim, file: FileRef?)]
        /// Android: per app, the intent filters naming the host, in declaration order.
        let android: [[AndroidClaimLink]]

        /// The host whose file decides for the iOS app at `position`; nil when it does not
        /// claim the host.
        func iosFileHost(app position: Int) -> String? { ios[position].file?.host }
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

    /// How each app of `platform` claims `host`.
    func claims(of host: String, on platform: Platform) -> HostClaims {
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
        precondition(
            platforms.contains(found.platform), "the evaluator did not compile \(found.platform.rawValue)'s files")
        guard let host = url.host else { return }
        let claims = host == found.host ? found : self.claims(of: host, on: found.platform)
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
            for position in environment.androidApps.indices {
                var claim = Claim.none
                var scope: PathScope?
                var file: FileRef?
                // The first filter naming the host whose path scope accepts the URL claims it.
                for link in claims.android[position] {
                    guard let index = link.filter.matchingScope(for: url) else { continue }
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
        var lookup = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: "."), rest[rest.index(after: dot)...].contains(".") {
            rest = rest[rest.index(after: dot)...]
            lookup.append("*." + rest)
        }
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
