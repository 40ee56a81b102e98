import Testing

@testable import LinkwrightCore

/// A file compiled as an edit of its earlier revision (the rules both begin and end with keep
/// their compiled patterns and decide through the earlier file's index) must decide every URL
/// as the same file compiled alone: the same rule, at the same position and origin, traced or
/// not, for every Android release, whether the shared index is built yet or not.
@Suite struct RuleListEditTests {
    /// A chain of revisions of one rule list: rules inserted, deleted, moved, respelt between
    /// NFC and NFD (equal `String`s that devices tell apart), excluded or included, and with
    /// `duplicating`, copied elsewhere; every rule written on its own line, so where the rules
    /// after an edit are written moves.
    static func revisions(_ generator: inout SplitMix64, count: Int, duplicating: Bool = false) -> [[DynamicComponent]]
    {
        func rule() -> DynamicComponent {
            let word = ["caf\u{E9}", "a", "b*"].randomElement(using: &generator)!
            let path: String? =
                Int.random(in: 0..<6, using: &generator) == 0
                ? nil : "/" + RuleIndexTests.text(RuleIndexTests.pathAlphabet, 0...3, &generator) + word
            let query: [AASAQueryItem]? =
                Int.random(in: 0..<4, using: &generator) == 0
                ? [AASAQueryItem(name: "a", pattern: RuleIndexTests.text(["b", "*", "?"], 0...2, &generator))] : nil
            let fragment: String? =
                Int.random(in: 0..<5, using: &generator) == 0
                ? RuleIndexTests.text(["a", "*"], 0...2, &generator) : nil
            return DynamicComponent(
                path: path, query: query, fragment: fragment, exclude: Int.random(in: 0..<4, using: &generator) == 0)
        }
        var rules = (0..<Int.random(in: 10...40, using: &generator)).map { _ in rule() }
        var chain: [[DynamicComponent]] = []
        for _ in 0..<count {
            chain.append(
                rules.enumerated().map { line, rule in
                    var rule = rule
                    rule.origin = SourceLocation(file: "domains/shop.yaml", line: line + 1, column: 9)
                    return rule
                })
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<rules.count, using: &generator)
                let kind = Int.random(in: 0..<(duplicating ? 7 : 6), using: &generator)
                if edit(&rules, kind: kind, at: position, path: \.path, &generator) { continue }
                switch kind {
                case 3: rules[position].exclude.toggle()
                case 4: rules.insert(rule(), at: 0)
                case 6: rules.insert(rules[position], at: Int.random(in: 0...rules.count, using: &generator))
                default: rules.insert(rule(), at: Int.random(in: 0...rules.count, using: &generator))
                }
            }
        }
        return chain
    }

    /// The edits both kinds of rule take: kind 0 deletes the rule at `position` (of more than
    /// 4), 1 moves it, 2 respells its path between NFC and NFD (equal `String`s that devices
    /// tell apart). False for any other kind, left to the caller.
    static func edit<Rule>(
        _ rules: inout [Rule], kind: Int, at position: Int, path: WritableKeyPath<Rule, String?>,
        _ generator: inout SplitMix64
    ) -> Bool {
        switch kind {
        case 0 where rules.count > 4: rules.remove(at: position)
        case 1:
            let moved = rules.remove(at: position)
            rules.insert(moved, at: Int.random(in: 0...rules.count, using: &generator))
        case 2:
            let text = rules[position][keyPath: path] ?? "/caf\u{E9}"
            rules[position][keyPath: path] =
                text.unicodeScalars.contains("\u{301}")
                ? text.precomposedStringWithCanonicalMapping : text.decomposedStringWithCanonicalMapping
        default: return false
        }
        return true
    }

    /// Expects `edited`, read by every Android release, to decide each of `urls` (traced too
    /// when `traced`) as `components` compiled alone for that release.
    static func expectDecidesAlike(
        _ edited: CompiledDynamicRules, _ components: [DynamicComponent], urls: [LinkURL], triesPerRule: Int,
        traced: Bool, revision: Int
    ) {
        for release in AndroidRelease.allCases {
            let (editedRead, aloneRead) = LazyRuleIndex.$triesPerRuleForTests.withValue(triesPerRule) {
                (edited.reading(release), CompiledDynamicRules(components, entryIndex: 2, release: release))
            }
            for url in urls {
                #expect(
                    editedRead.decision(for: url) == aloneRead.decision(for: url),
                    "revision \(revision), \(release), \(url.path)")
                guard traced else { continue }
                #expect(
                    editedRead.decision(for: url, tracing: true) == aloneRead.decision(for: url, tracing: true),
                    "revision \(revision), \(release), \(url.path) traced")
            }
        }
    }

    static func urls(_ generator: inout SplitMix64) throws -> [LinkURL] {
        var texts = (0..<60).map { _ in RuleIndexTests.url(&generator) }
        texts += ["/caf\u{E9}", "/cafe\u{301}", "/ab*", "/b*#a", "/x/caf\u{E9}?a=b"]
        return try texts.map { try #require(LinkURL($0)) }
    }

    @Test(arguments: [(UInt64(1), 0), (2, 0), (3, 1), (4, 1), (5, 32)])
    func rulesCompiledAsEditsDecideAsRulesCompiledAlone(seed: UInt64, triesPerRule: Int) throws {
        var generator = SplitMix64(seed: seed)
        let chain = Self.revisions(&generator, count: 40)
        var earlier: CompiledDynamicRules?
        var shared = 0
        for (revision, components) in chain.enumerated() {
            let edited = LazyRuleIndex.$triesPerRuleForTests.withValue(triesPerRule) {
                CompiledDynamicRules.shared(components, entryIndex: 2, release: .latest, editing: earlier)
            }
            if edited.index.isShared { shared += 1 }
            try Self.expectDecidesAlike(
                edited, components, urls: Self.urls(&generator), triesPerRule: triesPerRule, traced: true,
                revision: revision)
            earlier = edited
        }
        // Most revisions share an earlier one's index; some outgrew it and got their own.
        #expect(shared >= chain.count / 2)
        #expect(shared < chain.count - 1)
    }

    /// Lists whose few fresh rules get a layer of their own at every edit or every few (a fresh
    /// limit of 0 to 3, where a changelog's is 16) decide through many layers, taken in and
    /// dropped as rules are inserted, deleted, moved, respelt and duplicated: as the list
    /// compiled alone, for every Android release (an older one leaves some rules out of the
    /// layers' answers), the indexes built or not.
    @Test(arguments: [(UInt64(21), 0, 0), (22, 1, 0), (23, 3, 0), (24, 2, 1)])
    func rulesIndexedInLayersDecideAsRulesCompiledAlone(seed: UInt64, freshLimit: Int, triesPerRule: Int) throws {
        var generator = SplitMix64(seed: seed)
        let chain = Self.revisions(&generator, count: 60, duplicating: true)
        var earlier: CompiledDynamicRules?
        var layers: [Int] = []
        for (revision, components) in chain.enumerated() {
            let edited = LazyRuleIndex.$freshLimitForTests.withValue(freshLimit) {
                LazyRuleIndex.$triesPerRuleForTests.withValue(triesPerRule) {
                    CompiledDynamicRules.shared(components, entryIndex: 2, release: .latest, editing: earlier)
                }
            }
            layers.append(edited.index.layerCount)
            try Self.expectDecidesAlike(
                edited, components, urls: Self.urls(&generator), triesPerRule: triesPerRule, traced: false,
                revision: revision)
            earlier = edited
        }
        // Layers were made, and taken in rather than piling up one per edit.
        #expect(layers.max()! >= 3, "\(layers)")
        #expect(layers.max()! <= 8, "\(layers)")
    }

    /// An asset links file compiled as an edit of an earlier one takes each package's rules as an
    /// edit of that package's earlier rules, and decides as the file compiled alone.
    @Test func assetLinksCompiledAsEditsDecideAsCompiledAlone() throws {
        var generator = SplitMix64(seed: 0xED17)
        let shop = Self.revisions(&generator, count: 12)
        let news = Self.revisions(&generator, count: 12)
        func document(_ revision: Int) -> AssetLinksDocument {
            AssetLinksDocument(statements: [
                AssetStatement(
                    relations: [AssetStatement.handleAllURLs],
                    target: .androidApp(package: "com.news", fingerprints: []),
                    dynamicComponents: news[revision]),
                AssetStatement(
                    relations: [AssetStatement.handleAllURLs],
                    target: .androidApp(package: "com.shop", fingerprints: []),
                    dynamicComponents: shop[revision]),
            ])
        }
        var earlier: CompiledAssetLinks?
        var shared = 0
        for revision in shop.indices {
            let edited = CompiledAssetLinks(document(revision), editing: earlier)
            let alone = CompiledAssetLinks(document(revision))
            shared += edited.statements.filter { $0.rules?.index.isShared == true }.count
            for url in try Self.urls(&generator) {
                for package in ["com.news", "com.shop"] {
                    #expect(
                        edited.decision(for: url, package: package, tracing: true)
                            == alone.decision(for: url, package: package, tracing: true), "\(revision) \(package)")
                }
            }
            earlier = edited
        }
        #expect(shared >= shop.count)
    }

    /// A chain of revisions of an AASA file: components inserted, deleted, moved, respelt
    /// between NFC and NFD, excluded; some entries' defaults, the file's substitution variables
    /// and its legacy paths changed; now and then a pattern that does not compile.
    static func aasaRevisions(_ generator: inout SplitMix64, count: Int) -> [AASADocument] {
        func component() -> AASAComponent {
            var component = AASAComponent(
                path: "/" + RuleIndexTests.text(RuleIndexTests.pathAlphabet, 0...3, &generator)
                    + ["caf\u{E9}", "a", "$(section)", "b*"].randomElement(using: &generator)!)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: component.query = .whole(RuleIndexTests.text(["a", "=", "*", "?"], 0...3, &generator))
            case 1: component.query = .items([AASAQueryItem(name: "a", pattern: "b*")])
            case 2: component.fragment = RuleIndexTests.text(["a", "*"], 0...2, &generator)
            default: break
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { component.exclude = true }
            if Int.random(in: 0..<5, using: &generator) == 0 { component.flags[.caseSensitive] = false }
            return component
        }
        var first = (0..<Int.random(in: 8...30, using: &generator)).map { _ in component() }
        var second = (0..<Int.random(in: 1...12, using: &generator)).map { _ in component() }
        var paths = ["/a/*", "NOT /a/b", "/caf\u{E9}/*"]
        var sections = ["news", "caf\u{E9}"]
        var defaults: AASAComponent? = nil
        var broken = false
        var chain: [AASADocument] = []
        for _ in 0..<count {
            let origin = { (line: Int) in SourceLocation(file: "domains/shop.yaml", line: line, column: 9) }
            var lines = 0
            func written(_ components: [AASAComponent]) -> [AASAComponent] {
                components.map { component in
                    var component = component
                    lines += 1
                    component.origin = origin(lines)
                    return component
                }
            }
            chain.append(
                AASADocument(
                    applinks: AppLinksSection(
                        substitutionVariables: [AASAVariable(name: "section", values: sections)],
                        details: [
                            AASADetails(appIDs: ["T.a"], components: written(first)),
                            AASADetails(
                                appIDs: ["T.a", "T.b"], defaults: defaults,
                                components: written(second + (broken ? [AASAComponent(path: "/$(nosuch)")] : []))),
                            AASADetails(appIDs: ["T.b"], paths: paths),
                        ])))
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<first.count, using: &generator)
                let kind = Int.random(in: 0..<10, using: &generator)
                if edit(&first, kind: kind, at: position, path: \.path, &generator) { continue }
                switch kind {
                case 3: first[position].exclude = !(first[position].exclude ?? false)
                case 4: defaults = defaults == nil ? AASAComponent(fragment: "a*", exclude: true) : nil
                case 5:
                    sections[1] =
                        sections[1] == "caf\u{E9}" ? "cafe\u{301}" : sections[1] == "cafe\u{301}" ? "blog" : "caf\u{E9}"
                case 6: paths.insert(["NOT /b", "/caf\u{E9}", "/cafe\u{301}"].randomElement(using: &generator)!, at: 0)
                case 7: second.insert(component(), at: Int.random(in: 0...second.count, using: &generator))
                case 8: broken.toggle()
                default: first.insert(component(), at: Int.random(in: 0...first.count, using: &generator))
                }
            }
        }
        return chain
    }

    /// With a fresh limit of 1, the entries' rules decide through many layers.
    @Test(arguments: [(UInt64(11), 0, 16), (12, 1, 16), (13, 32, 16), (14, 0, 1)])
    func aasaCompiledAsEditsDecidesAsCompiledAlone(seed: UInt64, triesPerRule: Int, freshLimit: Int) throws {
        var generator = SplitMix64(seed: seed)
        let chain = Self.aasaRevisions(&generator, count: 40)
        var earlier: CompiledAASA?
        var (shared, diagnosed) = (0, 0)
        for (revision, document) in chain.enumerated() {
            let (edited, alone) = LazyRuleIndex.$freshLimitForTests.withValue(freshLimit) {
                LazyRuleIndex.$triesPerRuleForTests.withValue(triesPerRule) {
                    (CompiledAASA(document, editing: earlier), CompiledAASA(document))
                }
            }
            shared += edited.entries.filter(\.index.isShared).count
            if !alone.diagnostics.isEmpty { diagnosed += 1 }
            #expect(edited.diagnostics == alone.diagnostics, "revision \(revision)")
            #expect(edited.appIDs == alone.appIDs)
            for url in try Self.urls(&generator) + [try #require(LinkURL("/news/a")), try #require(LinkURL("/blog"))] {
                for app in ["T.a", "T.b"] {
                    #expect(
                        edited.decision(for: url, appID: app) == alone.decision(for: url, appID: app),
                        "revision \(revision), \(app), \(url.path)")
                    #expect(
                        edited.decision(for: url, appID: app, tracing: true)
                            == alone.decision(for: url, appID: app, tracing: true),
                        "revision \(revision), \(app), \(url.path) traced")
                }
            }
            earlier = edited
        }
        // Entries were edited from earlier ones, and files with patterns that do not compile came up.
        #expect(shared >= chain.count / 2)
        #expect(diagnosed > 0)
    }

    /// Each way a component differs from another, or from its copy carried to another line:
    /// the very texts elsewhere, the same texts in other storage, respelt between NFC and NFD,
    /// another exclusion, query, fragment or comment.
    static func variants(of component: DynamicComponent) -> [DynamicComponent] {
        func respelt(_ text: String) -> String {
            text.unicodeScalars.contains("\u{301}")
                ? text.precomposedStringWithCanonicalMapping : text.decomposedStringWithCanonicalMapping
        }
        // Long enough to be stored apart rather than in the string's own bits.
        func copied(_ text: String?) -> String? { text.map { String(decoding: Array($0.utf8), as: UTF8.self) } }
        var variants = [component]
        var moved = component
        moved.origin = SourceLocation(file: "domains/other.yaml", line: 99, column: 3)
        variants.append(moved)
        var stored = component
        (stored.path, stored.fragment) = (copied(component.path), copied(component.fragment))
        variants.append(stored)
        var long = component
        long.path = (component.path ?? "") + "/a-path-long-enough-for-its-own-storage"
        variants.append(long)
        var longCopy = long
        longCopy.path = copied(long.path)
        variants.append(longCopy)
        var respeltPath = component
        respeltPath.path = respelt((component.path ?? "") + "/caf\u{E9}")
        variants.append(respeltPath)
        var excluded = component
        excluded.exclude.toggle()
        variants.append(excluded)
        var queried = component
        queried.query = component.query == nil ? [AASAQueryItem(name: "a", pattern: "b*")] : nil
        variants.append(queried)
        var otherQuery = component
        otherQuery.query = [AASAQueryItem(name: "a", pattern: component.query?.first?.pattern == "*" ? "b" : "*")]
        variants.append(otherQuery)
        var fragmented = component
        fragmented.fragment = component.fragment == nil ? "a*" : nil
        variants.append(fragmented)
        var commented = component
        commented.comments = component.comments == nil ? "a comment long enough for its own storage" : nil
        variants.append(commented)
        return variants
    }

    /// Components compared in place (`DynamicComponent.testAlike`, which tells a carried copy by
    /// its bits) are alike exactly when compared by value, and equal ones hash alike wherever
    /// written; the prefix and suffix two lists share, compared in place, are those compared
    /// by value.
    @Test(arguments: [UInt64(31), 32, 33])
    func componentsComparedInPlaceAsByValue(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let chain = Self.revisions(&generator, count: 12, duplicating: true)
        let components = chain.flatMap { $0 }.flatMap(Self.variants)
        func inPlace(_ one: DynamicComponent, _ other: DynamicComponent) -> Bool {
            withUnsafePointer(to: one) { one in withUnsafePointer(to: other) { DynamicComponent.testAlike(one, $0) } }
        }
        var alike = 0
        for _ in 0..<4000 {
            let one = components.randomElement(using: &generator)!
            // Half the pairs are a component and one of its variants.
            let other =
                Bool.random(using: &generator)
                ? Self.variants(of: one).randomElement(using: &generator)!
                : components.randomElement(using: &generator)!
            #expect(inPlace(one, other) == one.testsAlike(other), "\(one) \(other)")
            if one.testsAlike(other) { alike += 1 }
            if one == other { #expect(one.hashValue == other.hashValue) }
        }
        #expect(alike > 400)
        for (earlier, sources) in zip(chain, chain.dropFirst()) {
            let shorter = min(earlier.count, sources.count)
            var prefix = 0
            while prefix < shorter && sources[prefix].testsAlike(earlier[prefix]) { prefix += 1 }
            var suffix = 0
            while suffix < shorter - prefix
                && sources[sources.count - 1 - suffix].testsAlike(earlier[earlier.count - 1 - suffix])
            {
                suffix += 1
            }
            let expected = sources.indices.map { index -> Int? in
                index < prefix ? index : index >= sources.count - suffix ? index + earlier.count - sources.count : nil
            }
            #expect(RuleListEdit.keptPositions(sources, from: earlier, alike: DynamicComponent.testAlike) == expected)
        }
    }

    /// Compiled AASA rules compared field by field (`CompiledAASA.Rule.testsAlike`) are alike
    /// exactly when their texts are equal, across a chain of edited files (rules carried, respelt,
    /// excluded, with other queries, fragments, flags and defaults, legacy paths); equal
    /// components hash alike.
    @Test(arguments: [UInt64(41), 42])
    func aasaRulesComparedByFieldAsByTexts(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let chain = Self.aasaRevisions(&generator, count: 30)
        var earlier: CompiledAASA?
        var rules: [CompiledAASA.Rule] = []
        for document in chain {
            let compiled = CompiledAASA(document, editing: earlier)
            rules += compiled.entries.flatMap(\.rules)
            earlier = compiled
        }
        let components = chain.flatMap { $0.applinks?.details ?? [] }.flatMap { $0.components ?? [] }
        var alike = 0
        for _ in 0..<6000 {
            let one = rules.randomElement(using: &generator)!
            let other = rules.randomElement(using: &generator)!
            #expect(one.testsAlike(other) == (one.texts == other.texts), "\(one.texts) \(other.texts)")
            if one.testsAlike(other) { alike += 1 }
            let (first, second) = (
                components.randomElement(using: &generator)!, components.randomElement(using: &generator)!
            )
            if first == second { #expect(first.hashValue == second.hashValue) }
        }
        #expect(alike > 100)
    }
}
