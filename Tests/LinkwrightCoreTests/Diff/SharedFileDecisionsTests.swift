import Testing

@testable import LinkwrightCore

/// The behaviour diff decides each witness once per rules an app reads (`SharedFileDecisions`),
/// for every host and environment proven alike. Each observation must still carry the verdicts
/// its own host's evaluator gives the URL alone, also where environments' rules differ.
@Suite struct SharedFileDecisionsTests {
    /// Production and staging read the same rules under other app IDs; development and staging
    /// each have rules of their own, and the kiosk reads a second entry.
    private static let base = """
        applinks:
          - apps: [shop, kiosk]
            rules:
              - path: /p/private/*
                exclude: true
              - path: /p/*
              - path: /search
                query: {q: "?*"}
          - apps: [kiosk]
            rules:
              - path: /kiosk/*
        emit:
          android_dynamic_rules: true

        """

    private static let head = """
        applinks:
          - apps: [shop, kiosk]
            rules:
              - path: /p/sale/*
                exclude: true
                environments: [staging]
              - path: /beta/*
                environments: [development]
              - path: /p/private/*
                exclude: true
              - path: /p/*
              - path: /search
                query: {q: "?*"}
              - path: /find
                query: {term: "?*"}
          - apps: [kiosk]
            rules:
              - path: /kiosk/old/*
                exclude: true
              - path: /kiosk/*
        emit:
          android_dynamic_rules: true

        """

    /// `domain` as the domain file of three environments of three hosts each, with two apps
    /// on both platforms, made by `cache`.
    private func revision(_ domain: String, in cache: RevisionCache) throws -> CachedRevision {
        let files = ThreeEnvironmentFleet.files(domain: domain)
        let sources = files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
        let (revision, diagnostics) = cache.make(sources)
        return try #require(revision, "\(diagnostics.filter { $0.severity == .error })")
    }

    /// What a verdict says and which rule decided it.
    private static func decided(_ verdict: EnvironmentEvaluator.Verdict?) -> [String] {
        guard let verdict else { return ["absent"] }
        let decision = verdict.decision
        return [
            verdict.identity, verdict.claim.declared ?? "none", verdict.fileHost ?? "no file",
            decision.outcome.rawValue, "\(decision.entryIndex ?? -1)", "\(decision.ruleIndex ?? -1)",
            decision.origin?.description ?? "",
        ]
    }

    /// URLs differing in their path, query or fragment only, decided on every host of both
    /// revisions through one `SharedFileDecisions`, each as its host's evaluator decides it alone.
    @Test func sharedDecisionsAreEachHostsOwn() throws {
        let cache = RevisionCache()
        let shared = SharedFileDecisions()
        let paths = ["/p/1", "/p/sale/1", "/p/private/x", "/beta/1", "/search", "/find", "/kiosk/old/1", "/kiosk/1"]
        let suffixes = ["", "?q=a", "?term=b", "?q=", "#top", "?term=b#top"]
        var decided = 0
        for revision in [try revision(Self.base, in: cache), try revision(Self.head, in: cache)] {
            for environment in revision.compiled.environments {
                let evaluator = EnvironmentEvaluator(environment)
                for host in environment.sites.flatMap(\.servedHosts) {
                    for platform in Platform.allCases {
                        let claims = evaluator.claims(of: host.name, on: platform)
                        let rules = shared.rules(of: claims, in: evaluator)
                        for path in paths {
                            for suffix in suffixes {
                                let url = try #require(LinkURL("https://\(host.name)\(path)\(suffix)"))
                                let parts = SharedFileDecisions.URLParts(url)
                                let verdicts = evaluator.verdicts(for: url, claims: claims) { app, _, make in
                                    shared.decision(of: parts, through: rules[app], make: make)
                                }
                                #expect(
                                    verdicts.map(Self.decided)
                                        == evaluator.verdicts(for: url, platform: platform).map(Self.decided),
                                    "\(environment.name) \(platform) \(url)")
                                decided += verdicts.count
                            }
                        }
                    }
                }
            }
        }
        // Two revisions, three environments of three hosts, two platforms, two apps.
        #expect(decided == 2 * 9 * 2 * 2 * paths.count * suffixes.count)
    }

    /// Rules telling apart what a shared decision's key must: `/café` spelt NFC and NFD, an
    /// empty item or fragment and none, and the query and fragment themselves.
    private static let spellings = """
        applinks:
          - apps: [shop, kiosk]
            rules:
              - path: /caf\u{E9}/*
                exclude: true
              - path: /cafe\u{301}/*
              - path: /q
                query: {k: "?*"}
                exclude: true
              - path: /f
                fragment: "?*"
              - path: /x/*
                query: {k: "a*"}
              - path: /x/*
                fragment: "*b"
                exclude: true
              - path: /*
        emit:
          android_dynamic_rules: true

        """

    /// Seeded URLs whose path, query and fragment differ in spelling only (composed and
    /// decomposed `é`, empty and absent parts), each decided through one `SharedFileDecisions` on
    /// every host and platform in a seeded order, against each host's evaluator alone: the
    /// URL's key (`URLParts`, hashed once) must tell apart what the rules tell apart.
    @Test(arguments: [UInt64(1), 2, 3])
    func seededSpellingsAreDecidedApart(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed &* 0x2545_F491)
        let revision = try revision(Self.spellings, in: RevisionCache())
        let pieces = ["caf\u{E9}", "cafe\u{301}", "q", "f", "x", "a", "b", "ab"]
        func part() -> String {
            (0..<Int.random(in: 0...2, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        var urls: [String] = []
        for _ in 0..<60 {
            var text = "/" + (0..<Int.random(in: 1...2, using: &generator)).map { _ in part() }.joined(separator: "/")
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: text += "?"
            case 1: text += "?k=" + part()
            case 2: text += "?" + part()
            default: break
            }
            if Bool.random(using: &generator) { text += "#" + part() }
            urls.append(text)
        }
        let shared = SharedFileDecisions()
        var places: [(EnvironmentEvaluator, String, Platform)] = []
        for environment in revision.compiled.environments {
            let evaluator = EnvironmentEvaluator(environment)
            for host in environment.sites.flatMap(\.servedHosts) {
                for platform in Platform.allCases { places.append((evaluator, host.name, platform)) }
            }
        }
        for (evaluator, host, platform) in places.shuffled(using: &generator) {
            let claims = evaluator.claims(of: host, on: platform)
            let rules = shared.rules(of: claims, in: evaluator)
            for path in urls.shuffled(using: &generator) {
                let url = try #require(LinkURL("https://\(host)\(path)"))
                let parts = SharedFileDecisions.URLParts(url)
                let verdicts = evaluator.verdicts(for: url, claims: claims) { app, _, make in
                    shared.decision(of: parts, through: rules[app], make: make)
                }
                #expect(
                    verdicts.map(Self.decided) == evaluator.verdicts(for: url, platform: platform).map(Self.decided),
                    "\(host) \(platform) \(Array(path.unicodeScalars))")
            }
        }
    }

    @Test func everyObservationCarriesItsOwnHostsVerdicts() throws {
        let cache = RevisionCache()
        let (base, head) = (try revision(Self.base, in: cache), try revision(Self.head, in: cache))
        let comparison = BehaviourDiff.compare(base: base, head: head)
        #expect(comparison.unproven.isEmpty, "\(comparison.unproven.map(\.summary))")
        func evaluators(_ revision: CachedRevision) -> [String: EnvironmentEvaluator] {
            Dictionary(uniqueKeysWithValues: revision.compiled.environments.map { ($0.name, EnvironmentEvaluator($0)) })
        }
        let (before, after) = (evaluators(base), evaluators(head))
        let decided = Self.decided
        let observations = comparison.observations.filter { $0.androidRelease == nil }
        for observation in observations {
            let url = try #require(LinkURL(observation.url))
            let own = (
                try #require(before[observation.environment]).verdicts(for: url, platform: observation.platform),
                try #require(after[observation.environment]).verdicts(for: url, platform: observation.platform)
            )
            let place = "\(observation.environment) \(observation.platform) \(observation.identity) \(observation.url)"
            #expect(
                decided(observation.before) == decided(own.0.first { $0.identity == observation.identity }), "\(place)")
            #expect(
                decided(observation.after) == decided(own.1.first { $0.identity == observation.identity }), "\(place)")
        }
        // Each environment and host shows the changes of its own rules.
        for platform in Platform.allCases {
            let on = observations.filter { $0.platform == platform }
            #expect(Set(on.map(\.host)).count == 9, "\(platform)")
            let paths = { (environment: String) in
                Set(
                    on.filter { $0.environment == environment }.compactMap {
                        LinkURL($0.url)?.path.split(separator: "/").first
                    })
            }
            #expect(paths("production") == ["find", "kiosk"], "\(platform)")
            #expect(paths("staging") == ["find", "kiosk", "p"], "\(platform)")
            #expect(paths("development") == ["beta", "find", "kiosk"], "\(platform)")
        }
    }

    /// Release notes decide the rules' URLs of all a release's changes through one
    /// `SharedFileDecisions`, every host and environment reading the same rules sharing them: each
    /// change must be shown as when its URLs are decided for it alone.
    @Test func releaseNotesShowEachChangeAsAlone() throws {
        let cache = RevisionCache()
        let (base, head) = (try revision(Self.base, in: cache), try revision(Self.head, in: cache))
        let changes = BehaviourDiff.changes(base: base, head: head)
        let together = ReleaseNoteWitnesses.readable(changes, base: base, head: head)
        #expect(together.count == changes.count)
        func evaluators(_ revision: CachedRevision) -> [String: EnvironmentEvaluator] {
            Dictionary(uniqueKeysWithValues: revision.compiled.environments.map { ($0.name, EnvironmentEvaluator($0)) })
        }
        let (before, after) = (evaluators(base), evaluators(head))
        let routes = (old: base.configuration.routesByRule, new: head.configuration.routesByRule)
        var improved = 0
        for (change, shown) in zip(changes, together) {
            // A rule's URL shown must show the change as each side's evaluator decides it alone.
            if shown.witnesses.first != change.witnesses.first, let platform = change.platform {
                let url = try #require(shown.witnesses.first.flatMap(LinkURL.init))
                let own = (
                    before: try #require(before[change.environment]).verdicts(for: url, platform: platform),
                    after: try #require(after[change.environment]).verdicts(for: url, platform: platform)
                )
                #expect(ReleaseNoteWitnesses.shows(change, own), "\(url)")
                let route = ReleaseNoteWitnesses.route(change, at: url, own, routes)
                #expect(route.before == shown.routeBefore && route.after == shown.routeAfter, "\(url)")
            }
            let alone = try #require(ReleaseNoteWitnesses.readable([change], base: base, head: head).first)
            let place =
                "\(change.environment) \(change.host ?? "") \(change.platform?.rawValue ?? "") \(change.app ?? "")"
            #expect(shown.witnesses == alone.witnesses, "\(place)")
            #expect(shown.routeBefore == alone.routeBefore && shown.routeAfter == alone.routeAfter, "\(place)")
            if shown.witnesses != change.witnesses { improved += 1 }
        }
        // Each environment's hosts show their changes with the rules' own URLs.
        #expect(improved > 9)
    }
}
