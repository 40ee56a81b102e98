import Foundation
import Testing

@testable import LinkwrightCore

/// Compiles that take what rules compiled to before (`RuleCompilations`, kept by
/// `DomainCompilations`) give what compiling alone gives: every file, scope and diagnostic,
/// each rule's origin and each diagnostic's place the rule's own where it now stands.
@Suite struct RuleCompilationsTests {
    static let staging = RuleSequencesEditTests.environment.replacingOccurrences(
        of: "tier: production", with: "tier: staging"
    ).replacingOccurrences(of: "shop.example: shop", with: "staging.shop.example: shop")

    /// A seeded chain of revisions inserting, deleting, moving, repeating and respelling (NFC
    /// and NFD) rules, writing a rule on one line or on several (its query's place changes beside its
    /// own), and changing what a rule's translation reads beside its text (the substitution
    /// variables, the file's and the entry's defaults, the entry's Android semantics, dynamic
    /// rules on or off), compiled in one `DomainCompilations` in order and shuffled: each
    /// revision compiles to what it compiles to alone, texts and places compared exactly.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func rulesCompiledBeforeCompileAsAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> String {
            serial += 1
            let word = ["caf\u{E9}", "shoes", "Sale"].randomElement(using: &generator)!
            let path = [
                "/\(word)\(serial)/*", "/\(word)/\(serial)", "/$(section)/\(serial)", "/$(alpha)\(serial)/*",
                "/\(word)?\(serial)",
            ].randomElement(using: &generator)!
            var fields = ["path: \"\(path)\""]
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: fields.append("query: {\(word): \"?*\"}")
            case 1: fields.append("query: \"\(word)=*\"")
            default: break
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { fields.append("fragment: \"$(section)\"") }
            if Int.random(in: 0..<5, using: &generator) == 0 { fields.append("case_sensitive: false") }
            if Int.random(in: 0..<5, using: &generator) == 0 { fields.append("exclude: true") }
            if Int.random(in: 0..<5, using: &generator) == 0 { fields.append("comment: \"\(word)\"") }
            return Self.written(fields, inline: Bool.random(using: &generator))
        }
        var rules = (0..<12).map { _ in rule() }
        var sections = ["news", "caf\u{E9}"]
        var fileDefaults = false
        var entryDefaults = false
        var androidSemantics = false
        var dynamicRules = true
        func files() -> [SourceFile] {
            var domain = "variables:\n  section: [\(sections.joined(separator: ", "))]\n"
            if fileDefaults { domain += "defaults:\n  case_sensitive: false\n" }
            domain += "applinks:\n  - apps: [shop]\n"
            if entryDefaults { domain += "    defaults:\n      percent_encoded: false\n" }
            if androidSemantics { domain += "    android_semantics: true\n" }
            domain += "    rules:\n" + rules.joined()
            domain += "  - apps: [news, shop]\n    rules:\n" + rules.suffix(3).joined()
            if dynamicRules { domain += "emit:\n  android_dynamic_rules: true\n" }
            return [
                SourceFile(path: "domains/shop.yaml", bytes: Array(domain.utf8)),
                SourceFile(path: "environments/production.yaml", bytes: Array(RuleSequencesEditTests.environment.utf8)),
                SourceFile(path: "environments/staging.yaml", bytes: Array(Self.staging.utf8)),
            ]
        }
        var revisions = [files()]
        for _ in 0..<12 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<rules.count, using: &generator)
                let choice = Int.random(in: 0..<12, using: &generator)
                let random = { (range: ClosedRange<Int>) in Int.random(in: range, using: &generator) }
                if SeededRuleEdits.apply(choice, at: position, to: &rules, random: random, rule: rule) { continue }
                switch choice {
                case 4: rules[position] = Self.rewritten(rules[position])
                case 5: sections[1] = SeededRuleEdits.respelt(sections[1])
                case 6: fileDefaults.toggle()
                case 7: entryDefaults.toggle()
                case 8: androidSemantics.toggle()
                case 9: dynamicRules.toggle()
                case 10: rules.insert(rules[position], at: Int.random(in: 0...rules.count, using: &generator))
                default: rules.insert(rule(), at: Int.random(in: 0...rules.count, using: &generator))
                }
            }
            revisions.append(files())
        }
        let configurations = try revisions.map { revision in
            let (configuration, diagnostics) = ConfigLoader().load(revision)
            return try #require(configuration, "\(diagnostics)")
        }
        let alone = configurations.map { Self.outcome(Compiler().compile($0)) }
        #expect(Set(alone.joined()).count > 20)
        for order in [Array(configurations.indices), configurations.indices.shuffled(using: &generator)] {
            let compilations = DomainCompilations()
            for index in order {
                let compiled = Self.outcome(Compiler().compile(configurations[index], reusing: compilations))
                #expect(compiled == alone[index], "revision \(index)")
            }
        }
    }

    /// The walk exercises what it means to: diagnostics made at a rule's place and at its
    /// query's, by both translations.
    @Test func theRevisionsDiagnoseAtRulesAndQueries() throws {
        let rules = [
            Self.written(["path: \"/a/*\"", "query: \"a=*\""], inline: true),
            Self.written(["path: \"/$(alpha)/*\"", "case_sensitive: false"], inline: false),
            Self.written(["path: \"/a/b\"", "exclude: true"], inline: false),
        ]
        for emit in ["emit:\n  android_dynamic_rules: true\n", ""] {
            let domain = "applinks:\n  - apps: [shop]\n    rules:\n" + rules.joined() + emit
            let (configuration, _) = ConfigLoader().load([
                SourceFile(path: "domains/shop.yaml", bytes: Array(domain.utf8)),
                SourceFile(path: "environments/production.yaml", bytes: Array(RuleSequencesEditTests.environment.utf8)),
            ])
            let ids = Set(Compiler().compile(try #require(configuration)).diagnostics.map(\.id))
            #expect(
                ids.isSuperset(
                    of: emit.isEmpty
                        ? [.androidExclusionIgnored]
                        : [.androidQueryString, .androidPatternWidened, .androidCaseSensitive]),
                "\(ids)")
        }
    }

    /// A rule's fields as one list item, on one line (`{path: …, query: …}`) or one per line.
    static func written(_ fields: [String], inline: Bool) -> String {
        inline
            ? "      - {" + fields.joined(separator: ", ") + "}\n"
            : "      - " + fields.joined(separator: "\n        ") + "\n"
    }

    /// The rule written the other way (`written(_:inline:)`).
    static func rewritten(_ rule: String) -> String {
        if rule.hasPrefix("      - {") {
            let fields = rule.dropFirst(9).dropLast(2).components(separatedBy: ", ")
            return written(fields, inline: false)
        }
        return written(rule.dropFirst(8).dropLast().components(separatedBy: "\n        "), inline: true)
    }

    /// Everything a compile gives, each text exact (`String`'s equality would take NFC and NFD
    /// spellings for one).
    static func outcome(_ result: (compiled: CompiledConfiguration, diagnostics: [Diagnostic])) -> [String] {
        DomainCompilationsTests.outcome(result).map(ExactText.key)
    }
}
