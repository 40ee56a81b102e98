/// Custom schemes in the structural diff: a scheme an app of an environment starts or stops
/// declaring, and one whose purpose or OAuth callback path changes. Where the app's router takes
/// the scheme's URLs is a behaviour change (`SchemeRouteDiff`).
extension StructuralDiff {
    /// The apps' scheme changes, app by app (the head's apps in order, then those only the base
    /// has), each app's schemes in the head's order, then the ones it no longer declares.
    static func schemes(_ context: Context) -> [LinkChange] {
        let oldApps = context.baseConfiguration?.apps ?? []
        let newApps = context.headConfiguration?.apps ?? []
        var names = newApps.map(\.name.value)
        names += oldApps.map(\.name.value).filter { !names.contains($0) }
        var changes: [LinkChange] = []
        for name in names {
            let old = oldApps.first { $0.name.value == name }?.schemes ?? []
            let new = newApps.first { $0.name.value == name }?.schemes ?? []
            func change(_ kind: LinkChange.Kind, _ scheme: CustomScheme, side: RevisionSide) -> LinkChange {
                LinkChange(
                    kind: kind, environment: context.environment, scheme: scheme.name.value, app: name,
                    location: scheme.name.location, side: side)
            }
            for scheme in new {
                guard let before = old.first(where: { $0.name.value == scheme.name.value }) else {
                    var added = change(.schemeAdded, scheme, side: .head)
                    added.after = scheme.declaration
                    changes.append(added)
                    continue
                }
                guard before.declaration != scheme.declaration else { continue }
                var changed = change(.schemeChanged, scheme, side: .head)
                (changed.before, changed.after) = (before.declaration, scheme.declaration)
                changes.append(changed)
            }
            for scheme in old where !new.contains(where: { $0.name.value == scheme.name.value }) {
                var removed = change(.schemeRemoved, scheme, side: .base)
                removed.before = scheme.declaration
                changes.append(removed)
            }
        }
        return changes
    }
}

extension CustomScheme {
    /// What the scheme is declared for, as a change shows it: `oauth-callback, callback
    /// /oauth/callback`, or `deep-links`.
    var declaration: String {
        purpose.value.rawValue + (callbackPath.map { ", callback \($0.value)" } ?? "")
    }
}

/// Where the app's router takes the URLs of a custom scheme, compared between two revisions.
/// Every URL of a declared scheme opens the app (`CompiledSchemeRoutes`), so a change in the
/// scheme's `routes:` changes only the destination: `changes_route`, never `opens_app` or
/// `opens_web`. The entries are proven as a domain's rules are (`BehaviourProof` over the same
/// `CompiledAASA` rules the router's answers come from), with every entry that reaches no
/// destination (`exclude`, `route: none`) read as one that keeps a URL from the app, and no
/// entry matching as the same: then every pair of entries whose destinations differ is searched
/// for a shortest URL of the scheme, which is decided again on both sides before it is reported.
/// Only schemes whose entries changed, declared by the same app on both sides, are compared.
public enum SchemeRouteDiff {
    /// The app ID the scheme's entries are compiled for; no device reads it.
    private static let appID = "scheme"

    /// The route changes of every scheme whose entries changed, with what the proof left
    /// unsettled. The schemes share a budget of `limits.total` of their own: their entries are
    /// a few per scheme.
    static func compare(base: PolicySnapshot, head: PolicySnapshot, limits: ProofLimits)
        -> (changes: [LinkChange], unproven: [BehaviourDiff.Unproven])
    {
        var changes: [LinkChange] = []
        var unproven: [BehaviourDiff.Unproven] = []
        let meter = WorkMeter(limits.total)
        for declared in SchemeOnBothSides.all(base: base, head: head) {
            let sides = SchemeSides(
                environment: declared.environment.name, app: declared.app, old: declared.old, new: declared.new)
            guard sides.entriesChanged else { continue }
            let found = sides.compare(limits: limits, meter: meter)
            changes += found.changes
            unproven += found.unproven
        }
        return (changes, unproven)
    }

    /// Whether two declarations of a scheme have entries that differ in order, pattern or route
    /// (equal ones take every URL to the same destination).
    static func routesDiffer(_ old: CustomScheme, _ new: CustomScheme) -> Bool {
        decisionList(old).rules.map(\.key) != decisionList(new).rules.map(\.key)
    }

    /// One scheme of one app of one environment, on both sides.
    private struct SchemeSides {
        let environment: String
        let app: AppDefinition
        let old: CustomScheme
        let new: CustomScheme
        let lists: (old: DecisionList, new: DecisionList)
        let routers: (old: CompiledSchemeRoutes, new: CompiledSchemeRoutes)

        init(environment: String, app: AppDefinition, old: CustomScheme, new: CustomScheme) {
            self.environment = environment
            self.app = app
            self.old = old
            self.new = new
            lists = (SchemeRouteDiff.decisionList(old), SchemeRouteDiff.decisionList(new))
            routers = (CompiledSchemeRoutes(old), CompiledSchemeRoutes(new))
        }

        /// Whether the entries decide alike in order: equal rule keys lead equal URLs to equal
        /// destinations, read from the same places.
        var entriesChanged: Bool { lists.old.rules.map(\.key) != lists.new.rules.map(\.key) }

        func compare(limits: ProofLimits, meter: WorkMeter)
            -> (changes: [LinkChange], unproven: [BehaviourDiff.Unproven])
        {
            let result = BehaviourProof(limits: limits, includesEmptyPath: false).compare(
                old: [lists.old], new: [lists.new], meter: meter)
            var unsettled = result.unsettled.map { ($0.base, $0.head) }
            var changes: [LinkChange] = []
            // Grouped by the destinations, not their arguments, as a domain's route changes are.
            var index: [[String?]: Int] = [:]
            let differences = result.differences.sorted {
                ($0.witness.length, $0.witness.path, $0.witness.query)
                    < ($1.witness.length, $1.witness.path, $1.witness.query)
            }
            for difference in differences {
                let written =
                    new.name.value + ":" + difference.witness.path
                    + (difference.witness.query.isEmpty ? "" : "?" + difference.witness.query)
                // The witness must be a URL of the scheme as the proof wrote it; anything else is
                // a fault of the proof, reported as unsettled.
                guard let url = LinkURL.customScheme(written), url.path == difference.witness.path else {
                    unsettled.append((difference.base, difference.head))
                    continue
                }
                guard let (url, answers) = changedAnswers(around: url) else { continue }
                let group = [answers.old.value.destination, answers.new.value.destination]
                if let existing = index[group] {
                    if changes[existing].witnesses.count < 5 && !changes[existing].witnesses.contains(url.description) {
                        changes[existing].witnesses.append(url.description)
                    }
                    continue
                }
                index[group] = changes.count
                changes.append(
                    LinkChange(
                        kind: .changesRoute, environment: environment, scheme: new.name.value, app: app.name.value,
                        before: Self.text(answers.old), after: Self.text(answers.new), witnesses: [url.description],
                        location: answers.new.origin ?? answers.old.origin ?? new.name.location,
                        side: answers.new.origin == nil && answers.old.origin != nil ? .base : .head))
            }
            if !unsettled.isEmpty {
                for index in changes.indices { changes[index].approximate = true }
            }
            // Both platforms' routers decide alike: what is unsettled is so on each the app ships on.
            let platforms = Platform.allCases.filter { $0 == .ios ? app.ios != nil : app.android != nil }
            let unproven = unsettled.flatMap { base, head in
                platforms.map { platform in
                    BehaviourDiff.Unproven(
                        environment: environment, host: new.name.value, platform: platform, identity: app.name.value,
                        baseRule: base?.label, headRule: head?.label, location: head?.origin ?? base?.origin,
                        side: head?.origin == nil && base?.origin != nil ? .base : .head,
                        touchesExclusion: base?.isExclusion == true || head?.isExclusion == true)
                }
            }
            return (changes, unproven)
        }

        /// `url` and the routers' answers on both sides when they take it to different places;
        /// else the URL holding the values the deciding entries read (a change in where a
        /// parameter is read leaves a shortest URL without them alike), when that shows one.
        private func changedAnswers(around url: LinkURL) -> (LinkURL, (old: SchemeAnswer, new: SchemeAnswer))? {
            let answers = (old: routers.old.answer(for: url), new: routers.new.answer(for: url))
            guard answers.old.value == answers.new.value else { return (url, answers) }
            let parameters = [(answers.old, old), (answers.new, new)].flatMap { answer, scheme in
                scheme.routes.first { $0.location == answer.origin }?.route?.parameters ?? []
            }
            guard let holding = url.holdingValues(of: parameters) else { return nil }
            let held = (old: routers.old.answer(for: holding), new: routers.new.answer(for: holding))
            return held.old.value == held.new.value ? nil : (holding, held)
        }

        /// Where the router takes a URL, as a route change names it: the destination with its
        /// arguments, or why there is none (`no destination (an exclude entry matches)`).
        private static func text(_ answer: SchemeAnswer) -> String {
            switch answer {
            case .route(let value, _): value.description
            case .unreadable(let problem, _): LinkChange.unresolvedPrefix + problem.message + ")"
            case .excluded: LinkChange.unresolvedPrefix + "an exclude entry matches)"
            case .noEntry: LinkChange.unresolvedPrefix + "no route entry matches)"
            case .withAuthority: LinkChange.unresolvedPrefix + "the URL has an authority)"
            }
        }
    }

    /// The scheme's entries as the proof reads them: each entry that leads to a destination
    /// opens with its route; `exclude` and `route: none` entries keep the URL from every
    /// destination, as no entry does.
    private static func decisionList(_ scheme: CustomScheme) -> DecisionList {
        let components = scheme.routes.map { rule in
            var component = rule.aasaComponent
            if rule.route?.destination == nil { component.exclude = true }
            return component
        }
        let file = CompiledAASA(
            AASADocument(
                applinks: AppLinksSection(
                    details: [AASADetails(appIDs: [appID], components: components, origin: scheme.name.location)])))
        return DecisionList(
            identity: appID,
            blocks: [
                (nil, DecisionList.appleRules(file, appID: appID, routes: RouteLabels(schemeRoutes: scheme.routes)))
            ])
    }
}

/// A custom scheme one app of one environment declares on both sides of a comparison: what the
/// scheme route diff compares and `ROUTE_REMOVED` checks.
struct SchemeOnBothSides {
    var environment: CompiledEnvironment
    var app: AppDefinition
    var old: CustomScheme
    var new: CustomScheme

    /// For every environment compiled on both sides, in the head's order, each app's schemes
    /// (the head's apps and schemes in file order) that the same app declares at the base.
    static func all(base: PolicySnapshot, head: PolicySnapshot) -> [SchemeOnBothSides] {
        head.compiled.environments.flatMap { environment -> [SchemeOnBothSides] in
            guard base.compiled.environments.contains(where: { $0.name == environment.name }),
                let new = head.configuration.environment(named: environment.name),
                let old = base.configuration.environment(named: environment.name)
            else { return [] }
            return new.apps.flatMap { app in
                app.schemes.compactMap { scheme in
                    old.app(named: app.name.value)?.schemes.first { $0.name.value == scheme.name.value }.map {
                        SchemeOnBothSides(environment: environment, app: app, old: $0, new: scheme)
                    }
                }
            }
        }
    }
}

extension LinkURL {
    /// This URL with a value in every path segment and query item `parameters` read, each source
    /// its own value, so a parameter moved from one source to another, or two parameters
    /// swapped, read different values on the two sides: `s3` for a third segment, `q1`, `q2`, …
    /// for items, and digits where a parameter reads the source as an int (`3` for a third
    /// segment, `11`, `12`, … for items), which also replace text already there that would not
    /// parse (an int filled with text gives no destination on either side, hiding the change).
    /// `nil` when the URL holds all of that already.
    func holdingValues(of parameters: [RouteParameter]) -> LinkURL? {
        var intSegments: Set<Int> = []
        var lastSegment = 0
        var items: [(name: String, isInt: Bool)] = []
        for parameter in parameters {
            let isInt = parameter.type == .int
            switch parameter.source {
            case .pathSegment(let position):
                lastSegment = max(lastSegment, position)
                if isInt { intSegments.insert(position) }
            case .queryItem(let name):
                if let known = items.firstIndex(where: { ExactText($0.name) == ExactText(name) }) {
                    items[known].isInt = items[known].isInt || isInt
                } else {
                    items.append((name, isInt))
                }
            }
        }
        // Segments are the non-empty pieces between slashes, as `RouteResolver` reads them.
        var position = 0
        var pieces = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            piece -> String in
            let text = String(Substring(piece))
            guard !text.isEmpty else { return text }
            position += 1
            return intSegments.contains(position) && Int(PercentDecoding.decode(text)) == nil ? "\(position)" : text
        }
        if lastSegment > position {
            if pieces.last == "" { pieces.removeLast() }
            pieces += (position + 1...lastSegment).map { intSegments.contains($0) ? "\($0)" : "s\($0)" }
        }
        var queryItems = (query ?? "").utf8.split(separator: UInt8(ascii: "&")).map { String(Substring($0)) }
        for (index, item) in items.enumerated() {
            let value = item.isInt ? "\(11 + index)" : "q\(index + 1)"
            let present = queryItems.firstIndex { written in
                let name = written.utf8.prefix { $0 != UInt8(ascii: "=") }
                return ExactText(PercentDecoding.decode(String(Substring(name)))) == ExactText(item.name)
            }
            guard let present else {
                queryItems.append(item.name + "=" + value)
                continue
            }
            let written = queryItems[present].utf8.split(
                separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let old = written.count > 1 ? PercentDecoding.decode(String(Substring(written[1]))) : ""
            if item.isInt && Int(old) == nil { queryItems[present] = String(Substring(written[0])) + "=" + value }
        }
        var candidate = self
        candidate.path = pieces.joined(separator: "/")
        if !queryItems.isEmpty { candidate.query = queryItems.joined(separator: "&") }
        return candidate == self ? nil : candidate
    }
}
