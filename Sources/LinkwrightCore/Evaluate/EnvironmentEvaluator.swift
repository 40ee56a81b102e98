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
    private let assetLinksDocuments: [String: AssetLinksDocumentKey]
    /// How `assetLinksByFile` reads Android's dynamic rules.
    let androidRelease: AndroidRelease
    /// Per iOS app (in `environment.iosApps` order), its applinks entries indexed for lookup.
    let iosClaims: [ClaimIndex]
    /// Per Android app, per host, the intent filters that name it exactly (in filter order).
    let exactFilters: [[String: [Int]]]
    /// Per Android app, the intent filters with a wildcard host.
    let wildcardFilters: [[Int]]
    /// Per Android app, every host its intent filters declare (lowercased, `*.` kept) with the
    /// host whose assetlinks.json verifies it: the domains Android verifies for the package.
    let declaredDomains: [[String: String]]
    /// Per Android app, its declared `*.` domains with their file hosts, longest first (ties
    /// in name order): the few `androidDecidingFile` tries on every host, without walking
    /// the thousands of exact hosts a fleet's app may declare.
    let declaredWildcards: [[(domain: String, fileHost: String)]]

    /// The domain whose files each host serves: hosts of one domain share their compiled files.
    let domainByFileHost: [String: String]
    /// Each host serving files, numbered in site order (`FileRef`).
    let fileNumbers: [String: Int]
    /// Compiled association files by the number of the host that serves them (`fileNumbers`):
    /// a decision reads its file in place, where a table lookup by host copied the compiled
    /// file for each one.
    let aasaByFile: [CompiledAASA?]
    let assetLinksByFile: [CompiledAssetLinks?]

    /// The platforms whose association files were compiled: `verdicts` answers for these only.
    public let platforms: Set<Platform>

    /// The claims found so far by host and platform (`claims(of:on:)`).
    let knownClaims = LockedValue<[ClaimsKey: HostClaims]>([:])

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
    /// Shared by the revisions of one cache (`RevisionCache`), a file is kept while a revision
    /// whose evaluators read it keeps them: each revision counts once per file it read (`add`)
    /// and is discounted when its work is released (`release`).
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
        /// The key made last of each domain, in whichever environment: the environments after
        /// the first serve its rules to other app IDs, in the components arrays the first one's
        /// file holds (`RuleTranslations`), so their keys compare equal to it at once and take
        /// it rather than hash the rules again; the next revision's key is hashed as an edit of it.
        private var aasaKeysByDomain: [String: CompiledAASA.RulesKey] = [:]
        private var assetLinksKeys: [String: AssetLinksDocumentKey] = [:]
        /// The dynamic rule lists keyed last for each domain, by statement, in whichever
        /// environment: the environments serve one domain's rules in one array
        /// (`RuleTranslations`), which compares equal to its key at once, so each list is hashed
        /// once, not per environment, and the next revision's as an edit of it.
        private var componentKeysByDomain: [String: [HashedRules<DynamicComponent>?]] = [:]
        /// The AASA compiled last for each environment's domain: the next revision's file, when
        /// changed, is compiled as an edit of it (`CompiledAASA.init(_:editing:)`).
        fileprivate var lastAASA: [String: CompiledAASA] = [:]
        /// The asset links compiled last for each environment's domain, as the newest release
        /// reads them: the next revision's file, when changed, is compiled as an edit of it
        /// (`CompiledAssetLinks.init(_:release:editing:)`). One per domain, whatever the revisions.
        fileprivate var lastAssetLinks: [String: CompiledAssetLinks] = [:]
        /// The asset links compiled last for each domain, in whichever environment, as the newest
        /// release reads them: the environments of a domain serve its rules to differently named
        /// apps, so each environment after the first takes the rules compiled for the first
        /// (`CompiledAssetLinks.init(_:componentKeys:release:editing:sharingRulesOf:)`).
        fileprivate var lastAssetLinksOfDomain: [String: CompiledAssetLinks] = [:]
        /// The asset links read last by each older release for each environment's domain
        /// ("production/shop/15-initial") and for each domain in whichever environment
        /// ("shop/15-initial"), the newest last: rules another environment's reading holds are
        /// taken from it, and the next revision's rules are read as an edit of the reading of the
        /// rules their newest release's compilation was an edit of
        /// (`CompiledAssetLinks.reading(_:editing:)`), found among these by content, so which
        /// thread read which revision first does not matter.
        fileprivate var lastReadings: [String: [(key: AssetLinksKey, read: CompiledAssetLinks)]] = [:]
        /// The readings kept since `beginReading`, which `add` keeps in the files it adds to.
        private var readingsMade: [(name: String, key: AssetLinksKey, read: CompiledAssetLinks)] = []
        /// The claim indexes made last for each environment, by its name: a changelog's revisions
        /// of a fleet rarely change what its apps claim, and indexing every host each app claims
        /// cost more than the evaluator's other tables.
        fileprivate var appClaims: [String: (claims: AppClaims, indexes: AppClaimIndexes)] = [:]
        /// How many readings `lastReadings` keeps per domain and release: the threads of a
        /// changelog read neighbouring revisions.
        private static var readingsKept: Int { 4 }

        /// An asset links document as one release reads it.
        fileprivate struct AssetLinksKey: Hashable {
            var document: AssetLinksDocumentKey
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

        mutating func beginReading() { (read, readingsMade) = (Keys(), []) }

        /// Keeps `read` as the newest reading of `key` for `name` (`lastReadings`), and as made
        /// since `beginReading`.
        fileprivate mutating func keepReading(_ read: CompiledAssetLinks, _ key: AssetLinksKey, as name: String) {
            keep(read, key, as: name)
            readingsMade.append((name, key, read))
        }

        private mutating func keep(_ read: CompiledAssetLinks, _ key: AssetLinksKey, as name: String) {
            var kept = lastReadings[name] ?? []
            kept.removeAll { $0.key == key }
            kept.append((key, read))
            lastReadings[name] = Array(kept.suffix(Self.readingsKept))
        }

        /// `CompiledAASA.rulesKey(document)`, served by `domain` in `environment`.
        fileprivate mutating func rulesKey(_ document: AASADocument, domain: String, in environment: String)
            -> HashedKey<AppLinksSection>?
        {
            let name = environment + "/" + domain
            if let known = aasaKeys[name], known.document == document { return known.key }
            let key = CompiledAASA.rulesKey(document, editing: aasaKeysByDomain[domain])
            aasaKeys[name] = (document, key?.key)
            aasaKeysByDomain[domain] = key
            return key?.key
        }

        /// `document` with its hash, served by `domain` in `environment`.
        fileprivate mutating func hashed(_ document: AssetLinksDocument, domain: String, in environment: String)
            -> AssetLinksDocumentKey
        {
            let name = environment + "/" + domain
            if let known = assetLinksKeys[name], known.document == document { return known }
            // The apps of one entry read one array too: each statement's is looked up among those
            // keyed before it, else hashed as an edit of the list of the statement in its place.
            let earlier = componentKeysByDomain[domain] ?? []
            var known = earlier.compactMap { $0 }
            let componentKeys = document.statements.indices.map { position in
                document.statements[position].dynamicComponents.map { components in
                    if let same = known.first(where: { $0.key.value == components }) { return same }
                    known.append(HashedRules(components, editing: position < earlier.count ? earlier[position] : nil))
                    return known.last!
                }
            }
            let key = AssetLinksDocumentKey(document, componentKeys: componentKeys.map { $0?.key })
            assetLinksKeys[name] = key
            componentKeysByDomain[domain] = componentKeys
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
            aasaKeysByDomain.merge(other.aasaKeysByDomain) { $1 }
            assetLinksKeys.merge(other.assetLinksKeys) { $1 }
            componentKeysByDomain.merge(other.componentKeysByDomain) { $1 }
            lastAssetLinks.merge(other.lastAssetLinks) { $1 }
            lastAssetLinksOfDomain.merge(other.lastAssetLinksOfDomain) { $1 }
            // Another thread may have kept readings meanwhile: both threads' are kept.
            for made in other.readingsMade { keep(made.read, made.key, as: made.name) }
            lastAASA.merge(other.lastAASA) { $1 }
            appClaims.merge(other.appClaims) { $1 }
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
        var toCompile: [(key: HashedKey<AppLinksSection>?, document: AASADocument, name: String)] = []
        var keysToCompile: Set<HashedKey<AppLinksSection>?> = []
        for site in appleSites where keyOfDomain[site.domain] == nil {
            let key = files.rulesKey(site.aasa!, domain: site.domain, in: environment.name)
            keyOfDomain[site.domain] = key
            if let compiled = files.aasa(key) {
                compiledOfDomain[site.domain] = compiled
            } else if keysToCompile.insert(key).inserted {
                toCompile.append((key, site.aasa!, environment.name + "/" + site.domain))
            }
        }
        let earlierAASA = toCompile.map { files.lastAASA[$0.name] }
        let documents = toCompile.map(\.document)
        let keys = toCompile.map(\.key)
        let newlyCompiled = documents.indices.parallelMap {
            CompiledAASA(documents[$0], editing: earlierAASA[$0], compiledFrom: keys[$0])
        }
        for (file, compiled) in zip(toCompile, newlyCompiled) {
            files.aasa[file.key] = compiled
            files.lastAASA[file.name] = compiled
        }
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
        let claims = AppClaims(environment)
        let indexes: AppClaimIndexes
        if let known = files.appClaims[environment.name], known.claims == claims {
            indexes = known.indexes
        } else {
            indexes = AppClaimIndexes(environment)
            files.appClaims[environment.name] = (claims, indexes)
        }
        (iosClaims, exactFilters, wildcardFilters) = (indexes.iosClaims, indexes.exactFilters, indexes.wildcardFilters)
        (declaredDomains, declaredWildcards) = (indexes.declaredDomains, indexes.declaredWildcards)
    }

    /// What the apps' claim indexes are made of: each iOS app's associated domains and the host
    /// names of each Android app's intent filters, in order, compared exactly (`ExactText`).
    struct AppClaims: Equatable {
        let associatedDomains: [[String]]
        let filterHosts: [[[String]]]

        init(_ environment: CompiledEnvironment) {
            associatedDomains = environment.iosApps.map(\.associatedDomains)
            filterHosts = environment.androidApps.map { $0.intentFilters.map { $0.hosts.map(\.name) } }
        }

        static func == (left: AppClaims, right: AppClaims) -> Bool {
            left.associatedDomains.count == right.associatedDomains.count
                && zip(left.associatedDomains, right.associatedDomains).allSatisfy { ExactText.equal($0, $1) }
                && left.filterHosts.count == right.filterHosts.count
                && zip(left.filterHosts, right.filterHosts).allSatisfy { left, right in
                    left.count == right.count && zip(left, right).allSatisfy { ExactText.equal($0, $1) }
                }
        }
    }

    /// The apps' claims indexed for lookup (the evaluator's properties of the same names).
    struct AppClaimIndexes {
        let iosClaims: [ClaimIndex]
        let exactFilters: [[String: [Int]]]
        let wildcardFilters: [[Int]]
        let declaredDomains: [[String: String]]
        let declaredWildcards: [[(domain: String, fileHost: String)]]

        init(_ environment: CompiledEnvironment) {
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
            let declaredDomains = environment.androidApps.map { app in
                var domains: [String: String] = [:]
                for host in app.intentFilters.flatMap(\.hosts) {
                    domains[host.name.lowercased()] = host.fileHost.name
                }
                return domains
            }
            self.declaredDomains = declaredDomains
            declaredWildcards = declaredDomains.map { domains in
                domains.filter { $0.key.hasPrefix("*.") }.map { (domain: $0.key, fileHost: $0.value) }
                    .sorted {
                        $0.domain.count != $1.domain.count ? $0.domain.count > $1.domain.count : $0.domain < $1.domain
                    }
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
                let name = environment.name + "/" + site.domain + "/" + release.rawValue
                // The domain's readings in any environment: they hold its rules for other apps.
                let domainName = site.domain + "/" + release.rawValue
                let earlier = (files.lastReadings[name] ?? []) + (files.lastReadings[domainName] ?? [])
                let read = files.assetLinks(key) ?? compiled.reading(release, editing: earlier.map(\.read))
                (byDomain[site.domain], files.assetLinks[key]) = (read, read)
                files.keepReading(read, key, as: name)
                files.keepReading(read, key, as: domainName)
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
    ) -> (compiled: [String: CompiledAssetLinks], documents: [String: AssetLinksDocumentKey]) {
        var byHost: [String: CompiledAssetLinks] = [:]
        var documents: [String: AssetLinksDocumentKey] = [:]
        // The first site of each domain, whose file every host of the domain serves; the
        // domains' files not compiled before are compiled on every core.
        var domainFiles: [(key: CompiledFiles.AssetLinksKey, name: String, domain: String)] = []
        var position: [String: Int] = [:]
        for site in environment.sites where site.assetLinks != nil && position[site.domain] == nil {
            position[site.domain] = domainFiles.count
            let document = files.hashed(site.assetLinks!, domain: site.domain, in: environment.name)
            domainFiles.append(
                (.init(document: document, release: release), environment.name + "/" + site.domain, site.domain))
        }
        let toCompile = domainFiles.indices.filter { files.assetLinks(domainFiles[$0].key) == nil }
        let domainDocuments = domainFiles.map(\.key.document)
        // Only the newest release's files are edited from and shared: older releases read those
        // again.
        let (earlier, otherEnvironment) =
            release == .latest
            ? (
                toCompile.map { files.lastAssetLinks[domainFiles[$0].name] },
                toCompile.map { files.lastAssetLinksOfDomain[domainFiles[$0].domain] }
            ) : ([], [])
        let newlyCompiled = toCompile.indices.parallelMap { position in
            let document = domainDocuments[toCompile[position]]
            return CompiledAssetLinks(
                document.document, componentKeys: document.componentKeys, release: release,
                editing: earlier.isEmpty ? nil : earlier[position],
                sharingRulesOf: otherEnvironment.isEmpty ? nil : otherEnvironment[position])
        }
        for (index, file) in zip(toCompile, newlyCompiled) {
            files.assetLinks[domainFiles[index].key] = file
            if release == .latest {
                files.lastAssetLinks[domainFiles[index].name] = file
                files.lastAssetLinksOfDomain[domainFiles[index].domain] = file
            }
        }
        let compiled = domainFiles.map { files.assetLinks[$0.key] }
        for site in environment.sites where site.assetLinks != nil {
            let domain = position[site.domain]!
            (byHost[site.fileHost.name], documents[site.fileHost.name]) = (
                compiled[domain]!, domainFiles[domain].key.document
            )
        }
        return (byHost, documents)
    }

    /// An asset links document hashed once, its dynamic rule lists through their keys
    /// (`componentKeys`, in statement order), which the compilation of each list takes
    /// (`CompiledDynamicRules.shared`) rather than hash the list again.
    struct AssetLinksDocumentKey: Hashable {
        let document: AssetLinksDocument
        let componentKeys: [HashedKey<[DynamicComponent]>?]
        private let hash: Int

        init(_ document: AssetLinksDocument, componentKeys: [HashedKey<[DynamicComponent]>?]) {
            self.document = document
            self.componentKeys = componentKeys
            var hasher = Hasher()
            hasher.combine(document.includes)
            for (statement, components) in zip(document.statements, componentKeys) {
                hasher.combine(statement.relations)
                hasher.combine(statement.target)
                hasher.combine(statement.origin)
                hasher.combine(components)
            }
            hash = hasher.finalize()
        }

        static func == (left: Self, right: Self) -> Bool { left.hash == right.hash && left.document == right.document }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// The rules that decide for one app in one file, whatever the app is called.
    enum DecidingRules: Hashable {
        /// iOS: what the file's rules were compiled from (`CompiledAASA.compiledFrom`: its
        /// variables, defaults and entries without their app IDs), and whether each entry names
        /// the app (`CompiledAASA.decision` tries those only). The key is the one every file
        /// compiled with the same rules shares, so equal keys compare at once, where comparing
        /// the entries themselves walked every rule of a domain for each environment and app.
        case apple(rules: HashedKey<AppLinksSection>?, naming: [Bool])
        /// Android: the statement that decides for the package (`CompiledAssetLinks.deciding`)
        /// with its dynamic rules as `release` reads them; no statement when none vouches for it.
        /// The rules are the key their compilation was shared by (`CompiledDynamicRules.components`),
        /// hashed once: staging's and production's are one key, compared at once.
        case android(statement: Int?, rules: HashedKey<[DynamicComponent]>?, release: AndroidRelease)
    }

    /// What decides for the app at `position` on `platform` through `file`: equal values make
    /// the same decision, naming the same rule, for every path, query and fragment, so staging's
    /// apps reading production's rules under other IDs share its decisions (`test`). Nil when
    /// no file of the platform was compiled for the host.
    func decidingRules(app position: Int, platform: Platform, file: FileRef) -> DecidingRules? {
        let fileHost = file.host
        switch platform {
        case .ios:
            guard let applinks = aasaDocuments[fileHost].map(\.applinks),
                let compiled = compiledAASA(fileHost: fileHost)
            else { return nil }
            let appID = environment.iosApps[position].appID
            return .apple(
                rules: compiled.compiledFrom,
                naming: (applinks?.details ?? []).map { $0.effectiveAppIDs.contains(appID) })
        case .android:
            guard let compiled = compiledAssetLinks(fileHost: fileHost) else { return nil }
            let statement = compiled.deciding(package: environment.androidApps[position].package)
            return .android(
                statement: statement?.index, rules: file.readsRules ? statement?.rules?.components : nil,
                release: androidRelease)
        }
    }
}
