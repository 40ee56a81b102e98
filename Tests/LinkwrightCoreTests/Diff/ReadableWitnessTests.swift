import Testing

@testable import LinkwrightCore

/// Release notes show a change with a rule's URL when one shows it. Past the change's own rules,
/// only the URLs some app decides differently on the two sides are looked through, found once
/// for all the changes of the hosts deciding alike (`ReleaseNoteWitnesses.DifferingURLs`), and
/// a change is shown alike on those hosts: each change must still be shown with the URL it would
/// be shown with alone.
@Suite struct ReadableWitnessTests {
    typealias Verdict = EnvironmentEvaluator.Verdict

    /// `shows` asks for an app opening the URL on one side only; `differs` says whether there is
    /// one. Seeded verdicts of three apps, each claiming the host or not and matching or not.
    @Test func noURLDecidedAlikeOnBothSidesShowsAChange() {
        var generator = SplitMix64(seed: 51)
        let identities = ["A.one", "A.two", "A.three"]
        let outcomes: [LinkOutcome] = [.match, .exclude, .noMatch]
        func verdicts() -> [Verdict] {
            identities.shuffled(using: &generator).prefix(Int.random(in: 0...3, using: &generator)).map { identity in
                Verdict(
                    platform: .ios, app: identity, identity: identity,
                    claim: Bool.random(using: &generator) ? .exact("h.example") : .none, fileHost: nil, scope: nil,
                    decision: LinkDecision(outcome: outcomes.randomElement(using: &generator)!))
            }
        }
        let kinds: [LinkChange.Kind] = [.opensApp, .opensWeb, .changesApp, .changesRoute, .ruleAdded]
        var shown = 0
        for _ in 0..<20_000 {
            let pair = (before: verdicts(), after: verdicts())
            let app = ([nil] + identities).randomElement(using: &generator)!
            let change = LinkChange(
                kind: kinds.randomElement(using: &generator)!, environment: "production", host: "h.example",
                platform: .ios, app: app, before: identities.randomElement(using: &generator),
                after: identities.randomElement(using: &generator))
            if ReleaseNoteWitnesses.shows(change, pair) {
                shown += 1
                #expect(ReleaseNoteWitnesses.differs(pair), "\(change.kind) \(pair)")
            }
            // Alike: the same apps open the URL on both sides.
            let opened = { (side: [Verdict]) in Set(side.filter(\.opens).map(\.identity)) }
            #expect(ReleaseNoteWitnesses.differs(pair) == (opened(pair.before) != opened(pair.after)))
        }
        #expect(shown > 300)
    }

    /// An exclusion inserted above a narrower rule, on a line where the old side has a rule of
    /// its own: neither rule written on the change's line shows that `/a/b/…` no longer opens
    /// the apps, so each app's change on each host looks past them to the narrower rule's URL,
    /// the second app's where the first found it.
    @Test func changesLookingPastTheirOwnRulesShareWhatTheHostFound() throws {
        let cache = RevisionCache()
        let kiosk = ["      - path: /k\n"]
        let base = try revision(
            Self.domain(["      - path: /q\n", "      - path: /z\n", "      - path: /a/b/*\n"], kiosk), in: cache)
        let head = try revision(
            Self.domain(
                [
                    "      - path: /q\n", "      - path: /a/*\n        exclude: true\n", "      - path: /z\n",
                    "      - path: /a/b/*\n",
                ], kiosk), in: cache)
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.kind == .opensWeb }
        let shown = ReleaseNoteWitnesses.readable(changes, base: base, head: head)
        // Two apps, two platforms, nine hosts.
        #expect(shown.count == 36)
        for change in shown {
            #expect(
                change.witnesses.first?.hasSuffix("/a/b/example") == true, "\(change.host ?? "") \(change.witnesses)")
        }
    }

    /// One rule removed for both apps, whose first URL the kiosk still opens through a rule of
    /// its own: on every host each app's change is shown by a URL of its own, though both
    /// changes point at the same rule and hosts deciding alike share what they found.
    @Test func appsLosingOneRuleAreEachShownByTheirOwnURL() throws {
        let cache = RevisionCache()
        let kiosk = ["      - path: /a/example\n"]
        let base = try revision(Self.domain(["      - path: /q\n", "      - path: /a/*\n"], kiosk), in: cache)
        let head = try revision(Self.domain(["      - path: /q\n"], kiosk), in: cache)
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.kind == .opensWeb }
        let shown = ReleaseNoteWitnesses.readable(changes, base: base, head: head)
        // Two apps, two platforms, nine hosts.
        #expect(shown.count == 36)
        for change in shown {
            let expected = change.app?.contains("kiosk") == true ? "/a/1" : "/a/example"
            #expect(
                change.witnesses.first == "https://\(change.host ?? "")\(expected)",
                "\(change.app ?? "") \(change.host ?? "") \(change.witnesses)")
        }
    }

    /// A release writes each rule's URLs once for all its books, keyed by the rule's text:
    /// canonically equivalent spellings are different rules with different URLs.
    @Test func ruleTextsWriteEquivalentSpellingsApart() {
        let texts = ReleaseNoteWitnesses.RuleTexts()
        let composed = texts.urls(of: .legacyPath(ExactText("/caf\u{E9}")))
        let decomposed = texts.urls(of: .legacyPath(ExactText("/cafe\u{301}")))
        #expect(composed == ["/caf%C3%A9"])
        #expect(decomposed == ["/cafe%CC%81"])
        let item = AASAQueryItem(name: "q", pattern: "\u{E9}")
        #expect(
            texts.urls(of: .dynamic(path: nil, query: [item], fragment: nil))
                != texts.urls(
                    of: .dynamic(path: nil, query: [AASAQueryItem(name: "q", pattern: "e\u{301}")], fragment: nil)))
    }

    static let words = ["shop", "news", "help", "cart", "docs"]

    /// A seeded rule of the fleet's domain file.
    static func rule(_ generator: inout SplitMix64, _ serial: Int) -> String {
        let word = words.randomElement(using: &generator)!
        var text =
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: "      - path: /\(word)\(serial)/*\n"
            case 1: "      - path: /\(word)/*\n"
            case 2: "      - path: /\(word)\(serial)\n"
            case 3: "      - path: /\(word)/\(serial)?*\n"
            default: "      - path: /*/\(word)\(serial)\n"
            }
        if Int.random(in: 0..<6, using: &generator) == 0 { text += "        exclude: true\n" }
        if Int.random(in: 0..<6, using: &generator) == 0 { text += "        query: {ref: \"?*\"}\n" }
        return text
    }

    static func domain(_ shop: [String], _ kiosk: [String]) -> String {
        "applinks:\n  - apps: [shop, kiosk]\n    rules:\n" + shop.joined()
            + "  - apps: [kiosk]\n    rules:\n" + kiosk.joined() + "emit:\n  android_dynamic_rules: true\n"
    }

    private func revision(_ domain: String, in cache: RevisionCache) throws -> CachedRevision {
        let files = ThreeEnvironmentFleet.files(domain: domain)
        let sources = files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
        let (revision, diagnostics) = cache.make(sources)
        return try #require(revision, "\(diagnostics.filter { $0.severity == .error })")
    }

    /// Seeded edits of a 40-rule file (rules inserted, removed, narrowed, moved and their
    /// exclusions flipped): every change of a release is shown as when it is shown alone, where
    /// the first change of the hosts deciding alike finds the URLs that differ and the next ones
    /// reuse them, and a change found on one host is shown alike on the others.
    @Test func eachChangeIsShownAsWhenAlone() throws {
        var shownByRule = 0
        for seed in UInt64(1)...8 { shownByRule += try showEachChange(seed: seed) }
        #expect(shownByRule > 20, "too few changes were shown with a rule's URL to tell")
    }

    /// How many changes of seed `seed`'s release are shown with a rule's URL.
    private func showEachChange(seed: UInt64) throws -> Int {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rules(_ count: Int) -> [String] {
            (0..<count).map { _ in
                serial += 1
                return Self.rule(&generator, serial)
            }
        }
        let (shop, kiosk) = (rules(40), rules(8))
        var edited = shop
        // Up to a dozen edits: a host's app then loses or gains links at several rules.
        for _ in 0..<Int.random(in: 2...12, using: &generator) {
            let at = Int.random(in: 0..<edited.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: edited.insert(contentsOf: rules(1), at: at)
            case 1: edited.remove(at: at)
            case 2:
                // Narrowed: `/x` appended to the path, the rule's first line.
                let end = edited[at].firstIndex(of: "\n")!
                edited[at].replaceSubrange(end..<edited[at].index(after: end), with: "/x\n")
            case 3: edited.insert(edited.remove(at: at), at: Int.random(in: 0..<edited.count, using: &generator))
            default:
                edited[at] =
                    edited[at].contains("exclude")
                    ? edited[at].replacingOccurrences(of: "        exclude: true\n", with: "")
                    : edited[at] + "        exclude: true\n"
            }
        }
        let cache = RevisionCache()
        let base = try revision(Self.domain(shop, kiosk), in: cache)
        let head = try revision(Self.domain(edited, kiosk), in: cache)
        let changes = BehaviourDiff.changes(base: base, head: head)
        let together = ReleaseNoteWitnesses.readable(changes, base: base, head: head)
        #expect(together.count == changes.count)
        var shownByRule = 0
        for (change, shown) in zip(changes, together) {
            let alone = try #require(ReleaseNoteWitnesses.readable([change], base: base, head: head).first)
            let place =
                "seed \(seed): \(change.kind) \(change.environment) \(change.host ?? "") \(change.platform?.rawValue ?? "")"
            #expect(shown.witnesses == alone.witnesses, "\(place)")
            #expect(shown.routeBefore == alone.routeBefore && shown.routeAfter == alone.routeAfter, "\(place)")
            if shown.witnesses != change.witnesses { shownByRule += 1 }
        }
        return shownByRule
    }

    /// Hosts whose keys (`SharedHostDecisions.decidingKeys`) are equal share one list of the
    /// URLs some app opens on one side only, so on each of them an app opens the same URLs on
    /// each side. Seeded edits of three domains served by seven hosts (a wildcard among them):
    /// `shop` and `outlet` read by both apps with other rules, `news` by one app without
    /// Android's dynamic rules. Hosts of one domain share a key, hosts of others do not.
    @Test func hostsWithEqualDecidingKeysOpenTheSameURLs() throws {
        var generator = SplitMix64(seed: 68)
        var serial = 0
        func rules(_ count: Int) -> [String] {
            (0..<count).map { _ in
                serial += 1
                return Self.rule(&generator, serial)
            }
        }
        func edited(_ rules: [String]) -> [String] {
            var edited = rules
            for _ in 0..<3 { edited.remove(at: Int.random(in: 0..<edited.count, using: &generator)) }
            edited.insert(
                contentsOf: (0..<3).map { _ in Self.rule(&generator, Int.random(in: 1...serial, using: &generator)) },
                at: 0)
            return edited
        }
        let (shop, outlet, news) = (rules(12), rules(12), rules(8))
        func both(_ rules: [String]) -> String {
            "applinks:\n  - apps: [shop, kiosk]\n    rules:\n" + rules.joined()
                + "emit:\n  android_dynamic_rules: true\n"
        }
        func files(_ shop: [String], _ outlet: [String], _ news: [String]) -> [SourceFile] {
            let fingerprint = ThreeEnvironmentFleet.fingerprint
            let apps = ["shop", "kiosk"].map { app in
                "  \(app):\n    ios: {bundle_id: com.example.\(app)}\n"
                    + "    android: {package: com.example.\(app), fingerprints: {play-signing: \"\(fingerprint)\"}}\n"
            }
            let hosts = [
                "a.example: shop", "b.example: shop", "w.example: shop", "\"*.w.example\": shop", "o.example: outlet",
                "n1.example: news", "n2.example: news",
            ]
            return [
                (
                    "environments/production.yaml",
                    "tier: production\nteam_id: ABCDE12345\napps:\n" + apps.joined() + "hosts:\n"
                        + hosts.map { "  \($0)\n" }.joined()
                ),
                ("domains/shop.yaml", both(shop)),
                ("domains/outlet.yaml", both(outlet)),
                ("domains/news.yaml", "applinks:\n  - apps: [shop]\n    rules:\n" + news.joined()),
            ].map { SourceFile(path: $0.0, bytes: Array($0.1.utf8)) }
        }
        let cache = RevisionCache()
        func revision(_ sources: [SourceFile]) throws -> CachedRevision {
            let (revision, diagnostics) = cache.make(sources)
            return try #require(revision, "\(diagnostics.filter { $0.severity == .error })")
        }
        let base = try revision(files(shop, outlet, news))
        let head = try revision(files(edited(shop), edited(outlet), edited(news)))
        let (old, new) = (try #require(base.evaluator("production")), try #require(head.evaluator("production")))
        let urls = (1...serial).flatMap { number in
            Self.words.flatMap { word in
                [
                    "/\(word)\(number)/x", "/\(word)/\(number)y", "/\(word)\(number)", "/x/\(word)\(number)",
                    "/\(word)/x?ref=\(number)",
                ]
            }
        }.compactMap(LinkURL.init)
        var sharedPairs = 0
        for platform in Platform.allCases {
            let shared = SharedFileDecisions()
            let hosts = ["a.example", "b.example", "w.example", "x.w.example", "o.example", "n1.example", "n2.example"]
            let decisions = hosts.map {
                SharedHostDecisions(host: $0, platform: platform, old: old, new: new, sharing: shared)
            }
            let keys = decisions.map { $0.decidingKeys() }
            #expect(Set(keys.compactMap { $0 }).count == 3, "\(platform): shop, outlet and news decide apart")
            for (first, second) in zip(hosts.indices, hosts.indices.dropFirst()) where keys[first] == keys[second] {
                #expect(keys[first] != nil)
                for url in urls {
                    let opened = [first, second].map { index in
                        let on = url.on(host: hosts[index])
                        return ReleaseNoteWitnesses.differs(
                            (
                                decisions[index].verdicts(on, onNewSide: false),
                                decisions[index].verdicts(on, onNewSide: true)
                            ))
                    }
                    #expect(opened[0] == opened[1], "\(platform) \(hosts[first]) \(hosts[second]) \(url)")
                }
                sharedPairs += 1
            }
        }
        #expect(sharedPairs == 8, "a, b, w and x.w share on each platform, and n1 and n2")
    }
}
