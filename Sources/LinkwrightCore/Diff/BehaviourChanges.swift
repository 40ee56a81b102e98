/// Behaviour changes made from the diff's observations: one per environment, host, platform,
/// kind and apps, with its witnesses.
extension BehaviourDiff {
    /// A URL on a host of an environment, on one platform. The URL compares exactly
    /// (`ExactText`): `/café` spelt NFC and NFD are two URLs, which a change can treat apart.
    private struct ObservedURL: Hashable {
        var environment: String
        var host: String
        var platform: Platform
        var url: ExactText

        /// The URL alone: the environment, host and platform (a string too) repeat across a
        /// diff's observations, and hashing all four was most of a lookup. Keys whose hashes
        /// agree are still compared in full.
        func hash(into hasher: inout Hasher) { hasher.combine(url) }
    }

    /// What makes two observations one change, listed with several witnesses.
    private struct ChangeGroup: Hashable {
        var environment: String
        var host: String
        var platform: Platform
        var kind: LinkChange.Kind
        var before: String?
        var after: String?
        /// The app a route change concerns (other kinds name apps in `before` and `after`).
        var app: String?
        /// For a URL that starts or stops opening an app, or moves from one app to another, the
        /// destinations (without arguments) the routers take it to on each side that opens it:
        /// URLs reaching different screens are different changes, each worded with its own.
        var routeBefore: String? = nil
        var routeAfter: String? = nil

        /// The host and the two sides, which set a diff's changes apart: a change's kind and app
        /// follow from its sides, and its environment and platform repeat. Hashing all nine
        /// fields cost more than the rest of grouping an observation.
        func hash(into hasher: inout Hasher) {
            hasher.combine(host)
            hasher.combine(before)
            hasher.combine(after)
        }
    }

    /// Behaviour changes, one per (environment, host, platform, kind, apps), with witnesses.
    public static func changes(base: (any ComparedRevision)?, head: any ComparedRevision) -> [LinkChange] {
        guard let base else { return [] }
        return compare(base: base, head: head).changes
    }

    /// Behaviour changes from observations already made (see `PolicyContext.behaviourObservations`):
    /// per URL, each app that now opens it either took it from each app that no longer does
    /// (`changes_app`) or from the web (`opens_app`); an app losing it with nobody gaining it
    /// sends it to the web (`opens_web`).
    public static func changes(from observations: [Observation]) -> [LinkChange] {
        var changes: [LinkChange] = []
        var index: [ChangeGroup: Int] = [:]
        // Observations are named by position rather than copied: a diff adding a thousand rules
        // on a fleet makes tens of thousands, each holding both sides' verdicts.
        // Per URL and platform, in the order first seen: who opened it before and who opens it now.
        var groupOfURL: [ObservedURL: Int] = [:]
        var groups: [[Int]] = []
        // Read once, in one pass: asking an element of the array for a computed property
        // copied the whole observation, two fifths of the time here for 26,000 changes.
        let openedBefore = observations.map(\.openedBefore)
        let opensAfter = observations.map(\.opensAfter)
        let changesRoute = observations.map(\.changesRoute)
        for position in observations.indices where openedBefore[position] != opensAfter[position] {
            let key = ObservedURL(
                environment: observations[position].environment, host: observations[position].host,
                platform: observations[position].platform, url: ExactText(observations[position].url))
            if let known = groupOfURL[key] {
                groups[known].append(position)
            } else {
                groupOfURL[key] = groups.count
                groups.append([position])
            }
        }
        for group in groups {
            let gained = group.filter { opensAfter[$0] }
            let lost = group.filter { openedBefore[$0] }
            var entries: [Entry] = []
            for position in gained {
                let identity = observations[position].identity
                if lost.isEmpty {
                    entries.append(Entry(.opensApp, identity, "web", identity, observations[position]))
                }
                for replaced in lost {
                    // Where the app that lost the URL used to take it.
                    entries.append(
                        Entry(
                            .changesApp, identity, observations[replaced].identity, identity, observations[position],
                            exhaustive: observations[position].exhaustive && observations[replaced].exhaustive,
                            routeBefore: observations[replaced].routeBefore))
                }
            }
            if gained.isEmpty {
                for position in lost {
                    let identity = observations[position].identity
                    entries.append(Entry(.opensWeb, identity, identity, "web", observations[position]))
                }
            }
            record(entries, first: observations[group[0]])
        }
        // The app still opens the URL, but its router takes it elsewhere: grouped by the
        // destinations, not their arguments, so `/tickets/1` and `/tickets/2` are one change.
        for position in observations.indices where changesRoute[position] {
            let observation = observations[position]
            record(
                [
                    Entry(
                        .changesRoute, observation.identity, observation.routeBefore ?? "no route",
                        observation.routeAfter ?? "no route", observation)
                ],
                first: observation,
                grouping: { group in
                    group.before = destination(observation.routeBefore) ?? "no route"
                    group.after = destination(observation.routeAfter) ?? "no route"
                    (group.routeBefore, group.routeAfter) = (nil, nil)
                })
        }
        return changes

        func record(
            _ entries: [Entry], first: borrowing Observation, grouping adjust: (inout ChangeGroup) -> Void = { _ in }
        ) {
            for entry in entries {
                let kind = entry.kind
                // The route on each side that opens the URL, for a link gained, lost or moved
                // to another app (a route change keeps its destinations in `before`/`after`).
                let route = (
                    before: kind == .opensWeb || kind == .changesApp ? entry.routeBefore : nil,
                    after: kind == .opensApp || kind == .changesApp ? entry.routeAfter : nil
                )
                var grouping = ChangeGroup(
                    environment: first.environment, host: first.host, platform: first.platform, kind: kind,
                    before: entry.before, after: entry.after, app: entry.app, routeBefore: destination(route.before),
                    routeAfter: destination(route.after))
                adjust(&grouping)
                if let existing = index[grouping] {
                    if !entry.exhaustive { changes[existing].approximate = true }
                    // Examples with different paths say more than one path with every query.
                    // (A change with its five examples, as most of a long diff's are, reads no
                    // path.)
                    if changes[existing].witnesses.count < 5 {
                        let path = pathPart(of: entry.url)
                        if !changes[existing].witnesses.contains(where: { pathPart(of: $0) == path }) {
                            changes[existing].witnesses.append(entry.url)
                        }
                    }
                    continue
                }
                // Point at the head rule that now decides; for a lost link with nothing deciding at
                // the head, at the base rule that used to open it.
                index[grouping] = changes.count
                changes.append(
                    LinkChange(
                        kind: kind, environment: first.environment, host: first.host, platform: first.platform,
                        app: entry.app, before: entry.before, after: entry.after, routeBefore: route.before,
                        routeAfter: route.after, witnesses: [entry.url], location: entry.headRule ?? entry.baseRule,
                        side: entry.headRule == nil && entry.baseRule != nil ? .base : .head,
                        approximate: !entry.exhaustive))
            }
        }
    }

    /// One change an observation makes, with what `changes(from:)` reads of it.
    private struct Entry {
        var kind: LinkChange.Kind
        var app: String
        var before: String?
        var after: String?
        var url: String
        var exhaustive: Bool
        var routeBefore: String?
        var routeAfter: String?
        var headRule: SourceLocation?
        var baseRule: SourceLocation?

        init(
            _ kind: LinkChange.Kind, _ app: String, _ before: String?, _ after: String?,
            _ observation: borrowing Observation,
            exhaustive: Bool? = nil, routeBefore: String?? = nil
        ) {
            self.kind = kind
            self.app = app
            self.before = before
            self.after = after
            url = observation.url
            self.exhaustive = exhaustive ?? observation.exhaustive
            self.routeBefore = routeBefore ?? observation.routeBefore
            routeAfter = observation.routeAfter
            headRule = observation.after?.decision.origin
            baseRule = observation.before?.decision.origin
        }
    }
}

/// `url` up to its query or fragment, found in its bytes: `?` and `#` are ASCII and end the path
/// wherever they appear (RFC 3986, section 3.3).
private func pathPart(of url: String) -> Substring {
    let end = url.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.endIndex
    return url[..<end]
}
