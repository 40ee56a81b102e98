/// What changed between two compiled configurations, structurally: hosts, apps, signing keys,
/// entitlement entries, the apps' custom schemes (`SchemeDiff.swift`), and rules added, removed,
/// changed or moved (order decides which rule wins). Rules compare by what they mean after the
/// defaults hierarchy, so moving a flag into `defaults` or renaming a file is no change.
public enum StructuralDiff {
    public static func changes(base: (any ComparedRevision)?, head: any ComparedRevision) -> [LinkChange] {
        var changes: [LinkChange] = []
        var diffed = DiffedLists()
        let baseEnvironments = base?.compiled.environments ?? []
        var names = head.compiled.environments.map(\.name)
        names += baseEnvironments.map(\.name).filter { !names.contains($0) }
        for name in names {
            let before = baseEnvironments.first { $0.name == name }
            let after = head.compiled.environments.first { $0.name == name }
            let context = Context(
                environment: name, baseConfiguration: base?.configuration.environment(named: name),
                headConfiguration: head.configuration.environment(named: name))
            changes += hosts(before, after, context)
            changes += sites(before, after, context)
            changes += entitlements(before, after, context)
            changes += schemes(context)
            // The head's first, as `BehaviourDiff.compare` asks: the base's is the pair before's head.
            let new = head.ruleSequences(name)
            changes += rules(old: base?.ruleSequences(name) ?? RuleSequences(nil), new: new, context, diffed: &diffed)
        }
        return changes
    }

    struct Context {
        let environment: String
        let baseConfiguration: Environment?
        let headConfiguration: Environment?
        private let hosts: BoundHosts

        /// Where each side first binds each host, found when a change first asks: a fleet's
        /// thousands of hosts each ask when hosts change, and none does in a release of rule edits.
        private final class BoundHosts {
            let base: Environment?
            let head: Environment?
            lazy var baseHosts = Self.locations(base)
            lazy var headHosts = Self.locations(head)

            init(base: Environment?, head: Environment?) { (self.base, self.head) = (base, head) }

            static func locations(_ configuration: Environment?) -> [Host: SourceLocation] {
                Dictionary(
                    (configuration?.hosts ?? []).map { ($0.host.value, $0.host.location) },
                    uniquingKeysWith: { first, _ in first })
            }
        }

        init(environment: String, baseConfiguration: Environment?, headConfiguration: Environment?) {
            (self.environment, self.baseConfiguration, self.headConfiguration) = (
                environment, baseConfiguration, headConfiguration
            )
            hosts = BoundHosts(base: baseConfiguration, head: headConfiguration)
        }

        func hostLocation(_ host: Host) -> (SourceLocation?, RevisionSide) {
            if let location = hosts.headHosts[host] { return (location, .head) }
            return (hosts.baseHosts[host], .base)
        }

        /// `play-signing 2C:F0:…` for a fingerprint, from whichever side declares it.
        func channelled(_ fingerprint: String, package: String) -> String {
            let apps = (headConfiguration?.apps ?? []) + (baseConfiguration?.apps ?? [])
            let key = apps.compactMap(\.android).filter { $0.package.value == package }.flatMap(\.fingerprints)
                .first { $0.fingerprint.value.value == fingerprint }
            return key.map { "\($0.channel.value) \(fingerprint)" } ?? fingerprint
        }
    }

    // MARK: Hosts and parties

    static func hosts(_ before: CompiledEnvironment?, _ after: CompiledEnvironment?, _ context: Context) -> [LinkChange]
    {
        let old = (before?.sites ?? []).flatMap(\.servedHosts)
        let new = (after?.sites ?? []).flatMap(\.servedHosts)
        // Nearly every release serves the same hosts in the same order: compared in place,
        // not hashed.
        guard old != new else { return [] }
        let (oldSet, newSet) = (Set(old), Set(new))
        return new.filter { !oldSet.contains($0) }.map { change(.hostAdded, $0, context) }
            + old.filter { !newSet.contains($0) }.map { change(.hostRemoved, $0, context) }
    }

    private static func change(_ kind: LinkChange.Kind, _ host: Host, _ context: Context) -> LinkChange {
        let (location, side) = context.hostLocation(host)
        return LinkChange(kind: kind, environment: context.environment, host: host.name, location: location, side: side)
    }

    static func sites(_ before: CompiledEnvironment?, _ after: CompiledEnvironment?, _ context: Context) -> [LinkChange]
    {
        var changes: [LinkChange] = []
        let (oldSites, newSites) = (before?.sites ?? [], after?.sites ?? [])
        // Each file host's first site, whose files are its parties.
        func firstSites(_ sites: [CompiledSite]) -> [Host: Int] {
            Dictionary(sites.indices.map { (sites[$0].fileHost, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let (oldFirst, newFirst) = (firstSites(oldSites), firstSites(newSites))
        // Every site of a domain serves the same files (`CompiledSite.domain`), so files are
        // compared and parties read once per domain. Between two revisions nearly every host's
        // domain serves the same files, mostly the very instance (`DomainCompilations`): such a
        // host's parties are equal and not read (a fleet's thousands of hosts read and compared
        // theirs in every release).
        var sameFiles: [[String]: Bool] = [:]
        func serveTheSameFiles(_ old: CompiledSite, _ new: CompiledSite) -> Bool {
            let domains = [old.domain, new.domain]
            if let known = sameFiles[domains] { return known }
            let same = old.aasa == new.aasa && old.assetLinks == new.assetLinks
            sameFiles[domains] = same
            return same
        }
        var partiesByDomain: (old: [String: SiteParties], new: [String: SiteParties]) = ([:], [:])
        func parties(_ site: CompiledSite?, _ byDomain: inout [String: SiteParties]) -> SiteParties {
            guard let site else { return SiteParties() }
            if let known = byDomain[site.domain] { return known }
            let parties = SiteParties(site)
            byDomain[site.domain] = parties
            return parties
        }
        // The head's file hosts, then those of the base only, each once in the order first met.
        var fileHosts = newSites.indices.filter { newFirst[newSites[$0].fileHost] == $0 }.map {
            (fileHost: newSites[$0].fileHost, old: oldFirst[newSites[$0].fileHost], new: Optional($0))
        }
        fileHosts += oldSites.indices.filter {
            oldFirst[oldSites[$0].fileHost] == $0 && newFirst[oldSites[$0].fileHost] == nil
        }.map { (fileHost: oldSites[$0].fileHost, old: Optional($0), new: nil) }
        for (fileHost, oldPosition, newPosition) in fileHosts {
            let (oldSite, newSite) = (oldPosition.map { oldSites[$0] }, newPosition.map { newSites[$0] })
            if let oldSite, let newSite, serveTheSameFiles(oldSite, newSite) { continue }
            let old = parties(oldSite, &partiesByDomain.old)
            let new = parties(newSite, &partiesByDomain.new)
            guard old != new else { continue }
            let (location, side) = context.hostLocation(fileHost)
            func make(
                _ kind: LinkChange.Kind, _ platform: Platform, _ app: String, before: String? = nil,
                after: String? = nil
            )
                -> LinkChange
            {
                LinkChange(
                    kind: kind, environment: context.environment, host: fileHost.name, platform: platform, app: app,
                    before: before, after: after, location: location,
                    side: kind == .appRemoved || kind == .fingerprintRemoved ? side : .head)
            }
            for party in new.iosServices.subtracting(old.iosServices).sorted() {
                changes.append(make(.appAdded, .ios, party.appID, after: party.service))
            }
            for party in old.iosServices.subtracting(new.iosServices).sorted() {
                changes.append(make(.appRemoved, .ios, party.appID, before: party.service))
            }
            for package in Set(old.androidKeys.keys).union(new.androidKeys.keys).sorted() {
                switch (old.androidKeys[package], new.androidKeys[package]) {
                case (nil, .some):
                    changes.append(make(.appAdded, .android, package, after: "handle_all_urls"))
                case (.some, nil):
                    changes.append(make(.appRemoved, .android, package, before: "handle_all_urls"))
                case (let oldKeys?, let newKeys?):
                    for key in newKeys.subtracting(oldKeys).sorted() {
                        changes.append(
                            make(
                                .fingerprintAdded, .android, package, after: context.channelled(key, package: package))
                        )
                    }
                    for key in oldKeys.subtracting(newKeys).sorted() {
                        changes.append(
                            make(
                                .fingerprintRemoved, .android, package,
                                before: context.channelled(key, package: package)))
                    }
                case (nil, nil): break
                }
            }
            // Credentials shared with a package or a site, and included files: who else the
            // site vouches for. A package added or removed as a whole is said above.
            func isWholePackage(_ grant: SiteParties.Service) -> Bool {
                (old.androidKeys[grant.appID] == nil) != (new.androidKeys[grant.appID] == nil)
            }
            for grant in new.grants.subtracting(old.grants).sorted() where !isWholePackage(grant) {
                changes.append(make(.appAdded, .android, grant.appID, after: grant.service))
            }
            for grant in old.grants.subtracting(new.grants).sorted() where !isWholePackage(grant) {
                changes.append(make(.appRemoved, .android, grant.appID, before: grant.service))
            }
        }
        return changes
    }

    static func entitlements(_ before: CompiledEnvironment?, _ after: CompiledEnvironment?, _ context: Context)
        -> [LinkChange]
    {
        var changes: [LinkChange] = []
        var names = (after?.iosApps ?? []).map(\.name)
        names += (before?.iosApps ?? []).map(\.name).filter { !names.contains($0) }
        for name in names {
            let old = before?.iosApps.first { $0.name == name }
            let new = after?.iosApps.first { $0.name == name }
            let oldEntries = old?.associatedDomains ?? []
            let newEntries = new?.associatedDomains ?? []
            guard oldEntries != newEntries else { continue }
            let (oldSet, newSet) = (Set(oldEntries), Set(newEntries))
            let location = context.headConfiguration?.app(named: name)?.ios?.location
            let app = new?.appID ?? old?.appID
            for entry in newEntries where !oldSet.contains(entry) {
                changes.append(
                    LinkChange(
                        kind: .entitlementAdded, environment: context.environment, platform: .ios, app: app,
                        after: entry,
                        location: location))
            }
            for entry in oldEntries where !newSet.contains(entry) {
                changes.append(
                    LinkChange(
                        kind: .entitlementRemoved, environment: context.environment, platform: .ios, app: app,
                        before: entry,
                        location: location ?? context.baseConfiguration?.app(named: name)?.ios?.location,
                        side: location == nil ? .base : .head))
            }
        }
        return changes
    }

    // MARK: Rules

    /// The rules each app sees on each host, compared as sequences.
    /// The rule changes between the sequences of each side (`ComparedRevision.ruleSequences`),
    /// each pair of lists compared once in `diffed`.
    static func rules(old: RuleSequences, new: RuleSequences, _ context: Context, diffed: inout DiffedLists)
        -> [LinkChange]
    {
        var changes: [LinkChange] = []
        // Only keys both sides read have rules to compare. A revision seldom adds or drops a
        // host or app, so the old side's key at the same position is nearly always the same:
        // looking each key up by hash cost more than diffing the lists (`DiffedLists`).
        for (position, key) in new.order.enumerated() {
            let samePosition = position < old.order.count && old.order[position] == key
            guard let oldList = samePosition ? old.listAt[position] : old.list(of: key) else { continue }
            let oldRules = old.lists[oldList]
            let newRules = new.lists[new.listAt[position]]
            // A whole app appearing or disappearing is reported once, as app_added/app_removed.
            guard !oldRules.isEmpty && !newRules.isEmpty else { continue }
            changes += diffed.edits(from: oldRules, to: newRules).map { edit in
                LinkChange(
                    kind: edit.kind, environment: context.environment, host: key.host, platform: key.platform,
                    app: key.app,
                    before: edit.before?.description, after: edit.after?.description,
                    location: (edit.after ?? edit.before)?.origin, side: edit.after == nil ? .base : .head)
            }
        }
        return changes
    }
}

/// The edits between pairs of rule lists, each pair compared once. The hosts of a domain, the
/// apps of one entry and the environments resolving a domain alike read lists made from the
/// same files, which share storage (`SharedRuleLists`): a pair is known by its lists' storage.
/// A changelog over 100 revisions of an 800-rule domain compared the same lists, equal up to a
/// rule or two, a dozen times per revision. The lists are held, so no other list takes their
/// storage while the pair is known.
struct DiffedLists {
    private struct Pair: Hashable {
        let old: UnsafePointer<RuleSignature>?
        let new: UnsafePointer<RuleSignature>?
    }

    private var known: [Pair: (old: [RuleSignature], new: [RuleSignature], edits: [SequenceDiff.Edit])] = [:]

    /// `SequenceDiff.changes(from: old, to: new)`, none for equal lists.
    mutating func edits(from old: [RuleSignature], to new: [RuleSignature]) -> [SequenceDiff.Edit] {
        // Closures, not key paths: a key path read through the runtime cost half a lookup.
        let pair = Pair(
            old: old.withUnsafeBufferPointer { $0.baseAddress }, new: new.withUnsafeBufferPointer { $0.baseAddress })
        // One list on both sides, as every domain a release leaves alone reads: no edits, told
        // without hashing the pair (an environment reads thousands).
        if pair.old == pair.new && old.count == new.count { return [] }
        if let found = known[pair] { return found.edits }
        let edits = old == new ? [] : SequenceDiff.changes(from: old, to: new)
        known[pair] = (old, new, edits)
        return edits
    }
}

/// The ordered rules of every (host, platform, app) of an environment. The sites of a domain
/// serve the same files (`CompiledSite.domain`), so their signatures are made once per domain and
/// their keys share one list, which `StructuralDiff.rules` diffs once: a fleet of 2,000 hosts
/// made and hashed each host's lists.
public struct RuleSequences: Sendable {
    struct Key: Hashable {
        var host: String
        /// `android` for both Android layers.
        var platform: Platform
        var app: String
        /// Android has two layers of rules: the manifest's intent-filter scope and dynamic rules.
        var manifest = false
    }

    /// The keys, in the order first met.
    private(set) var order: [Key] = []
    /// Per key of `order`, at its position, the index of its rules in `lists`.
    private(set) var listAt: [Int] = []
    /// Per key, its position in `order`.
    private var positionOfKey: [Key: Int] = [:]
    private(set) var lists: [[RuleSignature]] = []
    /// What the sequences were read from, for the next revision's to be made as an edit of
    /// them (`editing`): each site's file host and domain, in order; each domain's lists as
    /// its files gave them, its first site and the indexes of its lists in `lists`; each
    /// intent filter's app, hosts and scopes, in order, and the index of its scopes' list.
    private var sites: [(host: String, domain: String)] = []
    private var domains: [(site: Int, served: [(key: Key, signatures: [RuleSignature])], lists: [Int])] = []
    private var filters: [(package: String, hosts: [Host], scopes: [PathScope], list: Int)] = []
    /// Whether some key reads more than one list (two sites of one file host, or two intent
    /// filters of an app naming one host): its rules are then no domain's list.
    private var joinsLists = false

    /// The sequences of `environment`, each domain's lists taken from `shared` where made
    /// before from the same files.
    init(_ environment: CompiledEnvironment?, sharing shared: SharedRuleLists? = nil) {
        var domainLists: [String: [(key: Key, list: Int)]] = [:]
        let sites = environment?.sites ?? []
        let served = sites.indices.map { position in
            let site = sites[position]
            if let known = domainLists[site.domain] { return known }
            let read = shared.map { $0.lists(of: site, in: environment!.name) } ?? Self.lists(of: site)
            let served = read.map { (key: $0.key, list: add($0.signatures)) }
            domains.append((position, read, served.map(\.list)))
            domainLists[site.domain] = served
            return served
        }
        self.sites = sites.map { ($0.fileHost.name, $0.domain) }
        let filters = Self.filters(environment)
        // Sized once: growing the table hashed every key's host and app again at each step.
        positionOfKey.reserveCapacity(served.reduce(0) { $0 + $1.count } + filters.reduce(0) { $0 + $1.hosts.count })
        for (site, served) in zip(sites, served) {
            for (key, list) in served {
                var key = key
                key.host = site.fileHost.name
                append(key, list)
            }
        }
        for (package, hosts, scopes) in filters {
            let list = add(scopes.map(RuleSignature.init))
            self.filters.append((package, hosts, scopes, list))
            for host in hosts {
                append(Key(host: host.fileHost.name, platform: .android, app: package, manifest: true), list)
            }
        }
    }

    /// Each intent filter of each app of `environment`, in order: the manifest's keys and scopes.
    private static func filters(_ environment: CompiledEnvironment?) -> [(
        package: String, hosts: [Host], scopes: [PathScope]
    )] {
        (environment?.androidApps ?? []).flatMap { app in
            app.intentFilters.map { (app.package, $0.hosts, $0.scopes) }
        }
    }

    /// The sequences `read` gives, in order: each list read by its key after whatever the key
    /// reads already.
    init(reading read: [(key: Key, signatures: [RuleSignature])]) {
        positionOfKey.reserveCapacity(read.count)
        for (key, signatures) in read { append(key, add(signatures)) }
    }

    /// The sequences of `environment` made as an edit of these, read from an earlier revision
    /// of it: where it has the same sites, domains, apps and intent filter hosts in the same
    /// order, its keys are these in the same order, and only the lists of the domains it serves
    /// other files for, and of the filters whose scopes changed, are taken anew (a changelog's
    /// revision edits a few of a fleet's domains, and hashed every key of every site again).
    /// `nil` where it has not, or where a domain's files give other keys or a key reads
    /// several lists.
    func editing(_ environment: CompiledEnvironment, sharing shared: SharedRuleLists) -> RuleSequences? {
        let filters = Self.filters(environment)
        guard !joinsLists, sites.count == environment.sites.count,
            zip(sites, environment.sites).allSatisfy({ $0.host == $1.fileHost.name && $0.domain == $1.domain }),
            self.filters.count == filters.count,
            zip(self.filters, filters).allSatisfy({ $0.package == $1.package && $0.hosts == $1.hosts })
        else { return nil }
        var edited = self
        for (index, filter) in filters.enumerated() {
            guard !Self.spelledAlike(self.filters[index].scopes, filter.scopes) else { continue }
            edited.lists[self.filters[index].list] = filter.scopes.map(RuleSignature.init)
            edited.filters[index].scopes = filter.scopes
        }
        for (index, domain) in domains.enumerated() {
            let served = shared.lists(of: environment.sites[domain.site], in: environment.name)
            guard !SignedFiles.sameStorage(served, domain.served) else { continue }
            guard served.count == domain.served.count,
                zip(served, domain.served).allSatisfy({ $0.key == $1.key })
            else { return nil }
            for (list, read) in zip(domain.lists, served) { edited.lists[list] = read.signatures }
            edited.domains[index].served = served
        }
        return edited
    }

    /// Whether two filters' scopes are the same, spelt alike (`ExactText`) as their signatures
    /// are written.
    private static func spelledAlike(_ one: [PathScope], _ other: [PathScope]) -> Bool {
        one.count == other.count
            && zip(one, other).allSatisfy { scopes in
                switch scopes {
                case (.path(let one), .path(let other)), (.prefix(let one), .prefix(let other)),
                    (.pattern(let one), .pattern(let other)):
                    ExactText.equal(one, other)
                default: false
                }
            }
    }

    /// The index in `lists` of the rules `key` reads; nil for a key the environment has not.
    func list(of key: Key) -> Int? { positionOfKey[key].map { listAt[$0] } }

    /// The lists one site's files give each platform and app (the key's host left empty), in
    /// the order of the files.
    static func lists(of site: CompiledSite) -> [(key: Key, signatures: [RuleSignature])] {
        SignedFiles(site, editing: nil).lists
    }

    /// One site's files signed (`RuleSignature`): each `details` entry's signatures and each
    /// statement's, and the lists they give each platform and app (the key's host left empty),
    /// in the order of the files. Signed as an edit of an earlier revision's files, where
    /// given: a changelog's revisions change a rule or a few of hundreds, so the rules the
    /// same entry or statement begins and ends with on both sides, compared in place and
    /// exactly but for where they are written, take the earlier signatures, with their own
    /// origin; only the rules between are signed anew. An entry or statement whose rules are
    /// the very array another environment's files signed (`sharing`; environments resolving a
    /// domain alike share its translations, `RuleTranslations`) takes those signatures whole.
    struct SignedFiles: Sendable {
        var aasa: AASADocument?
        var assetLinks: AssetLinksDocument?
        /// Per `applinks.details` entry, its components' signatures (empty without components).
        var details: [[RuleSignature]] = []
        /// Per `assetlinks.json` statement, its dynamic components' signatures.
        var statements: [[RuleSignature]] = []
        var lists: [(key: Key, signatures: [RuleSignature])] = []

        init(_ site: CompiledSite, editing earlier: SignedFiles?, sharing other: SignedFiles? = nil) {
            (aasa, assetLinks) = (site.aasa, site.assetLinks)
            var read: [(key: Key, signatures: [RuleSignature])] = []
            if let applinks = site.aasa?.applinks {
                let earlierApplinks = earlier?.aasa?.applinks
                for (index, entry) in applinks.details.enumerated() {
                    // A component's signature reads the entry's and the file's defaults too.
                    let template = earlierApplinks.flatMap { earlierApplinks -> Template<AASAComponent>? in
                        guard index < earlierApplinks.details.count, earlierApplinks.defaults == applinks.defaults,
                            earlierApplinks.details[index].defaults == entry.defaults
                        else { return nil }
                        return Template(
                            items: earlierApplinks.details[index].components ?? [],
                            signatures: earlier!.details[index])
                    }
                    // The same components under the same defaults sign alike.
                    let shared = other.flatMap { other -> [RuleSignature]? in
                        guard let otherApplinks = other.aasa?.applinks, index < otherApplinks.details.count,
                            index < other.details.count, otherApplinks.defaults == applinks.defaults,
                            otherApplinks.details[index].defaults == entry.defaults,
                            Self.sameStorage(entry.components, otherApplinks.details[index].components)
                        else { return nil }
                        return other.details[index]
                    }
                    let signed =
                        shared
                        ?? Self.signatures(of: entry.components ?? [], editing: template) {
                            RuleSignature(component: $0, details: entry, defaults: applinks.defaults)
                        }
                    details.append(signed)
                    // iOS 13+ ignores `paths` when `components` is present (WWDC19 session 717).
                    let signatures =
                        entry.components == nil ? (entry.paths ?? []).map(RuleSignature.init(legacyPath:)) : signed
                    for appID in entry.effectiveAppIDs {
                        read.append((Key(host: "", platform: .ios, app: appID), signatures))
                    }
                }
            }
            for (index, statement) in (site.assetLinks?.statements ?? []).enumerated() {
                let template = earlier.flatMap { earlier -> Template<DynamicComponent>? in
                    guard let statements = earlier.assetLinks?.statements, index < statements.count else { return nil }
                    return Template(
                        items: statements[index].dynamicComponents ?? [], signatures: earlier.statements[index])
                }
                let shared = other.flatMap { other -> [RuleSignature]? in
                    guard let statements = other.assetLinks?.statements, index < statements.count,
                        index < other.statements.count,
                        Self.sameStorage(statement.dynamicComponents, statements[index].dynamicComponents)
                    else { return nil }
                    return other.statements[index]
                }
                let signed =
                    shared
                    ?? Self.signatures(of: statement.dynamicComponents ?? [], editing: template) { RuleSignature($0) }
                self.statements.append(signed)
                guard case .androidApp(let package, _) = statement.target, statement.dynamicComponents != nil else {
                    continue
                }
                read.append((Key(host: "", platform: .android, app: package), signed))
            }
            let files = RuleSequences(reading: read)
            lists = zip(files.order, files.listAt).map { key, list in (key, files.lists[list]) }
        }

        /// Whether `one` and `other` are one array's storage (not merely equal): the rules the
        /// environments resolving a domain alike share.
        static func sameStorage<Item>(_ one: [Item]?, _ other: [Item]?) -> Bool {
            guard let one, let other, !one.isEmpty, one.count == other.count else { return false }
            return one.withUnsafeBufferPointer { one in
                other.withUnsafeBufferPointer { one.baseAddress == $0.baseAddress }
            }
        }

        /// Earlier rules and their signatures.
        struct Template<Item> {
            var items: [Item]
            var signatures: [RuleSignature]
        }

        /// The signatures of `items`: those of the items `earlier` begins and ends with alike
        /// (`sameButWhere`) taken from it with the new origin, the others made by `sign`.
        static func signatures<Item: Locatable>(
            of items: [Item], editing earlier: Template<Item>?, sign: (Item) -> RuleSignature
        ) -> [RuleSignature] {
            guard let earlier, earlier.items.count == earlier.signatures.count, !items.isEmpty else {
                return items.map(sign)
            }
            // Compared by position: a rule carried from the earlier revision holds its very
            // texts, told at once in place (`sameBitsButWhere`); the others are compared.
            let kept = RuleListEdit.keptPositions(items, from: earlier.items) {
                Item.sameBitsButWhere($0, $1) || $0.pointee.sameButWhere($1.pointee)
            }
            return items.indices.map { index in
                guard let position = kept[index] else { return sign(items[index]) }
                var signature = earlier.signatures[position]
                signature.origin = items[index].origin
                return signature
            }
        }
    }

    /// The index of a new list of `signatures`.
    private mutating func add(_ signatures: [RuleSignature]) -> Int {
        lists.append(signatures)
        return lists.count - 1
    }

    /// `list` read by `key`, after whatever the key reads already.
    private mutating func append(_ key: Key, _ list: Int) {
        // A new key, as nearly every one is, is hashed once; a known one is put back.
        guard let known = positionOfKey.updateValue(order.count, forKey: key) else {
            order.append(key)
            listAt.append(list)
            return
        }
        positionOfKey[key] = known
        listAt[known] = add(lists[listAt[known]] + lists[list])
        joinsLists = true
    }
}

/// Each domain's rule lists (`RuleSequences.SignedFiles`) by environment, kept across the
/// revisions of one `RevisionCache`: a changelog's revisions of a fleet's contract serve
/// the same files for every domain they did not change (one instance each,
/// `DomainCompilations`), so their lists need not be made again, and a domain they changed
/// is signed as an edit of its files signed last. Lists made from the same files share
/// storage, so the structural diff compares them at once.
final class SharedRuleLists: Sendable {
    /// A domain's files in one environment and their signing, made once: the pairs of a
    /// changelog are compared on several cores, and the first revisions each thread reads
    /// serve the same files, which each signed whole while none was kept.
    private struct Signing: Sendable {
        let aasa: AASADocument?
        let assetLinks: AssetLinksDocument?
        /// The files signed last before these, when signed.
        let earlier: RuleSequences.SignedFiles?
        let signed = Once<RuleSequences.SignedFiles>()
    }

    private let made = RecentVersions<String, Signing>()
    /// Per domain, its files signed last, in whichever environment: the next environment's
    /// files of the same revision share their rules' arrays.
    private let latest = LockedValue([String: RuleSequences.SignedFiles]())
    /// Per environment, its rule sequences made last, which the next revision's are an edit of.
    private let latestSequences = LockedValue([String: RuleSequences]())

    /// The rule sequences of `environment`, made as an edit of its sequences made last where
    /// they are one (`RuleSequences.editing`), else read whole.
    func sequences(of environment: CompiledEnvironment) -> RuleSequences {
        let earlier = latestSequences.withLock { $0[environment.name] }
        let made = earlier?.editing(environment, sharing: self) ?? RuleSequences(environment, sharing: self)
        latestSequences.withLock { $0[environment.name] = made }
        return made
    }

    func lists(of site: CompiledSite, in environment: String) -> [(key: RuleSequences.Key, signatures: [RuleSignature])]
    {
        let signing = made.newest(
            of: environment + "/" + site.domain, where: { $0.aasa == site.aasa && $0.assetLinks == site.assetLinks },
            orKeep: { versions in
                Signing(
                    aasa: site.aasa, assetLinks: site.assetLinks, earlier: versions.compactMap { $0.signed.made }.last)
            })
        return signing.signed.value {
            let signed = RuleSequences.SignedFiles(
                site, editing: signing.earlier, sharing: latest.withLock { $0[site.domain] })
            latest.withLock { $0[site.domain] = signed }
            return signed
        }.lists
    }
}

/// A rule reduced to what it means, so equal meanings compare equal whatever their spelling.
struct RuleSignature: Hashable, CustomStringConvertible {
    var text: String
    /// The path pattern alone, to recognise a rule that changed in place.
    var path: String
    var origin: SourceLocation?

    static func == (lhs: RuleSignature, rhs: RuleSignature) -> Bool { lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    var description: String { text }

    init(component: AASAComponent, details: AASADetails, defaults: AASAComponent?) {
        path = component.path ?? "*"
        let departures = component.flags.effective(inheriting: [details.defaults?.flags, defaults?.flags]).departures
        text = RuleLabel(
            path: path, query: component.query?.label(sortingItems: true), fragment: component.fragment,
            notes: (component.exclude == true ? ["exclude"] : []) + departures.map(\.departure)
        ).text()
        origin = component.origin
    }

    init(_ dynamic: DynamicComponent) {
        path = dynamic.path ?? "*"
        text = RuleLabel(
            path: path, query: dynamic.query.map(RuleLabel.sortedItems), fragment: dynamic.fragment,
            notes: dynamic.exclude ? ["exclude"] : []
        ).text()
        origin = dynamic.origin
    }

    /// A legacy `paths` entry: `NOT ` excludes; it compares the path only.
    init(legacyPath: String) {
        let excluded = legacyPath.hasPrefix("NOT ")
        path = excluded ? String(legacyPath.dropFirst(4)) : legacyPath
        text = path + (excluded ? " (exclude)" : "")
        origin = nil
    }

    init(_ scope: PathScope) {
        text = scope.attribute
        path = text
        origin = nil
    }
}

/// Edits between two rule sequences: a longest common subsequence keeps what stayed in order;
/// of the rest, a rule present on both sides moved, a removal and an addition of the same path
/// at the same place changed, and the others were added or removed.
enum SequenceDiff {
    struct Edit {
        var kind: LinkChange.Kind
        var before: RuleSignature?
        var after: RuleSignature?
    }

    static func changes(from old: [RuleSignature], to new: [RuleSignature]) -> [Edit] {
        let kept = longestCommonSubsequence(old, new)
        var removed = old.indices.filter { !kept.old[$0] }.map { old[$0] }
        let added = new.indices.filter { !kept.new[$0] }.map { new[$0] }
        var edits: [Edit] = []
        for rule in added {
            if let index = removed.firstIndex(of: rule) {
                removed.remove(at: index)
                edits.append(Edit(kind: .ruleMoved, before: rule, after: rule))
            } else if let index = removed.firstIndex(where: { $0.path == rule.path }) {
                edits.append(Edit(kind: .ruleChanged, before: removed.remove(at: index), after: rule))
            } else {
                edits.append(Edit(kind: .ruleAdded, after: rule))
            }
        }
        edits += removed.map { Edit(kind: .ruleRemoved, before: $0) }
        return edits
    }

    /// Whether each rule of either side is in a longest common subsequence. The common prefix
    /// and suffix are kept as they are (as `git diff` does; some longest subsequence always keeps
    /// them) and dynamic programming runs on what lies between: a commit usually touches a few
    /// rules of hundreds, so the answer is a flag per rule rather than a set of hundreds of
    /// indexes hashed.
    static func longestCommonSubsequence(_ a: [RuleSignature], _ b: [RuleSignature]) -> (old: [Bool], new: [Bool]) {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
            && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        {
            suffix += 1
        }
        var old = Array(repeating: true, count: a.count)
        var new = Array(repeating: true, count: b.count)
        for index in prefix..<(a.count - suffix) { old[index] = false }
        for index in prefix..<(b.count - suffix) { new[index] = false }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        let (keptA, keptB) = middleSubsequence(middleA, middleB)
        for index in keptA { old[index + prefix] = true }
        for index in keptB { new[index + prefix] = true }
        return (old, new)
    }

    /// Dynamic programming over what differs.
    private static func middleSubsequence(_ a: [RuleSignature], _ b: [RuleSignature]) -> (old: [Int], new: [Int]) {
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var old: [Int] = []
        var new: [Int] = []
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                old.append(i)
                new.append(j)
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return (old, new)
    }
}
