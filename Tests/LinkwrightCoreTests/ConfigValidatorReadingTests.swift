import Testing

@testable import LinkwrightCore

/// What a domain's own checks read of it, each against the straightforward reading over seeded
/// random domains: the patterns naming a variable or not parsing
/// (`ConfigValidator.patternsReadingVariables`) against every pattern's tokens, its entries in
/// an environment (`Resolution.entries`) against every rule filtered, and the apps it uses in
/// an environment (`Resolution.referencedApps`) against its resolved entries' apps.
@Suite struct ConfigValidatorReadingTests {
    static let patterns = [
        "/a", "/$(section)/b", "/$(", "/$()", "/$(nope)/*", "/$x", "/caf\u{E9}$(lang)", "/a$(alpha)$(section",
        "*", "?*", "/x)$(", "/$($(a))", "/cafe\u{301}/$(section)", "/$$(digit)",
        "/$(caf\u{E9})", "/$(cafe\u{301})",
    ]
    static let environments = ["production", "staging"]

    static func domain(seed: UInt64) throws -> Domain {
        var random = SplitMix64(seed: seed)
        func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        var text = "variables:\n  section: [shop, news]\napplinks:\n"
        for _ in 0..<(1 + random.next() % 3) {
            text += "  - apps: [\(pick(["app0", "app1", "app0, app1"]))]\n"
            if chance(30) { text += "    environments: [\(pick(environments))]\n" }
            let count = random.next() % 6
            text += count == 0 ? "    rules: []\n" : "    rules:\n"
            for _ in 0..<count {
                text += "      - path: \"\(pick(patterns))\"\n"
                if chance(30) { text += "        fragment: \"\(pick(patterns))\"\n" }
                if chance(20) {
                    text += "        query: \"\(pick(patterns))\"\n"
                } else if chance(40) {
                    text += "        query: {ref: \"\(pick(patterns))\", q: \"\(pick(patterns))\"}\n"
                }
                if chance(30) { text += "        environments: [\(pick(environments))]\n" }
            }
        }
        if chance(50) { text += "webcredentials:\n  apps: [\(pick(["app0", "app1"]))]\n" }
        let (root, syntax) = YAMLParser().parse(Array(text.utf8), file: "domains/d.yaml")
        #expect(syntax.isEmpty, "\(text)")
        let node = try #require(root)
        var decoder = ConfigDecoder()
        let domain = decoder.domain(name: "d", file: "domains/d.yaml", root: node)
        return try #require(domain, "\(text)")
    }

    @Test(arguments: UInt64(1)...40)
    func patternsReadForVariablesAreThoseWhoseTokensNameOneOrFail(seed: UInt64) throws {
        let domain = try Self.domain(seed: seed)
        Self.expectRead(ConfigValidator.patternsReadingVariables(of: domain), of: domain)
    }

    /// Patterns' variables taken from those read before (`CheckedDomains`, across validations):
    /// the domains of every seed read twice through one, each reading as the straightforward one.
    @Test func patternsReadWithVariablesKeptAcrossDomainsAreReadAsAlone() throws {
        let domains = try (UInt64(1)...40).map { try Self.domain(seed: $0) }
        let known = CheckedDomains()
        for domain in domains + domains.reversed() {
            Self.expectRead(ConfigValidator.patternsReadingVariables(of: domain, known: known), of: domain)
        }
    }

    /// Expects `read` to be, in order, the patterns of `domain` whose tokens name a variable or
    /// fail, each at its place, with its variables or failure.
    static func expectRead(_ read: ConfigValidator.ReadPatterns, of domain: Domain) {
        let reference = domain.applinks.flatMap(\.rules).flatMap(Resolution.patterns(of:)).compactMap {
            pattern -> (Located<String>, Result<[String], PatternSyntaxError>)? in
            let read = PatternSyntax.tokens(pattern.value).map { tokens in
                tokens.compactMap { token -> String? in
                    guard case .variable(let name) = token else { return nil }
                    return name
                }
            }
            if case .success(let names) = read, names.isEmpty { return nil }
            return (pattern, read)
        }
        #expect(read.count == reference.count)
        for ((pattern, variables), (expected, expectedVariables)) in zip(read, reference) {
            #expect(pattern.location == expected.location)
            #expect(ExactText(pattern.value) == ExactText(expected.value))
            #expect(variables.map { $0.map(ExactText.init) } == expectedVariables.map { $0.map(ExactText.init) })
        }
    }

    /// The resolved entries (`Resolution.entries`, which keeps an entry whose rules all apply
    /// as it is) against every entry and rule filtered.
    @Test(arguments: UInt64(1)...40)
    func resolvedEntriesAreThoseAndTheRulesApplyingThere(seed: UInt64) throws {
        let domain = try Self.domain(seed: seed)
        for environment in Self.environments + ["preview"] {
            let expected = domain.applinks.compactMap { entry -> AppLinksEntry? in
                guard Resolution.applies(entry.environments, to: environment) else { return nil }
                var entry = entry
                entry.rules = entry.rules.filter { Resolution.applies($0.environments, to: environment) }
                return entry.rules.isEmpty ? nil : entry
            }
            #expect(Resolution.entries(of: domain, in: environment) == expected)
        }
    }

    @Test(arguments: UInt64(1)...40)
    func referencedAppsAreTheResolvedEntriesApps(seed: UInt64) throws {
        let domain = try Self.domain(seed: seed)
        for environment in Self.environments + ["preview"] {
            let expected =
                Resolution.entries(of: domain, in: environment).flatMap { $0.apps.map(\.value) }
                + AssociatedService.appListServices.flatMap { domain.apps(of: $0) }.map(\.value)
                + domain.assetStatements.compactMap(\.app?.value)
            #expect(Resolution.referencedApps(domain, in: environment) == expected)
        }
    }
}
