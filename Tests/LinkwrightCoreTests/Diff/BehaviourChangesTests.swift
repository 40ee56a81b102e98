import Testing

@testable import LinkwrightCore

/// `BehaviourDiff.changes(from:)` groups observations through dictionaries whose keys hash only
/// some of their fields: it must give what grouping by plain search over every field gives, for
/// seeded observations sharing URLs across environments, hosts and platforms, spelling one URL
/// in two normalization forms, and naming apps, routes and sides alike.
@Suite struct BehaviourChangesTests {
    private static let environments = ["production", "staging"]
    private static let hosts = ["a.example", "b.example"]
    private static let identities = ["T.app.one", "T.app.two", "com.example.three"]
    /// The same paths under each host's name and none, `é` as one scalar and as `e` and a mark.
    private static let paths = ["/p", "/p?x=1", "/p?x=2", "/q#f", "/caf\u{E9}", "/cafe\u{301}", "/r/1", "/r/2"]
    private static let routes: [String?] = [
        nil, "ticket(id: 1)", "ticket(id: 2)", "home", "none", "no destination (x)",
    ]

    private static func verdict(_ generator: inout SplitMix64, platform: Platform, identity: String)
        -> EnvironmentEvaluator.Verdict?
    {
        let outcome = [LinkOutcome.match, .match, .exclude, .noMatch].randomElement(using: &generator)!
        guard Int.random(in: 0..<4, using: &generator) > 0 else { return nil }
        let origin =
            Bool.random(using: &generator)
            ? SourceLocation(file: "domains/a.yaml", line: Int.random(in: 1...3, using: &generator), column: 5) : nil
        return EnvironmentEvaluator.Verdict(
            platform: platform, app: "app", identity: identity,
            claim: Int.random(in: 0..<5, using: &generator) > 0 ? .exact("a.example") : .none, fileHost: nil,
            scope: nil, decision: LinkDecision(outcome: outcome, origin: origin))
    }

    private static func observations(_ generator: inout SplitMix64) -> [BehaviourDiff.Observation] {
        (0..<Int.random(in: 0...60, using: &generator)).map { _ in
            let host = hosts.randomElement(using: &generator)!
            let platform = Bool.random(using: &generator) ? Platform.ios : .android
            let identity = identities.randomElement(using: &generator)!
            let url =
                (Bool.random(using: &generator) ? "https://\(host)" : "https://a.example")
                + paths.randomElement(using: &generator)!
            var observation = BehaviourDiff.Observation(
                environment: environments.randomElement(using: &generator)!, host: host, platform: platform,
                identity: identity, url: url,
                before: verdict(&generator, platform: platform, identity: identity),
                after: verdict(&generator, platform: platform, identity: identity),
                exhaustive: Int.random(in: 0..<4, using: &generator) > 0,
                routeBefore: routes.randomElement(using: &generator)!,
                routeAfter: routes.randomElement(using: &generator)!)
            // Sides set again after the observation is made (a release's labelling, a route
            // witness): the flags it keeps must follow them.
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: observation.before = verdict(&generator, platform: platform, identity: identity)
            case 1: observation.after = verdict(&generator, platform: platform, identity: identity)
            case 2: observation.after?.decision.outcome = [.match, .noMatch].randomElement(using: &generator)!
            default: break
            }
            return observation
        }
    }

    /// Whether a side's verdict opens the app, read from the verdict rather than the flags kept.
    private static func opens(_ verdict: EnvironmentEvaluator.Verdict?) -> Bool { verdict?.opens ?? false }

    /// Exactly equal texts: `String`'s `==` takes canonically equivalent ones as one.
    private static func same(_ left: String?, _ right: String?) -> Bool {
        left.map { Array($0.utf8) } == right.map { Array($0.utf8) }
    }

    /// A witness's path, compared as `changes(from:)` compares it (as text, not bytes).
    private static func pathPart(_ url: String) -> Substring { url.prefix { $0 != "?" && $0 != "#" } }

    /// The changes as `changes(from:)` documents them, found by searching lists field by field.
    private static func plainChanges(_ observations: [BehaviourDiff.Observation]) -> [LinkChange] {
        var changes: [LinkChange] = []
        /// Each change's group: environment, host, platform, kind, before, after, app and the
        /// routes' destinations.
        var keys: [[String?]] = []
        func record(
            _ kind: LinkChange.Kind, _ app: String, _ before: String?, _ after: String?,
            _ observation: BehaviourDiff.Observation, exhaustive: Bool, routeBefore: String?,
            grouped: (before: String?, after: String?, routes: (String?, String?))? = nil
        ) {
            let route = (
                before: kind == .opensWeb || kind == .changesApp ? routeBefore : nil,
                after: kind == .opensApp || kind == .changesApp ? observation.routeAfter : nil
            )
            let routes =
                grouped?.routes ?? (BehaviourDiff.destination(route.before), BehaviourDiff.destination(route.after))
            let key: [String?] = [
                observation.environment, observation.host, observation.platform.rawValue, kind.rawValue,
                grouped?.before ?? before, grouped?.after ?? after, app, routes.0, routes.1,
            ]
            if let existing = keys.firstIndex(where: { $0.count == key.count && zip($0, key).allSatisfy(same) }) {
                if !exhaustive { changes[existing].approximate = true }
                let path = pathPart(observation.url)
                if changes[existing].witnesses.count < 5
                    && !changes[existing].witnesses.contains(where: { pathPart($0) == path })
                {
                    changes[existing].witnesses.append(observation.url)
                }
                return
            }
            keys.append(key)
            let (headRule, baseRule) = (observation.after?.decision.origin, observation.before?.decision.origin)
            changes.append(
                LinkChange(
                    kind: kind, environment: observation.environment, host: observation.host,
                    platform: observation.platform, app: app, before: before, after: after, routeBefore: route.before,
                    routeAfter: route.after, witnesses: [observation.url], location: headRule ?? baseRule,
                    side: headRule == nil && baseRule != nil ? .base : .head, approximate: !exhaustive))
        }
        var urls: [(place: [String], members: [Int])] = []
        for (position, observation) in observations.enumerated()
        where opens(observation.before) != opens(observation.after) {
            let place = [observation.environment, observation.host, observation.platform.rawValue, observation.url]
            if let known = urls.firstIndex(where: { zip($0.place, place).allSatisfy(same) }) {
                urls[known].members.append(position)
            } else {
                urls.append((place, [position]))
            }
        }
        for (_, members) in urls {
            let gained = members.filter { opens(observations[$0].after) }
            let lost = members.filter { opens(observations[$0].before) }
            for position in gained {
                let observation = observations[position]
                if lost.isEmpty {
                    record(
                        .opensApp, observation.identity, "web", observation.identity, observation,
                        exhaustive: observation.exhaustive, routeBefore: observation.routeBefore)
                }
                for replaced in lost {
                    record(
                        .changesApp, observation.identity, observations[replaced].identity, observation.identity,
                        observation, exhaustive: observation.exhaustive && observations[replaced].exhaustive,
                        routeBefore: observations[replaced].routeBefore)
                }
            }
            if gained.isEmpty {
                for position in lost {
                    let observation = observations[position]
                    record(
                        .opensWeb, observation.identity, observation.identity, "web", observation,
                        exhaustive: observation.exhaustive, routeBefore: observation.routeBefore)
                }
            }
        }
        for observation in observations where observation.changesRoute {
            record(
                .changesRoute, observation.identity, observation.routeBefore ?? "no route",
                observation.routeAfter ?? "no route", observation, exhaustive: observation.exhaustive,
                routeBefore: observation.routeBefore,
                grouped: (
                    BehaviourDiff.destination(observation.routeBefore) ?? "no route",
                    BehaviourDiff.destination(observation.routeAfter) ?? "no route", (nil, nil)
                ))
        }
        return changes
    }

    @Test func seededObservationsGroupAsPlainSearchGroupsThem() {
        var grouped = 0
        for seed in 0..<600 {
            var generator = SplitMix64(seed: UInt64(seed))
            let observations = Self.observations(&generator)
            let changes = BehaviourDiff.changes(from: observations)
            let plain = Self.plainChanges(observations)
            #expect(changes == plain, "seed \(seed)")
            // As bytes too: `==` takes the two spellings of `é` as one.
            #expect(
                changes.map { Array($0.json.renderedCompact().utf8) }
                    == plain.map { Array($0.json.renderedCompact().utf8) },
                "seed \(seed)")
            grouped += observations.count - changes.count
        }
        // The seeds do put several observations in one change.
        #expect(grouped > 1000)
    }
}
