import Foundation
import Testing

@testable import LinkwrightCore

/// Revisions made in one `RevisionCache` read each unchanged file and compile each unchanged
/// association file once; what a revision changed is read and compiled anew, so they decide and
/// compare exactly as revisions made alone. What a revision keeps goes when it is released.
@Suite struct RevisionCacheTests {
    /// Production serves the shop to iOS and Android; `shop` is its rule list. A `?*` rule is
    /// read otherwise by the first Android 15 parser, so that release's reading counts too.
    static func files(shop: String) -> [SourceFile] {
        RuleExampleConfiguration.files.merging(
            [
                "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n" + shop
                    + "emit:\n  android_dynamic_rules: true\n"
            ]
        ) { $1 }
        .sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
    }

    static let revisions = [
        files(shop: "      - path: /products/*\n"),
        files(shop: "      - path: /sale/?*x\n      - path: /products/*\n"),
        files(shop: "      - path: /products/*\n      - path: /deals/*\n"),
    ]

    @Test func revisionsOfOneCacheDecideAndCompareAsRevisionsMadeAlone() throws {
        let cache = RevisionCache()
        let shared = try Self.revisions.map { try #require(cache.make($0).revision) }
        let alone = try Self.revisions.map { try #require(RevisionCache().make($0).revision) }
        for (before, after) in [(0, 1), (1, 2), (0, 2)] {
            let changes = BehaviourDiff.changes(base: shared[before], head: shared[after])
            #expect(!changes.isEmpty)
            #expect(changes == BehaviourDiff.changes(base: alone[before], head: alone[after]))
            let structural = StructuralDiff.changes(base: shared[before], head: shared[after])
            #expect(!structural.isEmpty)
            #expect(structural == StructuralDiff.changes(base: alone[before], head: alone[after]))
        }
        for (shared, alone) in zip(shared, alone) {
            for release in AndroidRelease.allCases {
                let one = try #require(shared.evaluator("production", androidRelease: release))
                let other = try #require(alone.evaluator("production", androidRelease: release))
                for path in ["/sale/1x", "/sale/x", "/products/1", "/deals/1", "/other"] {
                    let url = try #require(LinkURL("https://shop.example" + path))
                    for platform in Platform.allCases {
                        let decided = one.verdicts(for: url, platform: platform).map { [$0.identity, "\($0.opens)"] }
                        #expect(
                            decided
                                == other.verdicts(for: url, platform: platform).map { [$0.identity, "\($0.opens)"] })
                    }
                }
            }
        }
    }

    /// Revisions of one cache compare as revisions made alone through a history that moves
    /// every rule: an insertion at the top, `/café` respelt from NFC to NFD and nothing else
    /// (equal `String`s that devices tell apart), an insertion with a move and a deletion, and a
    /// query rule inserted with `/café` respelt back, each pair compared after the one before it
    /// in the same cache: what a cache keeps across revisions must key a rule by its exact text.
    @Test func rulesMovedAndRespeltCompareAsRevisionsMadeAlone() throws {
        func rule(_ path: String) -> String { "      - path: \"\(path)\"\n" }
        let (nfc, nfd) = (rule("/caf\u{E9}/*"), rule("/cafe\u{301}/*"))
        let query = rule("/query/*") + "        query: {ref: \"?*\"}\n"
        let (products, deals, new, newer) = (rule("/products/*"), rule("/deals/*"), rule("/new/*"), rule("/newer/?*"))
        let revisions = [
            [products, nfc, deals],
            [new, products, nfc, deals],
            [new, products, nfd, deals],
            [newer, products, new, nfd],
            [query, newer, products, new, nfc],
        ].map { Self.files(shop: $0.joined()) }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        let alone = try revisions.map { try #require(RevisionCache().make($0).revision) }
        for after in 1..<revisions.count {
            let changes = BehaviourDiff.changes(base: shared[after - 1], head: shared[after])
            #expect(!changes.isEmpty, "\(after)")
            #expect(changes == BehaviourDiff.changes(base: alone[after - 1], head: alone[after]), "\(after)")
            #expect(
                StructuralDiff.changes(base: shared[after - 1], head: shared[after])
                    == StructuralDiff.changes(base: alone[after - 1], head: alone[after]), "\(after)")
        }
        // The respelt rule opens the app for its own spelling only, on both platforms.
        let respelt = BehaviourDiff.changes(base: shared[1], head: shared[2])
        #expect(
            Platform.allCases.allSatisfy { platform in
                respelt.contains { $0.platform == platform && $0.witnesses.contains { $0.contains("caf") } }
            })
    }

    /// A decision list is made as an edit of the last one made for its file and app
    /// (`DecisionListLineage`): a seeded chain of revisions inserting, deleting, moving, respelling
    /// (NFC and NFD), excluding and re-routing rules and changing or respelling the substitution
    /// variables some of them read, its lists made in a shuffled order in one
    /// cache, must give every revision the lists it has made alone, rule by rule (keys, labels,
    /// routes and where each rule is written), and the same changes between neighbours.
    @Test(arguments: [UInt64(1), 2, 3])
    func listsMadeAsEditsOfEarlierOnesAreThoseOfRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> String {
            serial += 1
            let word = ["caf\u{E9}", "shoes", "Sale"].randomElement(using: &generator)!
            let path = [
                "/\(word)\(serial)/*", "/\(word)/\(serial)", "*/\(word)\(serial).html", "/$(section)/\(serial)",
            ].randomElement(using: &generator)!
            var text = "      - path: \"\(path)\"\n"
            if Int.random(in: 0..<5, using: &generator) == 0 { text += "        query: {ref: \"?*\"}\n" }
            // Every rule opening the app names a route, or none does.
            if Int.random(in: 0..<5, using: &generator) == 0 { return text + "        exclude: true\n" }
            return text + "        route: \(Bool.random(using: &generator) ? "ticket" : "order")\n"
        }
        var rules = (0..<8).map { _ in rule() }
        var sections = ["news", "caf\u{E9}"]
        // The shop's file with its substitution variables (iOS reads them).
        func files() -> [SourceFile] {
            Self.files(shop: rules.joined()).map { file in
                guard file.path == "domains/shop.yaml" else { return file }
                let variables = "variables:\n  section: [\(sections.joined(separator: ", "))]\n"
                return SourceFile(path: file.path, bytes: Array(variables.utf8) + file.bytes)
            }
        }
        var revisions = [files()]
        for _ in 0..<8 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<rules.count, using: &generator)
                let choice = Int.random(in: 0..<7, using: &generator)
                let random = { (range: ClosedRange<Int>) in Int.random(in: range, using: &generator) }
                if SeededRuleEdits.apply(choice, at: position, to: &rules, random: random, rule: rule) { continue }
                switch choice {
                case 4:
                    // The same rule text leading elsewhere.
                    rules[position] =
                        rules[position].contains("route: ticket")
                        ? rules[position].replacingOccurrences(of: "route: ticket", with: "route: order")
                        : rules[position].replacingOccurrences(of: "route: order", with: "route: ticket")
                case 5:
                    // The variables' values change, or are respelt, under unchanged rules.
                    sections[1] = SeededRuleEdits.respelt(sections[1])
                default: rules.insert(rule(), at: Int.random(in: 0...rules.count, using: &generator))
                }
            }
            revisions.append(files())
        }
        func described(_ lists: [DecisionList]?) -> [[String]] {
            (lists ?? []).map { list in
                [list.identity, "\(list.blocks.count)"]
                    + list.rules.map {
                        // Exact: `String`'s equality would take a test's NFC and NFD spellings for one.
                        ExactText.key(
                            [$0.key, $0.label, $0.route ?? "-", $0.origin?.description ?? "-"].joined(separator: "|"))
                    }
            }
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        let alone = try revisions.map { try #require(RevisionCache().make($0).revision) }
        var requests: [(revision: Int, release: AndroidRelease, platform: Platform)] = []
        for revision in revisions.indices {
            for release in AndroidRelease.allCases {
                for platform in Platform.allCases { requests.append((revision, release, platform)) }
            }
        }
        requests.shuffle(using: &generator)
        for (revision, release, platform) in requests {
            let lists = shared[revision].decisionLists(
                "production", androidRelease: release, host: "shop.example", platform: platform)
            let listsAlone = alone[revision].decisionLists(
                "production", androidRelease: release, host: "shop.example", platform: platform)
            #expect(!described(lists).isEmpty)
            #expect(described(lists) == described(listsAlone), "revision \(revision), \(release), \(platform)")
        }
        for after in 1..<revisions.count {
            #expect(
                BehaviourDiff.changes(base: shared[after - 1], head: shared[after])
                    == BehaviourDiff.changes(base: alone[after - 1], head: alone[after]), "\(after)")
        }
    }

    /// Two revisions whose only difference is a filter scope spelt NFC, then NFD: Android tells
    /// them apart, so the rules both share must not be taken from the first revision's list,
    /// whose tests carry the other spelling.
    @Test func aScopeRespeltInAnotherUnicodeFormIsAnotherFilter() throws {
        let revisions = ["caf\u{E9}", "cafe\u{301}"].map { word in
            Self.files(
                shop:
                    "      - path: \"/\(word)/*\"\n        route: ticket\n      - path: /shoes/*\n        route: order\n"
            )
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        let alone = try revisions.map { try #require(RevisionCache().make($0).revision) }
        for (revision, release, platform) in [0, 1].flatMap({ revision in
            AndroidRelease.allCases.map { (revision, $0, Platform.android) }
        }) {
            let exact = { (lists: [DecisionList]?) in
                (lists ?? []).flatMap { $0.rules.map { ExactText.key($0.key + "|" + $0.label) } }
            }
            let made = exact(
                shared[revision].decisionLists(
                    "production", androidRelease: release, host: "shop.example", platform: platform))
            #expect(!made.isEmpty)
            #expect(
                made
                    == exact(
                        alone[revision].decisionLists(
                            "production", androidRelease: release, host: "shop.example", platform: platform)),
                "revision \(revision), \(release)")
        }
    }

    /// A compiled file is kept while a revision whose evaluators read it is not released, so
    /// sharing costs no memory past the revisions in use.
    @Test func compiledFilesAreKeptWhileARevisionReadsThem() throws {
        let cache = RevisionCache()
        let revisions = try Self.revisions.prefix(2).map { try #require(cache.make($0).revision) }
        for revision in revisions {
            for release in AndroidRelease.allCases { _ = revision.evaluator("production", androidRelease: release) }
        }
        let kept = cache.held.compiledFiles
        #expect(kept > 0 && cache.held.revisions == 2)
        revisions[0].release()
        let afterFirst = cache.held.compiledFiles
        #expect(afterFirst > 0 && afterFirst < kept, "the second still reads its files and the first's unchanged ones")
        let url = try #require(LinkURL("https://shop.example/sale/1x"))
        let evaluator = try #require(revisions[1].evaluator("production"))
        let opened = evaluator.verdicts(for: url, platform: .android).contains { $0.opens }
        #expect(opened)
        revisions[1].release()
        #expect(cache.held == (revisions: 0, compiledFiles: 0))
    }

    /// A long walk (a changelog over many tags) comparing each revision with the next and
    /// releasing each once both its comparisons are done holds two revisions' work at most, and
    /// nothing at its end, however long it runs.
    @Test func aWalkReleasingWhatItComparedStaysBounded() throws {
        let cache = RevisionCache()
        var previous = try #require(cache.make(Self.revisions[0]).revision)
        for step in 1..<30 {
            let next = try #require(cache.make(Self.revisions[step % Self.revisions.count]).revision)
            _ = BehaviourDiff.changes(base: previous, head: next)
            _ = StructuralDiff.changes(base: previous, head: next)
            #expect(cache.held.revisions == 2)
            previous.release()
            previous = next
        }
        previous.release()
        #expect(cache.held == (revisions: 0, compiledFiles: 0))
    }

    /// A served file compared with the build (`verify`, each `monitor` round) releases both
    /// revisions before the comparison returns: rounds keep nothing of each other.
    @Test func aServingComparisonKeepsNothing() throws {
        func shop(_ files: [SourceFile]) throws -> CompiledSite {
            let compiled = try #require(PolicySnapshot.make(files).snapshot).compiled
            let production = try #require(compiled.environments.first { $0.name == "production" })
            return try #require(production.sites.first { $0.fileHost.name == "shop.example" })
        }
        let built = try shop(Self.revisions[1])
        let served = try shop(Self.revisions[2])
        let caches = (served: RevisionCache(), built: RevisionCache())
        for _ in 0..<3 {
            let comparison = ServingCheck.compared(
                actual: .artifacts(aasa: served.aasa, assetLinks: nil, host: served.fileHost), expected: built,
                file: .aasa, host: "shop.example", caches: caches)
            #expect(comparison.differs)
            #expect(caches.served.held == (revisions: 0, compiledFiles: 0))
            #expect(caches.built.held == (revisions: 0, compiledFiles: 0))
        }
    }

    /// Production also serves `news.example` from a domain no revision changes.
    static func withNews(_ files: [SourceFile]) -> [SourceFile] {
        let news =
            "applinks:\n  - apps: [shop]\n    rules:\n      - path: /news/*\n"
            + "emit:\n  android_dynamic_rules: true\n"
        return files.map { file in
            guard file.path == "environments/production.yaml" else { return file }
            let text = String(decoding: file.bytes, as: UTF8.self) + "  news.example: news\n"
            return SourceFile(path: file.path, bytes: Array(text.utf8))
        } + [SourceFile(path: "domains/news.yaml", bytes: Array(news.utf8))]
    }

    /// Revisions of one cache hold one instance of each association file: a revision's
    /// unchanged domain serves the instance the revision before it compiled (so comparing the
    /// two costs nothing), and a changed domain its own.
    @Test func unchangedDomainsServeOneInstanceOfTheirFiles() throws {
        func site(_ snapshot: CachedRevision, _ host: String) throws -> CompiledSite {
            let production = try #require(snapshot.compiled.environments.first { $0.name == "production" })
            return try #require(production.sites.first { $0.fileHost.name == host })
        }
        func sameInstance(_ one: CompiledSite, _ other: CompiledSite) -> Bool {
            storageAddress(one.aasa?.applinks?.details) == storageAddress(other.aasa?.applinks?.details)
                && storageAddress(one.assetLinks?.statements) == storageAddress(other.assetLinks?.statements)
        }
        let cache = RevisionCache()
        let shared = try Self.revisions.prefix(2).map { try #require(cache.make(Self.withNews($0)).revision) }
        let alone = try #require(RevisionCache().make(Self.withNews(Self.revisions[1])).revision)
        let news = try (site(shared[0], "news.example"), site(shared[1], "news.example"))
        #expect(news.0.aasa != nil && news.0.assetLinks != nil)
        #expect(sameInstance(news.0, news.1))
        #expect(!sameInstance(news.0, try site(alone, "news.example")), "made alone, a revision compiles its own")
        #expect(try !sameInstance(site(shared[0], "shop.example"), site(shared[1], "shop.example")))
        #expect(try site(shared[1], "shop.example").aasa == site(alone, "shop.example").aasa)
        // The structural diff's rule lists of the unchanged domain are one instance too.
        func newsList(_ snapshot: CachedRevision) throws -> [RuleSignature] {
            let sequences = snapshot.ruleSequences("production")
            let key = RuleSequences.Key(host: "news.example", platform: .ios, app: "ABCDE12345.com.example.shop")
            return sequences.lists[try #require(sequences.list(of: key))]
        }
        #expect(try storageAddress(newsList(shared[0])) == storageAddress(newsList(shared[1])))
        #expect(try storageAddress(newsList(shared[0])) != storageAddress(newsList(alone)))
    }

    /// A domain's own checks are taken from a load before only when the environments and the
    /// files that did not load are the same: renaming the app it names, or breaking the
    /// environments that define it, changes what the unchanged domain is diagnosed with.
    @Test func domainChecksAreReusedForTheSameEnvironmentsOnly() throws {
        let base = Self.files(shop: "      - path: /products/*\n")
        func replacing(_ old: String, with new: String) -> [SourceFile] {
            base.map { file in
                guard file.path.hasPrefix("environments/") else { return file }
                let text = String(decoding: file.bytes, as: UTF8.self)
                return SourceFile(path: file.path, bytes: Array(text.replacingOccurrences(of: old, with: new).utf8))
            }
        }
        let renamed = replacing("  shop:\n    ios:", with: "  boutique:\n    ios:")
        let broken = replacing("tier: ", with: "tier: [")
        let readings = ConfigLoader.Readings()
        for files in [base, renamed, base, broken, renamed, base] {
            let reused = ConfigLoader().load(files, reusing: readings).diagnostics
            #expect(reused == ConfigLoader().load(files).diagnostics)
        }
        #expect(ConfigLoader().load(renamed).diagnostics.contains { $0.id == .undefinedApp })
    }

    /// A file's reading is reused for the same path and bytes only, its diagnostics with it.
    @Test func readingsAreReusedForTheSamePathAndBytesOnly() {
        let readings = ConfigLoader.Readings()
        let broken = Self.files(shop: "      - path: [\n")
        for files in [broken, Self.revisions[1], broken, Self.revisions[2]] {
            let reused = ConfigLoader().load(files, reusing: readings)
            let fresh = ConfigLoader().load(files)
            #expect(reused.diagnostics == fresh.diagnostics)
            #expect(
                reused.configuration?.domains.map { $0.applinks.map(\.rules.count) }
                    == fresh.configuration?.domains.map { $0.applinks.map(\.rules.count) })
        }
        #expect(ConfigLoader().load(broken, reusing: readings).diagnostics.contains { $0.severity == .error })
    }

    /// A reading is taken for exactly the bytes it was read from: a seeded chain of same-length
    /// edits (a digit anywhere, in the last bytes of the file, two rules swapped) loads with shared
    /// readings, in a seeded order that returns to earlier revisions and now and then forgets all
    /// readings but the last revision's, as each revision read alone.
    @Test(arguments: [UInt64(1), 2, 3])
    func sameLengthEditsLoadAsFilesReadAlone(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        func digit() -> Int { Int.random(in: 0...9, using: &generator) }
        var rules = (0..<12).map { _ in "/r\(digit())\(digit())\(digit())/*" }
        var last = "/z\(digit())"
        // The last rule ends the file, its digit among the bytes after the last whole word of
        // eight (the file's length is padded by a comment to 4 past a multiple of eight).
        func files() -> [SourceFile] {
            let rules =
                "applinks:\n  - apps: [shop]\n    rules:\n"
                + (rules + [last]).map { "      - path: \($0)\n" }.joined()
            let emit = "emit:\n  android_dynamic_rules: true\n"
            let padding = String(repeating: " ", count: (4 - (emit.utf8.count + rules.utf8.count + 2) % 8 + 8) % 8)
            return Self.files(shop: "").map { file in
                guard file.path == "domains/shop.yaml" else { return file }
                return SourceFile(path: file.path, bytes: Array(("#" + padding + "\n" + emit + rules).utf8))
            }
        }
        var revisions = [files()]
        for _ in 0..<20 {
            let at = Int.random(in: 0..<rules.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                var scalars = Array(rules[at].unicodeScalars)
                scalars[Int.random(in: 2...4, using: &generator)] = Unicode.Scalar(UInt8(48 + digit()))
                rules[at] = String(String.UnicodeScalarView(scalars))
            case 1: last = "/z\(digit())"
            default: rules.swapAt(at, Int.random(in: 0..<rules.count, using: &generator))
            }
            revisions.append(files())
        }
        let readings = ConfigLoader.Readings()
        var order = Array(revisions.indices) + revisions.indices.shuffled(using: &generator)
        order.shuffle(using: &generator)
        let alone = revisions.map { Self.rulePaths($0, nil) }
        for index in order {
            #expect(alone[index].count == 13)
            #expect(Self.rulePaths(revisions[index], readings) == alone[index], "revision \(index)")
            // Now and then the readings but this revision's are forgotten, as a changelog's window
            // ends: its own are still shared.
            if Int.random(in: 0..<4, using: &generator) == 0 {
                func rules() -> [AppLinksEntry]? {
                    ConfigLoader().load(revisions[index], reusing: readings).configuration?.domains.first?.applinks
                }
                let before = rules()
                readings.forget(keeping: revisions[index])
                #expect(storageAddress(rules()) == storageAddress(before))
            }
        }
        // Read on every core at once, sharing readings made meanwhile.
        let concurrent = ConfigLoader.Readings()
        let read = (revisions + revisions).parallelMap { Self.rulePaths($0, concurrent) }
        #expect(read == alone + alone)
    }

    /// The exact text of every rule path `files` load to.
    static func rulePaths(_ files: [SourceFile], _ readings: ConfigLoader.Readings?) -> [[Unicode.Scalar]] {
        let configuration = ConfigLoader().load(files, reusing: readings).configuration
        return (configuration?.domains ?? []).flatMap { domain in
            domain.applinks.flatMap { $0.rules.map { Array(($0.path?.value ?? "").unicodeScalars) } }
        }
    }
}
