/// Which URLs change what they open between two compiled configurations.
///
/// For every environment on both sides, every host served on one side only and every host served
/// on both whose files or claims may have changed (`affectedHosts`), and each platform, `BehaviourProof` finds every way the two
/// sides decide some URL differently, with a shortest URL for each, or says which rule pairs it
/// could not settle within its budget. Every witness is decided again on both sides as devices
/// decide it (`EnvironmentEvaluator`) before it is reported, so a difference shown is real.
public enum BehaviourDiff {
    /// The decision lists of both sides on one platform, by their rules and not the apps they
    /// are for: lists with equal keys get the same proof, its apps renamed. Hosts of a domain
    /// share one, and so do environments serving the same rules to other apps (staging's).
    private struct ProofKey: Hashable {
        var platform: Platform
        var old: [HashedKey<[DecisionList.SignedRule]>]
        var new: [HashedKey<[DecisionList.SignedRule]>]
        /// For each list, the base's then the head's, the position of the first list of the same
        /// app: which lists are one app's must agree too.
        var sameApp: [Int]

        init(platform: Platform, old: [DecisionList], new: [DecisionList]) {
            self.platform = platform
            self.old = old.map(\.rulesSignature)
            self.new = new.map(\.rulesSignature)
            let identities = (old + new).map(\.identity)
            sameApp = identities.map { identities.firstIndex(of: $0)! }
        }
    }

    /// Two sides' decision lists of one platform to prove against each other.
    private struct ProofRequest: Sendable {
        var platform: Platform
        var old: [DecisionList]
        var new: [DecisionList]

        var key: ProofKey { ProofKey(platform: platform, old: old, new: new) }

        func prove(_ limits: ProofLimits, meter: WorkMeter) -> BehaviourProof.Result {
            BehaviourProof(limits: limits, includesEmptyPath: platform == .android).compare(
                old: old, new: new, meter: meter)
        }
    }

    /// The proofs of one comparison, each made once for lists with the same rules, with the
    /// apps each named.
    private struct Proofs: Sendable {
        private var proven: [ProofKey: (result: BehaviourProof.Result, identities: [String])] = [:]

        /// Proves `requests` as proving them one after another within one `limits.total` would,
        /// but on every core (`mapSharingBudget`).
        init(_ requests: [ProofRequest], limits: ProofLimits) {
            var seen: Set<ProofKey> = []
            let distinct = requests.map { (request: $0, key: $0.key) }.filter { seen.insert($0.key).inserted }
            let results = distinct.map(\.request).mapSharingBudget(total: limits.total) { $0.prove(limits, meter: $1) }
            for ((request, key), result) in zip(distinct, results) {
                proven[key] = (result, (request.old + request.new).map(\.identity))
            }
        }

        /// The proof of `request`'s lists, its apps named as there.
        func result(_ request: ProofRequest) -> BehaviourProof.Result {
            let known = proven[request.key]!
            let identities = (request.old + request.new).map(\.identity)
            guard known.identities != identities else { return known.result }
            let renamed = Dictionary(zip(known.identities, identities), uniquingKeysWith: { first, _ in first })
            var result = known.result
            for index in result.differences.indices {
                result.differences[index].identity = renamed[result.differences[index].identity]!
            }
            for index in result.unsettled.indices {
                result.unsettled[index].identity = renamed[result.unsettled[index].identity]!
            }
            return result
        }
    }

    /// Everything the diff found: the observations and what it could not settle.
    public struct Comparison: Sendable {
        public var observations: [Observation] = []
        public var unproven: [Unproven] = []
        /// Where the app's router takes URLs of custom schemes whose routes changed
        /// (`SchemeRouteDiff`): `changes_route` only, the scheme's URLs opening the app either way.
        public var schemeRouteChanges: [LinkChange] = []

        /// Every behaviour change: the observations' (`BehaviourDiff.changes(from:)`), then the
        /// schemes'.
        public var changes: [LinkChange] { BehaviourDiff.changes(from: observations) + schemeRouteChanges }
    }

    /// Every URL whose outcome differs for some app, on hosts served on either side.
    public static func observations(base: any ComparedRevision, head: any ComparedRevision) -> [Observation] {
        compare(base: base, head: head).observations
    }

    /// The observations and the rule pairs left unsettled within `limits`. The hosts and
    /// platforms to compare are listed first; their distinct proofs are made on every core
    /// (`Proofs`), then each host's witnesses are decided on every core and the findings joined
    /// in the order listed, the same as comparing them one after another.
    public static func compare(base: any ComparedRevision, head: any ComparedRevision, limits: ProofLimits = .standard)
        -> Comparison
    {
        var comparisons: [HostComparison] = []
        let shared = SharedFileDecisions()
        let routesByRule = (old: base.configuration.routesByRule, new: head.configuration.routesByRule)
        // Whether a domain's routes changed, by domain: every environment serving it asks.
        var routesChangedInDomain: [String: Bool] = [:]
        // The head's evaluators and lists are asked for before the base's: a changelog compares
        // consecutive pairs at once, and the base of one is the head of the pair before it, which
        // that pair's thread is making; asked first, it would be made twice.
        for after in head.compiled.environments {
            guard let before = base.compiled.environments.first(where: { $0.name == after.name }),
                let newEvaluator = head.evaluator(after.name), let oldEvaluator = base.evaluator(before.name)
            else { continue }
            // Older Android releases read some dynamic rules otherwise (`AndroidRelease`): both
            // sides as each decides, where its decision lists differ from the newest's.
            let olderReleases =
                before.androidApps.isEmpty && after.androidApps.isEmpty
                ? [] : AndroidRelease.allCases.filter { $0 != .latest }
            let releaseSides: [ReleaseSides] = olderReleases.compactMap { release in
                guard let new = head.evaluator(after.name, androidRelease: release),
                    let old = base.evaluator(before.name, androidRelease: release)
                else { return nil }
                return ReleaseSides(release: release, old: old, new: new)
            }
            let filesOrClaimsChanged = affectedHosts(before, after)
            // Routes change what the router does with URLs whose files stayed the same.
            let routesChanged = Set(
                after.sites.filter { site in
                    if let changed = routesChangedInDomain[site.domain] { return changed }
                    let changed =
                        RouteLabels.sequence(of: site.domain, in: base.configuration)
                        != RouteLabels.sequence(of: site.domain, in: head.configuration)
                    routesChangedInDomain[site.domain] = changed
                    return changed
                }.flatMap(\.servedHosts))
            let affected = { (host: Host) in filesOrClaimsChanged(host) || routesChanged.contains(host) }
            let mentioned = before.boundHostNames.union(after.boundHostNames)
            for host in comparedHosts(before, after, affected: affected) {
                let concrete = URLSamples.host(for: host, avoiding: mentioned)
                for platform in Platform.allCases {
                    guard let new = head.decisionLists(after.name, host: concrete, platform: platform),
                        let old = base.decisionLists(before.name, host: concrete, platform: platform)
                    else { continue }
                    let context = HostContext(
                        environment: after.name, host: host.name, concrete: concrete, platform: platform,
                        old: oldEvaluator, new: newEvaluator, routes: routesByRule, sharing: shared)
                    var releases: [ReleaseComparison] = []
                    // A release reading every rule of both sides as the newest does changes
                    // nothing of its own.
                    for sides in platform == .android ? releaseSides : []
                    where !(sides.old.decidesAndroidAsNewest && sides.new.decidesAndroidAsNewest) {
                        guard
                            let newLists = head.decisionLists(
                                after.name, androidRelease: sides.release, host: concrete, platform: platform),
                            let oldLists = base.decisionLists(
                                before.name, androidRelease: sides.release, host: concrete, platform: platform)
                        else { continue }
                        // The release reads both sides as the newest does: nothing of its own.
                        // (A release's lists are the same apps' in the same order.)
                        guard
                            oldLists.map(\.rulesSignature) != old.map(\.rulesSignature)
                                || newLists.map(\.rulesSignature) != new.map(\.rulesSignature)
                        else { continue }
                        releases.append(ReleaseComparison(sides: sides, old: oldLists, new: newLists))
                    }
                    comparisons.append(HostComparison(context: context, old: old, new: new, releases: releases))
                }
            }
        }
        let proofs = Proofs(comparisons.flatMap(\.requests), limits: limits)
        var comparison = Comparison()
        for found in comparisons.parallelMap({ $0.report(proofs) }) {
            comparison.observations += found.observations
            comparison.unproven += found.unproven
        }
        let schemes = SchemeRouteDiff.compare(base: base.snapshot, head: head.snapshot, limits: limits)
        comparison.schemeRouteChanges = schemes.changes
        comparison.unproven += schemes.unproven
        return comparison
    }

    /// One host and platform of an environment to compare: the newest release's lists of both
    /// sides, and those of each older release reading them otherwise.
    private struct HostComparison: Sendable {
        let context: HostContext
        let old: [DecisionList]
        let new: [DecisionList]
        let releases: [ReleaseComparison]

        /// The proofs its report reads, in the order they are reported.
        var requests: [ProofRequest] {
            let platform = context.platform
            return [ProofRequest(platform: platform, old: old, new: new)]
                + releases.flatMap { release in
                    [
                        ProofRequest(platform: platform, old: release.old, new: release.new),
                        ProofRequest(platform: platform, old: old, new: release.old),
                        ProofRequest(platform: platform, old: new, new: release.new),
                    ]
                }
        }

        func report(_ proofs: Proofs) -> Comparison {
            var comparison = Comparison()
            let platform = context.platform
            // Each context's sides decide a URL once: an older release's proofs meet the newest's
            // witnesses again, and its readings its own.
            var newestDecided: [WitnessText: DecidedURL] = [:]
            context.report(
                proofs.result(ProofRequest(platform: platform, old: old, new: new)), into: &comparison,
                decided: &newestDecided)
            for release in releases {
                let sides = release.sides
                // The router reads a URL alike on every release: a link only this release
                // gains or loses names its destination as the newest's do.
                let releaseContext = HostContext(
                    environment: context.environment, host: context.host, concrete: context.concrete,
                    platform: platform, old: sides.old, new: sides.new, routes: context.routes,
                    sharing: context.decisions.shared)
                var found = Comparison()
                var decided: [WitnessText: DecidedURL] = [:]
                releaseContext.report(
                    proofs.result(ProofRequest(platform: platform, old: release.old, new: release.new)), into: &found,
                    decided: &decided)
                // A change only this release makes can share its region with one both make,
                // whose witness is then the newest's: the URLs where the releases read either
                // side's rules differently are tried too.
                for (latestLists, ownLists) in [(old, release.old), (new, release.new)] {
                    let readings = proofs.result(ProofRequest(platform: platform, old: latestLists, new: ownLists))
                    found.observations += readings.differences.compactMap {
                        releaseContext.observation(
                            at: $0.witness.url(host: context.concrete), identity: $0.identity, decided: &decided)
                    }
                }
                var shown: Set<[String]> = []
                // Route changes are proven on the newest release's lists only.
                comparison.observations += found.observations.filter {
                    !$0.changesRoute && !context.changesAlike($0, decided: &newestDecided)
                        && shown.insert([$0.url, $0.identity]).inserted
                }.map { sides.labelled($0) }
                comparison.unproven += found.unproven.map { sides.labelled($0) }
            }
            return comparison
        }
    }

    /// An older Android release's lists of both sides for one host.
    private struct ReleaseComparison: Sendable {
        let sides: ReleaseSides
        let old: [DecisionList]
        let new: [DecisionList]
    }

    /// Both sides of one environment as an older Android release decides them.
    private struct ReleaseSides: Sendable {
        let release: AndroidRelease
        let old: EnvironmentEvaluator
        let new: EnvironmentEvaluator

        /// The observation of an app on this release, named so: `com.example.app (Android 15-initial)`.
        func labelled(_ observation: Observation) -> Observation {
            var observation = observation
            observation.identity += BehaviourDiff.label(release)
            observation.androidRelease = release
            return observation
        }

        func labelled(_ unproven: Unproven) -> Unproven {
            var unproven = unproven
            unproven.identity += BehaviourDiff.label(release)
            unproven.androidRelease = release
            return unproven
        }
    }

    /// Where the router takes `url` when `verdict`'s deciding rule names a route: the
    /// destination with its arguments, `none`, or why there is none.
    static func route(of verdict: EnvironmentEvaluator.Verdict?, _ routes: [SourceLocation: Route], _ url: LinkURL)
        -> String?
    {
        guard let origin = verdict?.decision.origin, let route = routes[origin] else { return nil }
        switch RouteResolver.resolve(route, url: url) {
        case .success(let value): return value.description
        case .failure(let problem): return LinkChange.unresolvedPrefix + problem.message + ")"
        }
    }

    /// A route's destination without its arguments: `ticket` for `ticket(id: 42)`.
    static func destination(_ route: String?) -> String? { route.map { String($0.prefix { $0 != "(" }) } }

    /// What an app's identity gets for a change only `release` makes.
    static func label(_ release: AndroidRelease) -> String { " (Android \(release.rawValue))" }

    /// One host and platform of one environment, where a proof's answer becomes observations.
    private struct HostContext: Sendable {
        let environment: String
        let host: String
        let concrete: String
        let platform: Platform
        /// Both sides' evaluators deciding `concrete`'s URLs, each file's decision shared with the
        /// contexts whose apps read the same rules (a URL on another host is decided alone).
        let decisions: SharedHostDecisions
        /// Each side's routes by rule, to tell where the app's router takes a witness.
        let routes: (old: [SourceLocation: Route], new: [SourceLocation: Route])

        init(
            environment: String, host: String, concrete: String, platform: Platform, old: EnvironmentEvaluator,
            new: EnvironmentEvaluator, routes: (old: [SourceLocation: Route], new: [SourceLocation: Route]),
            sharing shared: SharedFileDecisions
        ) {
            (self.environment, self.host, self.concrete, self.platform) = (environment, host, concrete, platform)
            self.routes = routes
            decisions = SharedHostDecisions(host: concrete, platform: platform, old: old, new: new, sharing: shared)
        }

        /// Every app's verdict on `url` on the side `old` or `new`.
        private func verdicts(_ url: LinkURL, onNewSide: Bool) -> [EnvironmentEvaluator.Verdict] {
            decisions.verdicts(url, onNewSide: onNewSide)
        }

        /// `url` decided on both sides for every app, once per URL in `decided`; nil for a URL
        /// that does not parse.
        func decide(_ url: String, decided: inout [WitnessText: DecidedURL]) -> DecidedURL? {
            let key = WitnessText(ExactText(url))
            if let known = decided[key] { return known }
            guard let parsed = LinkURL(url) else { return nil }
            return decideAnew(key, parsed, into: &decided)
        }

        /// `url`, parsed, decided on both sides for every app and kept in `decided`.
        private func decideAnew(_ url: WitnessText, _ parsed: LinkURL, into decided: inout [WitnessText: DecidedURL])
            -> DecidedURL
        {
            let verdicts = DecidedURL(
                parsed, before: self.verdicts(parsed, onNewSide: false), after: self.verdicts(parsed, onNewSide: true))
            decided[url] = verdicts
            return verdicts
        }

        func report(
            _ result: BehaviourProof.Result, into comparison: inout Comparison, decided: inout [WitnessText: DecidedURL]
        ) {
            var unproven = result.unsettled.map { unprovenRegion($0.identity, base: $0.base, head: $0.head) }
            // Observations go straight into `comparison` and are marked exhaustive there: each
            // copy of one retains a dozen strings, and a long diff makes tens of thousands.
            let first = comparison.observations.count
            var seen: Set<WitnessText> = []
            // Many regions share a witness (every app of a file added on `/x`): each URL is
            // decided once for every app, not once per region (apps × regions).
            // Shortest witnesses first, each URL written once rather than at every comparison.
            let differences = result.differences.map {
                (length: $0.witness.length, url: $0.witness.url(host: concrete), difference: $0)
            }.sorted { ($0.length, $0.url) < ($1.length, $1.url) }
            for (_, url, difference) in differences {
                // A witness is decided once its URL is read back as the proof wrote its path
                // (many differences share one URL: it is decided and parsed once).
                let key = WitnessText(ExactText(url))
                let known = decided[key]
                guard let parsed = known?.url ?? LinkURL(url), parsed.path == difference.witness.path else {
                    unproven.append(unprovenRegion(difference.identity, base: difference.base, head: difference.head))
                    continue
                }
                let verdicts = known ?? decideAnew(key, parsed, into: &decided)
                // The witness must decide as its region says; anything else is a fault of the
                // proof, reported as unsettled rather than as a difference nobody can reproduce.
                let opened = verdicts.opens(difference.identity, onNewSide: false)
                let opens = verdicts.opens(difference.identity, onNewSide: true)
                guard opened == (difference.base?.opens ?? false), opens == (difference.head?.opens ?? false) else {
                    unproven.append(unprovenRegion(difference.identity, base: difference.base, head: difference.head))
                    continue
                }
                guard seen.insert(key).inserted else { continue }
                for identity in verdicts.identities {
                    var observation = Observation(
                        environment: environment, host: host, platform: platform, identity: identity, url: url,
                        before: verdicts.before(identity), after: verdicts.after(identity))
                    route(&observation, at: parsed)
                    if observation.openedBefore && observation.opensAfter {
                        // Rules reading a parameter from elsewhere agree on the shortest URL when
                        // neither finds the value there: a URL holding the values shows it.
                        if !observation.changesRoute, identity == difference.identity,
                            let holding = routeWitness(around: parsed, identity: identity)
                        {
                            observation = holding
                        }
                    }
                    guard observation.openedBefore != observation.opensAfter || observation.changesRoute else {
                        continue
                    }
                    comparison.observations.append(consume observation)
                }
            }
            let exhaustive = unproven.isEmpty
            for position in first..<comparison.observations.count {
                comparison.observations[position].exhaustive = exhaustive
            }
            comparison.unproven += unproven
        }

        /// `url` with the path segments and query items the routes deciding it on either side
        /// read, when the app's router takes that URL to different places on the two sides: the
        /// route change a shortest witness cannot show. Sampled, not proven; checked like any
        /// witness.
        func routeWitness(around url: LinkURL, identity: String) -> Observation? {
            let verdicts = (
                self.verdicts(url, onNewSide: false).first { $0.identity == identity },
                self.verdicts(url, onNewSide: true).first { $0.identity == identity }
            )
            let parameters = [(verdicts.0, routes.old), (verdicts.1, routes.new)].flatMap { verdict, routes in
                verdict?.decision.origin.flatMap { routes[$0] }?.parameters ?? []
            }
            guard let candidate = url.holdingValues(of: parameters) else { return nil }
            var observation = Observation(
                environment: environment, host: host, platform: platform, identity: identity,
                url: candidate.description,
                before: self.verdicts(candidate, onNewSide: false).first { $0.identity == identity },
                after: self.verdicts(candidate, onNewSide: true).first { $0.identity == identity })
            guard observation.openedBefore && observation.opensAfter else { return nil }
            route(&observation, at: candidate)
            return observation.changesRoute ? observation : nil
        }

        /// Sets where the app's router takes `url` on each side of `observation` that opens it,
        /// in place (a copy of an observation retains each of its strings).
        func route(_ observation: inout Observation, at url: LinkURL) {
            if observation.openedBefore {
                observation.routeBefore = BehaviourDiff.route(of: observation.before, routes.old, url)
            }
            if observation.opensAfter {
                observation.routeAfter = BehaviourDiff.route(of: observation.after, routes.new, url)
            }
        }

        /// `url` for `identity` when this context's sides decide it differently, else `nil`.
        func observation(at url: String, identity: String, decided: inout [WitnessText: DecidedURL]) -> Observation? {
            guard let verdicts = decide(url, decided: &decided),
                verdicts.opens(identity, onNewSide: false) != verdicts.opens(identity, onNewSide: true)
            else { return nil }
            var observation = Observation(
                environment: environment, host: host, platform: platform, identity: identity, url: url,
                before: verdicts.before(identity), after: verdicts.after(identity))
            route(&observation, at: verdicts.url)
            return observation
        }

        /// Whether this context's sides change `observation`'s URL for its app the same way:
        /// an older release's change the newest shares is reported once, as the newest's.
        func changesAlike(_ observation: Observation, decided: inout [WitnessText: DecidedURL]) -> Bool {
            guard let verdicts = decide(observation.url, decided: &decided) else { return false }
            return verdicts.opens(observation.identity, onNewSide: false) == observation.openedBefore
                && verdicts.opens(observation.identity, onNewSide: true) == observation.opensAfter
        }

        private func unprovenRegion(_ identity: String, base: ProofRule?, head: ProofRule?) -> Unproven {
            Unproven(
                environment: environment, host: host, platform: platform, identity: identity, baseRule: base?.label,
                headRule: head?.label, location: head?.origin ?? base?.origin,
                side: head?.origin == nil && base?.origin != nil ? .base : .head,
                touchesExclusion: base?.isExclusion == true || head?.isExclusion == true)
        }
    }
}

/// A witness URL as its context's sides decided it and reported it, keyed exactly (`/café`
/// spelt NFC and NFD are two witnesses, decided apart) and hashed once: a witness is looked up,
/// kept and marked seen, and hashing its whole text for each cost more than the lookups.
private typealias WitnessText = HashedKey<ExactText>

/// One URL decided on both sides for every app, with each app's verdict found by identity.
private struct DecidedURL {
    typealias Verdict = EnvironmentEvaluator.Verdict
    /// The URL as parsed.
    let url: LinkURL
    /// Every identity deciding on either side: the head's in order, then the base's others.
    let identities: [String]
    /// Each side's verdicts, searched in place: an environment has a handful of apps, and a
    /// dictionary of them cost more to build than the few searches a witness makes.
    private let verdicts: (before: [Verdict], after: [Verdict])

    init(_ url: LinkURL, before: [Verdict], after: [Verdict]) {
        self.url = url
        identities = [after, before].joined().lazy.map(\.identity).uniqued()
        verdicts = (before, after)
    }

    /// The first verdict of `identity` on each side.
    func before(_ identity: String) -> Verdict? { verdicts.before.first { $0.identity == identity } }
    func after(_ identity: String) -> Verdict? { verdicts.after.first { $0.identity == identity } }

    /// Whether the first verdict of `identity` on the side opens the app (not without one),
    /// read in place.
    func opens(_ identity: String, onNewSide: Bool) -> Bool {
        let side = onNewSide ? verdicts.after : verdicts.before
        return side.firstIndex { $0.identity == identity }.map { side[$0].opens } ?? false
    }
}
