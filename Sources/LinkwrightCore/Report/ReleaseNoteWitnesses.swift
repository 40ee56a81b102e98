/// Examples in release notes that read like the rules' own URLs: the proof's shortest witness
/// (`/callbackx/y`) is exact but made up, so each behaviour change is shown first with a URL
/// written from a rule of the host ([ReadableURLs]), the rule the change points at tried first,
/// when one shows the same change on both sides as devices decide it, and reaches the same
/// destination of the app's router; the change's route is then the readable URL's.
public enum ReleaseNoteWitnesses {
    public static func readable(_ changes: [LinkChange], base: (any ComparedRevision)?, head: any ComparedRevision)
        -> [LinkChange]
    {
        guard let base else { return changes }
        let routes = (old: base.configuration.routesByRule, new: head.configuration.routesByRule)
        // The rules' URLs, once per environment and the domains serving a host on each side:
        // a release changes many URLs of one host, and a domain's hosts serve the same files
        // (`CompiledSite.domain`).
        var books: [[String?]: RuleURLBook] = [:]
        let texts = RuleTexts()
        // Each environment's sites by host, found once: a fleet has thousands.
        var lookups: [String: (before: SiteLookup, after: SiteLookup)] = [:]
        // The host names each environment binds on either side, found once, and only for a
        // wildcard host: another stands for itself (`URLSamples.host(for:avoiding:)`).
        var bound: [String: Set<String>] = [:]
        func concreteHost(_ host: Host, before: CompiledEnvironment, after: CompiledEnvironment) -> String {
            guard host.isWildcard else { return host.name }
            let names = bound[after.name] ?? before.boundHostNames.union(after.boundHostNames)
            bound[after.name] = names
            return URLSamples.host(for: host, avoiding: names)
        }
        // The changes' hosts as configured, parsed once each.
        var parsedHosts: [String: Host?] = [:]
        func parse(_ configured: String) -> Host? {
            let host = try? Host.parse(configured).get()
            parsedHosts[configured] = host
            return host
        }
        // Each URL is decided once per side, each file's decision shared with the hosts and
        // environments whose apps read the same rules: a rule's URL shows its change on every
        // host and environment serving the rule.
        let shared = SharedFileDecisions()
        var hosts: [HostKey: SharedHostDecisions] = [:]
        // Hosts whose apps decide alike (`AlikeKey`) show a change with the same URL, on their
        // own host, and look through one list of differing URLs: a domain's hosts mostly do.
        var alikeKeys: [HostKey: AlikeKey?] = [:]
        var differing: [DifferingKey: DifferingURLs] = [:]
        var shownAlike: [ShownKey: (url: LinkURL, route: Destinations)?] = [:]
        func alikeKey(_ hostKey: HostKey, book: [String?], _ decisions: SharedHostDecisions) -> AlikeKey? {
            guard Caching.isEnabled else { return nil }
            if let known = alikeKeys[hostKey] { return known }
            let key = decisions.decidingKeys().map { AlikeKey(book: book, platform: hostKey.platform, deciding: $0) }
            alikeKeys[hostKey] = .some(key)
            return key
        }
        func differingURLs(_ hostKey: HostKey, _ alike: AlikeKey?, _ book: RuleURLBook) -> DifferingURLs {
            guard Caching.isEnabled else { return DifferingURLs(book) }
            let key = alike.map(DifferingKey.alike) ?? .host(hostKey)
            if let known = differing[key] { return known }
            let urls = DifferingURLs(book)
            differing[key] = urls
            return urls
        }
        return changes.map { change in
            guard change.kind.isBehaviour, let configured = change.host, let platform = change.platform,
                let host = parsedHosts[configured] ?? parse(configured),
                let after = head.compiled.environments.first(where: { $0.name == change.environment }),
                let before = base.compiled.environments.first(where: { $0.name == change.environment })
            else { return change }
            guard let old = base.evaluator(before.name), let new = head.evaluator(after.name) else { return change }
            let lookup = lookups[change.environment] ?? (SiteLookup(before), SiteLookup(after))
            lookups[change.environment] = lookup
            let concrete = concreteHost(host, before: before, after: after)
            let sites = [lookup.after.site(serving: concrete), lookup.before.site(serving: concrete)]
            let key = [change.environment] + sites.map { $0?.domain }
            let book = books[key] ?? RuleURLBook(sites.compactMap { $0 }, sharing: texts)
            books[key] = book
            let hostKey = HostKey(environment: change.environment, host: concrete, platform: platform)
            let decisions =
                hosts[hostKey]
                ?? SharedHostDecisions(host: concrete, platform: platform, old: old, new: new, sharing: shared)
            hosts[hostKey] = decisions
            let decide = { (written: String) -> DecidedURL? in
                guard let url = LinkURL(written)?.on(host: concrete) else { return nil }
                return DecidedURL(
                    url: url,
                    verdicts: (
                        before: decisions.verdicts(url, onNewSide: false),
                        after: decisions.verdicts(url, onNewSide: true)
                    ))
            }
            func illustrate(_ decided: DecidedURL) -> (url: LinkURL, route: Destinations)? {
                guard shows(change, decided.verdicts) else { return nil }
                let route = route(change, at: decided.url, decided.verdicts, routes)
                return reachesTheSameDestination(change, route) ? (decided.url, route) : nil
            }
            let alike = alikeKey(hostKey, book: key, decisions)
            let shownKey = alike.map { ShownKey(alike: $0, change) }
            let readable: (url: LinkURL, route: Destinations)?
            if let shownKey, let known = shownAlike[shownKey] {
                readable = known
            } else {
                // The change's own rules first; then the book's URLs in order, of which only
                // those some app decides differently on the two sides can show it, found once
                // for the hosts deciding alike.
                var found = book.firstOwn(at: change.location) { decide($0).flatMap(illustrate) }
                if found == nil { found = differingURLs(hostKey, alike, book).first(decide, illustrate) }
                if let shownKey { shownAlike[shownKey] = .some(found) }
                readable = found
            }
            guard let readable else { return change }
            var improved = change
            // Found on a host deciding alike, perhaps another.
            let url = readable.url.on(host: concrete)
            improved.witnesses = Array(([url.description] + change.witnesses).uniqued().prefix(5))
            (improved.routeBefore, improved.routeAfter) = readable.route
            return improved
        }
    }

    /// A host of an environment on one platform, whose URLs are decided alike.
    private struct HostKey: Hashable {
        var environment: String
        var host: String
        var platform: Platform
    }

    /// Hosts of one environment and platform whose domains' files make the same book and whose
    /// apps decide alike on each side (`SharedHostDecisions.decidingKeys`): on each of them the
    /// same apps open a written URL on each side, through the same rule, so the same URLs show
    /// a change, reaching the same routes.
    private struct AlikeKey: Hashable {
        var book: [String?]
        var platform: Platform
        var deciding: SharedHostDecisions.DecidingKeys
    }

    /// Whose differing URLs a list holds: the hosts deciding alike, or one host where its apps
    /// decide through a file whose decisions are not shared.
    private enum DifferingKey: Hashable {
        case alike(AlikeKey)
        case host(HostKey)
    }

    /// A change on the hosts of an `AlikeKey`: everything that tells which URL shows it but the
    /// host (`shows`, `route`, `reachesTheSameDestination`, the rules at its location).
    private struct ShownKey: Hashable {
        var alike: AlikeKey
        var kind: LinkChange.Kind
        var apps: [String?]
        var routes: [String?]
        var location: SourceLocation?

        init(alike: AlikeKey, _ change: LinkChange) {
            self.alike = alike
            kind = change.kind
            apps = [change.app, change.before, change.after]
            routes = [change.routeBefore, change.routeAfter]
            location = change.location
        }
    }

    typealias Verdict = EnvironmentEvaluator.Verdict
    /// Where the app's router takes a URL on each side (`BehaviourDiff.route`).
    typealias Destinations = (before: String?, after: String?)

    /// The URLs written from each rule of some sites' files, in file order, each rule's written
    /// when first needed: a change is mostly shown by its own rule's, so a file of hundreds of
    /// rules is rarely written out whole.
    final class RuleURLBook {
        private let sites: [CompiledSite]
        /// Every rule of the sites' files in file order, by where to find it there (not a copy:
        /// a release's changes made a book per host, and copying each rule was most of it).
        private let rules: [Rule]
        /// Each rule's line (0 for none), to find a change's rules: a book serves a few changes,
        /// and a copy of every rule's origin would be made and freed for them.
        private let lines: [Int]
        private var written: [Int: [String]] = [:]

        private enum Rule {
            case component(site: Int, details: Int, component: Int)
            case legacyPath(site: Int, details: Int, path: Int)
            case dynamic(site: Int, statement: Int, component: Int)
        }

        private let texts: RuleTexts

        init(_ sites: [CompiledSite], sharing texts: RuleTexts) {
            self.texts = texts
            // Read by index, each rule's line alone, into storage made once: a pair's books
            // list thousands of rules, and copying each rule to read its origin, into arrays
            // grown as they filled, was most of making them.
            let count = sites.reduce(0) { count, site in
                count
                    + (site.aasa?.applinks?.details ?? []).reduce(0) {
                        $0 + ($1.components?.count ?? 0) + ($1.paths?.count ?? 0)
                    }
                    + (site.assetLinks?.statements ?? []).reduce(0) { $0 + ($1.dynamicComponents?.count ?? 0) }
            }
            var rules: [Rule] = []
            var lines: [Int] = []
            rules.reserveCapacity(count)
            lines.reserveCapacity(count)
            for site in sites.indices {
                if let details = sites[site].aasa?.applinks?.details {
                    for entry in details.indices {
                        if let components = details[entry].components {
                            for component in components.indices {
                                rules.append(.component(site: site, details: entry, component: component))
                                lines.append(components[component].origin?.line ?? 0)
                            }
                        }
                        for path in (details[entry].paths ?? []).indices {
                            rules.append(.legacyPath(site: site, details: entry, path: path))
                            lines.append(0)
                        }
                    }
                }
                if let statements = sites[site].assetLinks?.statements {
                    for statement in statements.indices {
                        guard let components = statements[statement].dynamicComponents else { continue }
                        for component in components.indices {
                            rules.append(.dynamic(site: site, statement: statement, component: component))
                            lines.append(components[component].origin?.line ?? 0)
                        }
                    }
                }
            }
            self.sites = sites
            self.rules = rules
            self.lines = lines
        }

        /// Where rule `index` was written.
        private func origin(_ index: Int) -> SourceLocation? {
            switch rules[index] {
            case .component(let site, let details, let position):
                sites[site].aasa!.applinks!.details[details].components![position].origin
            case .legacyPath: nil
            case .dynamic(let site, let statement, let position):
                sites[site].assetLinks!.statements[statement].dynamicComponents![position].origin
            }
        }

        /// What rule `index`'s readable URLs are written from.
        private func text(_ index: Int) -> RuleText {
            switch rules[index] {
            case .component(let site, let details, let position):
                let applinks = sites[site].aasa!.applinks!
                let component = applinks.details[details].components![position]
                return .component(
                    path: component.path.map(ExactText.init), query: component.query,
                    fragment: component.fragment.map(ExactText.init), variables: applinks.substitutionVariables)
            case .legacyPath(let site, let details, let position):
                let path = sites[site].aasa!.applinks!.details[details].paths![position]
                return .legacyPath(ExactText(path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path))
            case .dynamic(let site, let statement, let position):
                let component = sites[site].assetLinks!.statements[statement].dynamicComponents![position]
                return .dynamic(
                    path: component.path.map(ExactText.init), query: component.query,
                    fragment: component.fragment.map(ExactText.init))
            }
        }

        /// How many rules the book holds.
        var count: Int { rules.count }

        /// The readable URLs of rule `index`, written once for every book sharing `texts`.
        func urls(of index: Int) -> [String] {
            if let known = written[index] { return known }
            let urls = texts.urls(of: text(index))
            written[index] = urls
            return urls
        }

        /// The first URL of the rules written at `location`, each tried once in file order,
        /// that `accept` turns into a value.
        func firstOwn<Value>(at location: SourceLocation?, _ accept: (String) -> Value?) -> Value? {
            guard let location else { return nil }
            var tried: Set<String> = []
            // Found by line before the whole location is compared: a book holds every rule of
            // a domain's files, looked through once per change.
            for index in lines.indices where lines[index] == location.line && origin(index) == location {
                for url in urls(of: index) where tried.insert(url).inserted {
                    if let value = accept(url) { return value }
                }
            }
            return nil
        }
    }

    /// What a rule's readable URLs are written from: the same for a rule on both sides of a
    /// release and in every environment serving its domain.
    /// Texts compare exactly (`ExactText`): `/café` spelt NFC and NFD are written apart.
    enum RuleText: Hashable {
        case component(path: ExactText?, query: AASAQuery?, fragment: ExactText?, variables: [AASAVariable])
        /// A legacy `paths` entry without its `NOT `.
        case legacyPath(ExactText)
        case dynamic(path: ExactText?, query: [AASAQueryItem]?, fragment: ExactText?)
    }

    /// The readable URLs of rules by their text, written once for the books of a release: each
    /// rule is in a book for each side and environment.
    final class RuleTexts {
        private var written: [RuleText: [String]] = [:]

        /// The readable URLs of a rule with `text` (`ReadableURLs`).
        func urls(of text: RuleText) -> [String] {
            if let known = written[text] { return known }
            let urls: [String]
            switch text {
            case .component(let path, let query, let fragment, let variables):
                let pattern: QueryPattern? =
                    switch query {
                    case .whole(let pattern): .whole(pattern)
                    case .items(let items): .items(items.map(queryItem))
                    case .ignoredDictionary, nil: nil
                    }
                urls = ReadableURLs.candidates(
                    path: path?.text, query: pattern, fragment: fragment?.text, variables: variables)
            case .legacyPath(let pattern):
                urls = ReadableURLs.candidates(path: pattern.text, query: nil, fragment: nil, variables: [])
            case .dynamic(let path, let query, let fragment):
                urls = ReadableURLs.candidates(
                    path: path?.text, query: query.map { .items($0.map(queryItem)) }, fragment: fragment?.text,
                    variables: [])
            }
            written[text] = urls
            return urls
        }
    }

    /// A rule's URL on a host, with every app's verdict on each side.
    struct DecidedURL {
        var url: LinkURL
        var verdicts: (before: [Verdict], after: [Verdict])
    }

    /// The URLs of a book, in file order and each once, that some app decides differently on
    /// the two sides, with their verdicts on one of the hosts deciding alike (`AlikeKey`). Only
    /// such a URL can show a change (`shows`), so the changes of these hosts that look past their
    /// own rules look through these, and each URL of the book is decided once for the hosts, not
    /// once for each change and host (in a release of a few edits to a thousand-rule file, each
    /// change decided every rule's URLs; docs/performance.md). The book is read a rule at a time,
    /// only as far as a change needs.
    final class DifferingURLs {
        private let book: RuleURLBook
        private var found: [DecidedURL] = []
        /// The next rule of the book to read.
        private var next = 0
        private var seen: Set<String> = []

        init(_ book: RuleURLBook) { self.book = book }

        /// The first of these URLs, in the book's order, that `accept` turns into a value;
        /// `decide` gives a written URL's verdicts (nil: no URL on the host).
        func first<Value>(_ decide: (String) -> DecidedURL?, _ accept: (DecidedURL) -> Value?) -> Value? {
            if let value = found.lazy.compactMap(accept).first { return value }
            while next < book.count {
                let known = found.count
                for written in book.urls(of: next) where seen.insert(written).inserted {
                    if let decided = decide(written), differs(decided.verdicts) { found.append(decided) }
                }
                next += 1
                if let value = found[known...].lazy.compactMap(accept).first { return value }
            }
            return nil
        }
    }

    static func queryItem(_ item: AASAQueryItem) -> QueryItemPattern {
        QueryItemPattern(name: item.name, pattern: item.pattern, location: .file(""))
    }

    /// Where the app's router takes `url` on each side of a gained, lost or moved link that
    /// opens it, as the behaviour diff words it (`BehaviourDiff.route`), from the verdicts of
    /// both sides; other changes keep theirs.
    static func route(
        _ change: LinkChange, at url: LinkURL, _ verdicts: (before: [Verdict], after: [Verdict]),
        _ routes: (old: [SourceLocation: Route], new: [SourceLocation: Route])
    ) -> Destinations {
        func decided(_ verdicts: [Verdict], _ routes: [SourceLocation: Route], for app: String?) -> String? {
            BehaviourDiff.route(of: verdicts.first { $0.identity == app }, routes, url)
        }
        switch change.kind {
        case .opensApp: return (nil, decided(verdicts.after, routes.new, for: change.app))
        case .opensWeb: return (decided(verdicts.before, routes.old, for: change.app), nil)
        case .changesApp:
            return (
                decided(verdicts.before, routes.old, for: change.before),
                decided(verdicts.after, routes.new, for: change.after)
            )
        default: return (change.routeBefore, change.routeAfter)
        }
    }

    /// Whether `route` names the change's destinations (arguments aside): a readable URL that
    /// reaches another screen would not illustrate the sentence.
    static func reachesTheSameDestination(_ change: LinkChange, _ route: Destinations) -> Bool {
        BehaviourDiff.destination(route.before) == BehaviourDiff.destination(change.routeBefore)
            && BehaviourDiff.destination(route.after) == BehaviourDiff.destination(change.routeAfter)
    }

    /// Whether some app opens the URL on one side only: `shows` holds for no change otherwise.
    /// Asked of every URL a host's changes look through, so it builds no arrays.
    static func differs(_ verdicts: (before: [Verdict], after: [Verdict])) -> Bool {
        func opensOnly(_ side: [Verdict], notOn other: [Verdict]) -> Bool {
            side.contains { verdict in
                verdict.opens && !other.contains { $0.opens && $0.identity == verdict.identity }
            }
        }
        return opensOnly(verdicts.after, notOn: verdicts.before) || opensOnly(verdicts.before, notOn: verdicts.after)
    }

    /// Whether the two sides' verdicts on a URL decide it for the change's apps as the change says.
    static func shows(_ change: LinkChange, _ verdicts: (before: [Verdict], after: [Verdict])) -> Bool {
        let before = verdicts.before.filter(\.opens).map(\.identity)
        let after = verdicts.after.filter(\.opens).map(\.identity)
        let gained = after.filter { !before.contains($0) }
        let lost = before.filter { !after.contains($0) }
        switch change.kind {
        case .opensApp: return lost.isEmpty && change.app.map(gained.contains) == true
        case .opensWeb: return gained.isEmpty && change.app.map(lost.contains) == true
        case .changesApp:
            return change.after.map(gained.contains) == true && change.before.map(lost.contains) == true
        default: return false
        }
    }
}
