import Testing

@testable import LinkwrightCore

/// The exact behaviour diff on the rule shapes users write: each case pins the kinds of change
/// found and a shortest witness, which the diff has decided again with the evaluator.
@Suite struct BehaviourProofTests {
    static let fingerprint = RuleExampleConfiguration.fingerprint

    /// One production environment serving `example.com`, with an iOS app (and an Android app).
    static func environment(android: Bool = false, clip: Bool = false) -> String {
        var text = "tier: production\nteam_id: ABCDE12345\napps:\n  example:\n    ios: {bundle_id: com.example.app}\n"
        if android {
            text += "    android:\n      package: com.example.app\n      fingerprints:\n"
            text += "        play-signing: \"\(fingerprint)\"\n"
        }
        if clip { text += "  clip:\n    ios: {bundle_id: com.example.app.Clip, app_clip: true}\n" }
        return text + "hosts:\n  example.com: example\n"
    }

    static func domain(_ rules: String, android: Bool = false) -> String {
        "applinks:\n  - apps: [example]\n    rules:\n" + rules
            + (android ? "emit:\n  android_dynamic_rules: true\n" : "")
    }

    static func compare(
        _ base: String, _ head: String, android: Bool = false, limits: ProofLimits = .standard
    ) throws -> BehaviourDiff.Comparison {
        let environment = ["environments/production.yaml": environment(android: android)]
        return BehaviourDiff.compare(
            base: try snapshot(environment.merging(["domains/example.yaml": base]) { $1 }),
            head: try snapshot(environment.merging(["domains/example.yaml": head]) { $1 }), limits: limits)
    }

    /// The reproduction: an exclusion moved from the top to the end of 19 path rules
    /// opens five URLs that the old search called unchanged.
    @Test func anExclusionMovedToTheEndOpensWhatSuffixRulesMatch() throws {
        let rules = """
                  - path: /event485/*
                  - path: /help748/*
                    exclude: true
                  - path: "*/ticket733"
                  - path: /cart908/*
                    exclude: true
                  - path: "*/search172"
                  - path: "*/help223"
                  - path: /ticket132/cart400
                  - path: /store82/promo411
                  - path: /legal284/order884
                  - path: "*/search699"
                  - path: /cart980/item84
                  - path: /news154/live238
                  - path: /shop496/*/detail/????
                  - path: /news269/*
                    exclude: true
                  - path: "*/legal378"
                  - path: /api579/*
                    exclude: true
                  - path: /item707/*/detail/????

            """
        let moved = "      - path: /product584/*\n        exclude: true\n"
        let comparison = try Self.compare(Self.domain(moved + rules), Self.domain(rules + moved))
        #expect(comparison.unproven.isEmpty)
        let urls = Set(comparison.observations.map(\.url))
        #expect(
            urls
                == Set(
                    ["ticket733", "search172", "help223", "search699", "legal378"].map {
                        "https://example.com/product584/\($0)"
                    }))
        #expect(comparison.observations.allSatisfy { $0.before?.decision.outcome == .exclude && $0.opensAfter })
        #expect(comparison.observations.allSatisfy { $0.exhaustive })
    }

    @Test func queryItemsAreProvenPresentAbsentAndRepeated() throws {
        // The base opens /tickets/* with source present; the head opens it when source is absent too.
        let base = Self.domain("      - path: /tickets/*\n        query: {source: \"?*\"}\n")
        let head = Self.domain("      - path: /tickets/*\n        query: {source: \"*\"}\n")
        let comparison = try Self.compare(base, head)
        #expect(comparison.unproven.isEmpty)
        #expect(comparison.observations.map(\.url) == ["https://example.com/tickets"])
        // Every occurrence of an item must match on iOS: a repeated empty one now fails.
        let strict = try Self.compare(head, Self.domain("      - path: /tickets/*\n        query: {source: \"a*\"}\n"))
        #expect(strict.observations.map(\.url).first == "https://example.com/tickets")
        #expect(strict.observations.allSatisfy { $0.openedBefore && !$0.opensAfter })
    }

    @Test func fragmentsTellAbsentFromEmptyOnAndroidOnly() throws {
        let base = Self.domain("      - path: /a/*\n", android: true)
        let head = Self.domain("      - path: /a/*\n        fragment: \"*\"\n", android: true)
        let comparison = try Self.compare(base, head, android: true)
        #expect(comparison.unproven.isEmpty)
        // `#*` matches a missing fragment on iOS (read as empty), not on Android.
        #expect(!comparison.observations.contains { $0.platform == .ios })
        let android = comparison.observations.filter { $0.platform == .android }
        #expect(android.map(\.url).first == "https://example.com/a")
        #expect(android.allSatisfy { $0.openedBefore && !$0.opensAfter })
    }

    /// `/docs/?*/edit` never matches on Android 15 as first released (`?*` before more text is
    /// a greedy advanced glob there): replacing `/docs/*` with it closes `/docs/a/edit` on that
    /// release only, reported under the release's name; what both releases close is reported once.
    @Test func olderAndroidReleasesAreDecidedAsTheyReadTheRules() throws {
        let base = Self.domain("      - path: /docs/*\n", android: true)
        let head = Self.domain("      - path: /docs/?*/edit\n", android: true)
        let comparison = try Self.compare(base, head, android: true)
        #expect(comparison.unproven.isEmpty)
        let android = comparison.observations.filter { $0.platform == .android }
        let initial = android.filter { $0.identity == "com.example.app (Android 15-initial)" }
        #expect(initial.map(\.url) == ["https://example.com/docs/a/edit"])
        #expect(initial.allSatisfy { $0.openedBefore && !$0.opensAfter })
        let latest = android.filter { $0.identity == "com.example.app" }
        #expect(!latest.isEmpty && !latest.map(\.url).contains("https://example.com/docs/a/edit"))
        #expect(Set(latest.map(\.url)).isDisjoint(with: initial.map(\.url)))
    }

    @Test func caseInsensitiveRulesNeedTheirOwnWitnesses() throws {
        let base = Self.domain("      - path: /Café/*\n")
        let head = Self.domain("      - path: /Café/*\n        case_sensitive: false\n")
        let comparison = try Self.compare(base, head)
        #expect(comparison.unproven.isEmpty)
        #expect(comparison.observations.map(\.url) == ["https://example.com/café"])
    }

    @Test func decodedRulesNeedEscapedWitnesses() throws {
        let base = Self.domain("      - path: /x/*\n")
        let head = Self.domain("      - path: /x/*\n        percent_encoded: false\n")
        let comparison = try Self.compare(base, head)
        #expect(comparison.unproven.isEmpty)
        let urls = comparison.observations.map(\.url)
        #expect(urls.first == "https://example.com/%78", "\(urls)")
        #expect(comparison.observations.allSatisfy { !$0.openedBefore && $0.opensAfter })
    }

    /// A `percent_encoded` default toggled on an ordinary 200-rule list (sections, pages, a
    /// `*` between literals, `?`, exclusions) is proven within the default budget: every rule is
    /// a changed one, and literal prefixes and ends tell the pairs apart that cannot meet. Every
    /// witness holds an escape, since a path without one reads the same decoded or not.
    @Test func aToggledDefaultOnTwoHundredRulesIsProvenWithinTheBudget() throws {
        let rules = Self.seededRules(
            seed: 0x7064,
            shapes: [
                { "/\($0)\($1)" }, { "/\($0)\($1)/*" }, { "/\($0)/\($1)/*" }, { "/\($0)\($1)/*/edit" },
                { "/\($0)/item\($1)?" },
            ])
        let base = Self.domain(rules)
        let comparison = try Self.compare(base, "defaults:\n  percent_encoded: false\n" + base)
        #expect(comparison.unproven.isEmpty, "\(comparison.unproven.count) pairs unproven")
        #expect(comparison.observations.count > 10)
        #expect(comparison.observations.allSatisfy { $0.url.contains("%") }, "\(comparison.observations.map(\.url))")
    }

    /// 200 seeded rules, each of one of `shapes` made from a word and the rule's index, one in
    /// seven an exclusion.
    static func seededRules(seed: UInt64, shapes: [(_ word: String, _ index: Int) -> String]) -> String {
        var generator = SplitMix64(seed: seed)
        let words = ["shoes", "hats", "bags", "sale", "help", "blog", "news", "tv", "kids", "home"]
        var rules = ""
        for index in 0..<200 {
            let word = words.randomElement(using: &generator)!
            let path = shapes[Int.random(in: 0..<shapes.count, using: &generator)](word, index)
            rules += "      - path: \"\(path)\"\n"
            if Int.random(in: 0..<7, using: &generator) == 0 { rules += "        exclude: true\n" }
        }
        return rules
    }

    /// The wildcard-heavy list the ordinary one is not: dozens of `/x*` rules meet dozens of
    /// `*/y.html` rules (and `/w/n/*` ones), and every such pair of rules deciding differently
    /// differs on some URL with an escape (`/kids143/b%61gs16.html`), so a toggled default leaves
    /// hundreds of pairs that must each be searched.
    static func wildcardHeavyRules() -> String {
        seededRules(
            seed: 0x7065,
            shapes: [{ "/\($0)\($1)*" }, { "*/\($0)\($1).html" }, { "/\($0)/\($1)/*" }, { "/\($0)\($1)" }])
    }

    /// Probe paths for the wildcard-heavy list: each rule's own instances, a `/x*` rule's
    /// prefix in front of a `*/y.html` rule's end, and each of those with one scalar escaped
    /// (decoding tells them apart) or upper-cased (folding does).
    static func wildcardHeavyProbes(_ rules: String) -> [String] {
        let paths = rules.split(separator: "\n").compactMap { line -> String? in
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            return quoted.count == 3 ? String(quoted[1]) : nil
        }
        let prefixes = paths.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) }
        let ends = paths.filter { $0.hasPrefix("*") }.map { String($0.dropFirst()) }
        var plain = paths.map { $0.filter { $0 != "*" } }
        for prefix in prefixes { plain += ends.map { prefix + $0 } }
        var probes: [String] = []
        for path in plain {
            let scalars = Array(path.unicodeScalars)
            probes.append(path)
            for position in scalars.indices.dropFirst() {
                var escaped = scalars.map { String($0) }
                escaped[position] = "%" + String(scalars[position].value, radix: 16)
                probes.append(escaped.joined())
                escaped[position] = String(scalars[position]).uppercased()
                probes.append(escaped.joined())
            }
        }
        return probes
    }

    /// A `case_sensitive` default toggled over the wildcard-heavy list is proven within the
    /// default budget, and agrees with deciding the probes on both sides.
    @Test func aToggledCaseDefaultOnTwoHundredWildcardRulesIsProvenWithinTheBudget() throws {
        try Self.expectProvenAgreeingWithProbes(toggling: "case_sensitive: false")
    }

    /// So is a `percent_encoded` default toggled over it: the rules decoding the path and those
    /// reading it as written meet on escapes, which the search steps whole
    /// (`DimensionSearch.stepsEscapesWhole`; scalar by scalar, 2,108 pairs were left unproven).
    @Test func aToggledPercentDefaultOnTwoHundredWildcardRulesIsProvenWithinTheBudget() throws {
        try Self.expectProvenAgreeingWithProbes(toggling: "percent_encoded: false")
    }

    /// Toggles `flag` on `defaults` of the wildcard-heavy list and requires every pair proven
    /// within the default budget, with what deciding the probe URLs on both sides shows: every
    /// probe whose outcome differs is reported with the same deciding rules, and every witness
    /// decides so.
    static func expectProvenAgreeingWithProbes(toggling flag: String) throws {
        let rules = wildcardHeavyRules()
        let environment = ["environments/production.yaml": environment()]
        let base = try snapshot(environment.merging(["domains/example.yaml": domain(rules)]) { $1 })
        let head = try snapshot(
            environment.merging(["domains/example.yaml": "defaults:\n  \(flag)\n" + domain(rules)]) { $1 })
        let comparison = BehaviourDiff.compare(base: base, head: head)
        #expect(comparison.unproven.isEmpty, "\(comparison.unproven.count) pairs unproven")
        #expect(comparison.observations.count > 10)
        let shared = try #require(SharedEnvironment.all(base: base.snapshot, head: head.snapshot).first)
        let reported = Set(comparison.observations.map(DifferenceKey.init))
        var missed: [String] = []
        for path in wildcardHeavyProbes(rules) {
            let url = try #require(LinkURL("https://example.com" + path))
            for (identity, before, after) in shared.verdicts(url, .ios)
            where (before?.opens ?? false) != (after?.opens ?? false) {
                let key = DifferenceKey(
                    environment: shared.name, host: "example.com", platform: .ios, identity: identity, before: before,
                    after: after)
                if !reported.contains(key) { missed.append("\(key) shown by \(path)") }
            }
        }
        #expect(missed.isEmpty, "\(missed.prefix(5))")
        for observation in comparison.observations {
            let url = try #require(LinkURL(observation.url))
            let decided = shared.verdicts(url, .ios).first { $0.identity == observation.appIdentity }
            let actual = DifferenceKey(
                environment: shared.name, host: observation.host, platform: .ios, identity: observation.identity,
                before: decided?.before, after: decided?.after)
            #expect(actual == DifferenceKey(observation), "\(observation.url)")
        }
    }

    @Test func oneAppTakingAURLFromAnotherIsAChangeOfApp() throws {
        let environment = ["environments/production.yaml": Self.environment(clip: true)]
        let base =
            "applinks:\n  - apps: [clip]\n    rules:\n      - path: /clip/*\n"
            + "  - apps: [example]\n    rules:\n      - path: /*\n"
        let head =
            "applinks:\n  - apps: [clip]\n    rules:\n      - path: /clip/*\n        exclude: true\n"
            + "  - apps: [example]\n    rules:\n      - path: /*\n"
        let changes = BehaviourDiff.changes(
            base: try snapshot(environment.merging(["domains/example.yaml": base]) { $1 }),
            head: try snapshot(environment.merging(["domains/example.yaml": head]) { $1 }))
        // Both apps matched /clip/… before; now only the main app does: the clip loses it.
        #expect(changes.map(\.kind) == [.opensWeb])
        #expect(changes.first?.app == "ABCDE12345.com.example.app.Clip")
        #expect(changes.first?.witnesses.first == "https://example.com/clip")
    }

    @Test func aTinyBudgetIsReportedNotPassed() throws {
        let base = Self.domain("      - path: /admin/*\n        exclude: true\n      - path: /*\n")
        // A wildcard between every letter: the region takes more than the smallest budget.
        let wildcards = "*/" + "abcdefghijklmnopqrstuvwxyz".map(String.init).joined(separator: "*")
        let head = Self.domain(
            "      - path: \"\(wildcards)\"\n      - path: /admin/*\n        exclude: true\n      - path: /*\n")
        let comparison = try Self.compare(base, head, limits: ProofLimits(region: 1_000, total: 1_000))
        let unproven = try #require(comparison.unproven.first)
        #expect(unproven.baseRule == "/admin/* (exclude)")
        #expect(unproven.headRule == wildcards)
        #expect(unproven.touchesExclusion)
        #expect(comparison.observations.allSatisfy { !$0.exhaustive })
        let proven = try Self.compare(base, head)
        #expect(proven.unproven.isEmpty)
        #expect(proven.observations.contains { $0.url == "https://example.com/admin/abcdefghijklmnopqrstuvwxyz" })
    }

    /// The proofs of a comparison run on every core, and still meet its total in order: given
    /// the fewest steps that settle the iOS proof alone, iOS (proven first) is settled and
    /// Android is not, however the threads ran.
    @Test func proofsOnEveryCoreShareTheTotalInOrder() throws {
        let base = Self.domain("      - path: /admin/*\n        exclude: true\n      - path: /*\n", android: true)
        let wildcards = "*/" + "abcdefghijklmnopqrstuvwxyz".map(String.init).joined(separator: "*")
        let head = Self.domain(
            "      - path: \"\(wildcards)\"\n      - path: /admin/*\n        exclude: true\n      - path: /*\n",
            android: true)
        func limits(_ total: Int) -> ProofLimits { ProofLimits(region: ProofLimits.standard.region, total: total) }
        var (fewest, enough) = (ProofLimits.minimumSteps, ProofLimits.standard.total)
        while fewest < enough {
            let middle = (fewest + enough) / 2
            if try Self.compare(base, head, limits: limits(middle)).unproven.isEmpty {
                enough = middle
            } else {
                fewest = middle + 1
            }
        }
        for _ in 0..<8 {
            let comparison = try Self.compare(base, head, android: true, limits: limits(fewest))
            #expect(!comparison.unproven.contains { $0.platform == .ios })
            #expect(comparison.unproven.contains { $0.platform == .android })
        }
    }

    @Test func legacyPathsAndComponentsDecideAlike() throws {
        let rules = "      - path: /a/*\n      - path: /b\n        exclude: true\n"
        let base = Self.domain(rules)
        let head = Self.domain(rules) + "emit:\n  legacy_paths: true\n"
        let comparison = try Self.compare(base, head)
        #expect(comparison.observations.isEmpty && comparison.unproven.isEmpty)
    }
}
