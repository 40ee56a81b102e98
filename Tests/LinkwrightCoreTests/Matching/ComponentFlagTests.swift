import Testing

@testable import LinkwrightCore

/// Every component flag is declared once (`ComponentFlag`) and everything else follows from the
/// declaration: these tests run each stage for every case, so a flag added to the declaration
/// is checked end to end without a test naming it, except for the example of its effect.
@Suite struct ComponentFlagTests {
    /// Per flag, a pattern and a URL that the flag's departing value matches and Apple's default
    /// does not. A new flag fails `everyFlagHasAnExample` until it gets one.
    static let effects: [ComponentFlag: (pattern: String, url: String)] = [
        .caseSensitive: ("/help/*", "https://shop.example/HELP/faq"),
        .percentEncoded: ("/café", "https://shop.example/caf%C3%A9"),
    ]

    @Test func everyFlagHasAnExample() {
        #expect(Set(Self.effects.keys) == Set(ComponentFlag.allCases))
    }

    private func configuration(rule: String) throws -> Configuration {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "hosts:\n  shop.example: shop\n",
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n" + rule,
        ]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        return try #require(configuration, "\(diagnostics)")
    }

    private func aasa(_ configuration: Configuration) throws -> AASADocument {
        try #require(Compiler().compile(configuration).compiled.environments.first?.sites.first?.aasa)
    }

    @Test(arguments: ComponentFlag.allCases)
    func aFlagTravelsFromTheConfigurationToTheDecision(_ flag: ComponentFlag) throws {
        let (pattern, url) = try #require(Self.effects[flag])
        let departing = !flag.appleDefault
        let written = try configuration(
            rule: "      - path: \"\(pattern)\"\n        \(flag.configurationKey): \(departing)\n")
        #expect(written.domains.first?.applinks.first?.rules.first?.flags[flag]?.value == departing)

        // Written into the AASA under Apple's key, and read back from it.
        let document = try aasa(written)
        let text = document.json.rendered()
        #expect(text.contains("\"\(flag.rawValue)\": \(departing)"), "\(text)")
        let reread = try #require(AASAReader().read(Array(text.utf8), file: "aasa").document)
        #expect(reread.applinks?.details.first?.components?.first?.flags[flag] == departing)

        // Its effect decides: the departing value opens the URL, Apple's default does not.
        let link = try #require(LinkURL(url))
        let decision = CompiledAASA(document).decision(for: link, appID: "ABCDE12345.com.example.shop", tracing: true)
        #expect(decision.outcome == .match)
        #expect(decision.trace.last?.flags[flag] == departing)
        #expect(decision.trace.last?.flags.departures == [flag])
        let plain = try aasa(try configuration(rule: "      - path: \"\(pattern)\"\n"))
        #expect(CompiledAASA(plain).decision(for: link, appID: "ABCDE12345.com.example.shop").outcome == .noMatch)
    }

    @Test(arguments: ComponentFlag.allCases)
    func theSchemaOffersEveryFlagWhereRulesAndDefaultsAreWritten(_ flag: ComponentFlag) throws {
        let schema = try #require(JSONSchemaGenerator.document(for: "domain"))
        let text = schema.rendered()
        let occurrences = text.components(separatedBy: "\"\(flag.configurationKey)\"").count - 1
        // A rule, an entry's defaults and the domain's defaults.
        #expect(occurrences >= 2, "\(flag.configurationKey) appears \(occurrences) times")
    }

    /// Flags written, overwritten and unset in seeded orders read, compare and hash as a
    /// dictionary of the values last written: levels never written equal those whose flags
    /// were all unset again.
    @Test(arguments: [UInt64(1), 2, 3])
    func flagsReadAndCompareAsTheValuesLastWritten(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var levels: [(flags: ComponentFlags<Bool>, model: [ComponentFlag: Bool])] = [(ComponentFlags(), [:])]
        for _ in 0..<400 {
            var (flags, model) = levels.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let flag = ComponentFlag.allCases.randomElement(using: &generator)!
                let value = [nil, false, true].randomElement(using: &generator)!
                flags[flag] = value
                model[flag] = value
            }
            levels.append((flags, model))
        }
        for (flags, model) in levels {
            #expect(ComponentFlag.allCases.allSatisfy { flags[$0] == model[$0] })
            #expect(flags.isEmpty == model.isEmpty)
            #expect(flags.written.map(\.flag) == ComponentFlag.allCases.filter { model[$0] != nil })
        }
        var (equal, unequal) = (0, 0)
        for _ in 0..<2000 {
            let (one, other) = (levels.randomElement(using: &generator)!, levels.randomElement(using: &generator)!)
            #expect((one.flags == other.flags) == (one.model == other.model))
            if one.flags == other.flags {
                #expect(one.flags.hashValue == other.flags.hashValue)
                equal += 1
            } else {
                unequal += 1
            }
        }
        #expect(equal > 200 && unequal > 200)
    }

    @Test func flagsResolveFromTheNearestLevelThenAppleDefaults() {
        let rule = ComponentFlags<Bool>([.caseSensitive: false])
        let entry = ComponentFlags<Bool>([.caseSensitive: true, .percentEncoded: false])
        let effective = rule.effective(inheriting: [entry, nil])
        #expect(effective[.caseSensitive] == false)
        #expect(effective[.percentEncoded] == false)
        #expect(ComponentFlags<Bool>().effective() == .appleDefaults)
        #expect(EffectiveFlags.appleDefaults.departures.isEmpty)
        #expect(EffectiveFlags.android.departures == [.percentEncoded])
    }

    /// A configuration rule's flags resolved in place (`effective(inheriting:_:)`) against the
    /// levels' copies resolved as a list, for every value each flag may have at each level.
    @Test func aRulesFlagsResolveInPlaceAsTheLevelsDo() {
        let written: [Bool?] = [nil, false, true]
        let location = SourceLocation(file: "domains/shop.yaml", line: 1, column: 1)
        func flags(_ values: [Bool?]) -> MatchFlags {
            var flags = MatchFlags()
            for (flag, value) in zip(ComponentFlag.allCases, values) {
                flags[flag] = value.map { Located($0, at: location) }
            }
            return flags
        }
        let count = ComponentFlag.allCases.count
        var levels: [[Bool?]] = [[]]
        for _ in 0..<count { levels = levels.flatMap { prefix in written.map { prefix + [$0] } } }
        for rule in levels {
            for entry in levels {
                for file in levels {
                    let (ruleFlags, entryFlags, fileFlags) = (flags(rule), flags(entry), flags(file))
                    #expect(
                        ruleFlags.effective(inheriting: entryFlags, fileFlags)
                            == ruleFlags.values.effective(inheriting: [entryFlags.values, fileFlags.values]),
                        "rule \(rule), entry \(entry), file \(file)")
                }
            }
        }
    }
}
