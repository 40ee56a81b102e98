import Testing

@testable import LinkwrightCore

/// `test` decides a URL once per distinct rule list and hands the answer to every environment,
/// app and host reading those rules. These tests check that the shared answers are the ones each
/// host gets on its own, that rule lists which differ are never shared, and that staging's
/// files take production's compiled rules with their own app IDs.
@Suite struct SharedDecisionTests {
    /// Three environments serving one domain: production and staging with the same rules for
    /// differently named apps, development with a rule of its own in front and an extra app
    /// listed by a second entry; Android reads the same rules through its dynamic rules.
    private func fleet() throws -> (Configuration, CompiledConfiguration) {
        try load(
            domain: """
                applinks:
                  - apps: [shop, kiosk]
                    rules:
                      - path: /p/private/*
                        exclude: true
                      - path: /beta/*
                        environments: [development]
                      - path: /p/*
                      - path: /search
                        query: {q: "?*"}
                  - apps: [kiosk]
                    rules:
                      - path: /kiosk/*
                emit:
                  android_dynamic_rules: true
                expectations:
                  - url: /p/1
                    opens_app: shop
                  - url: /p/private/x
                    opens_web: true
                  - url: /beta/1
                    opens_app: shop
                  - url: /search?q=shoes
                    opens_app: kiosk
                  - url: /search
                    opens_app: true
                  - url: /kiosk/3
                    opens_app: kiosk
                  - url: https://staging.h2.example/p/2
                    opens_app: shop

                """)
    }

    /// `domain` as the domain file of three environments with two apps on both platforms.
    private func load(domain: String) throws -> (Configuration, CompiledConfiguration) {
        let files = ThreeEnvironmentFleet.files(domain: domain)
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        return (loaded, Compiler().compile(loaded).compiled)
    }

    /// Every result `test` gives, against the host's own evaluator deciding that URL alone.
    @Test func sharedDecisionsAreEachHostsOwn() throws {
        let (configuration, compiled) = try fleet()
        let results = try expectEachHostsOwn(configuration, compiled)
        // Six paths on nine hosts and two platforms; the absolute URL on its own host.
        #expect(results.count == 6 * 9 * 2 + 2)
        // Development's own rule decides there and nowhere else.
        let beta = results.filter { $0.url.hasSuffix("/beta/1") }
        #expect(Set(beta.filter(\.passed).map(\.environment)) == ["development"])
        #expect(beta.filter { !$0.passed }.count == 12)
    }

    /// Seeded fleets of random rules with enough expectations for `test` to build each file's
    /// rule index before the first (`LazyRuleIndex.anticipate`): every result is still the one
    /// the host's own evaluator gives, on both platforms.
    @Test(arguments: [1, 2, 3] as [UInt64]) func seededFleetsDecideAsEachHostAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed &* 0x9E37_79B9)
        let words = ["p", "q", "kiosk", "beta", "a", "b"]
        func word() -> String { words[Int(generator.next() % UInt64(words.count))] }
        var domain = "applinks:\n  - apps: [shop, kiosk]\n    rules:\n"
        for _ in 0..<12 {
            domain += "      - path: /\(word())/\(generator.next() % 2 == 0 ? "" : word())*\n"
            if generator.next() % 4 == 0 { domain += "        exclude: true\n" }
            if generator.next() % 5 == 0 { domain += "        environments: [development]\n" }
        }
        domain += "  - apps: [kiosk]\n    rules:\n      - path: /\(word())/*\n"
        domain += "emit:\n  android_dynamic_rules: true\nexpectations:\n"
        let expectations = 2 * LazyRuleIndex.triesPerRule + 16
        for index in 0..<expectations {
            domain += "  - url: /\(word())/\(word())\(index)\n    opens_app: \(["shop", "kiosk", "true"][index % 3])\n"
        }
        let (configuration, compiled) = try load(domain: domain)
        #expect(try expectEachHostsOwn(configuration, compiled).count == expectations * 9 * 2)
    }

    /// The results `test` gives for `configuration`, each checked against the host's own
    /// evaluator deciding that URL alone: the apps opening it, and the rule deciding for the app
    /// an expectation names.
    private func expectEachHostsOwn(_ configuration: Configuration, _ compiled: CompiledConfiguration) throws
        -> [ExpectationRunner.Result]
    {
        let evaluators = Dictionary(
            uniqueKeysWithValues: compiled.environments.map { ($0.name, EnvironmentEvaluator($0)) })
        let results = ExpectationRunner.run(configuration, compiled)
        for result in results {
            let url = try #require(LinkURL(result.url))
            let verdicts = try #require(evaluators[result.environment]).verdicts(for: url, platform: result.platform)
            let opening = verdicts.filter(\.opens).map(\.app)
            #expect(result.actual == (opening.isEmpty ? "web" : opening.joined(separator: ", ")), "\(result)")
            if let app = ["shop", "kiosk"].first(where: { result.expected == $0 }) {
                #expect(result.decidingRule == verdicts.first { $0.app == app }?.decision.origin, "\(result)")
            }
        }
        return results
    }

    /// The same rules for apps of other names are one rule list; an app listed by another entry,
    /// or an environment with a rule of its own, is another.
    @Test func ruleListsAreEqualOnlyWhenTheyDecideAlike() throws {
        let (_, compiled) = try fleet()
        let byName = Dictionary(uniqueKeysWithValues: compiled.environments.map { ($0.name, EnvironmentEvaluator($0)) })
        func rules(_ environment: String, app: Int, _ platform: Platform) throws -> EnvironmentEvaluator.DecidingRules {
            let evaluator = try #require(byName[environment])
            let host = try #require(evaluator.environment.sites.first).fileHost.name
            return try #require(evaluator.decidingRules(app: app, platform: platform, file: evaluator.fileRef(host)))
        }
        for platform in Platform.allCases {
            #expect(try rules("production", app: 0, platform) == rules("staging", app: 0, platform))
            #expect(try rules("production", app: 1, platform) == rules("staging", app: 1, platform))
            #expect(try rules("production", app: 0, platform) != rules("development", app: 0, platform))
        }
        // The kiosk reads a second entry on iOS; on Android both apps' statements hold the rules
        // of the entries listing them.
        #expect(try rules("production", app: 0, .ios) != rules("production", app: 1, .ios))
        #expect(try rules("production", app: 0, .android) != rules("production", app: 1, .android))
    }

    /// Staging's file compiled with production's rules decides as if compiled alone.
    @Test func aFileTakesTheRulesOfOneDifferingInAppIDsOnly() throws {
        let (_, compiled) = try fleet()
        let production = try #require(compiled.environments.first { $0.name == "production" }?.sites.first?.aasa)
        let staging = try #require(compiled.environments.first { $0.name == "staging" }?.sites.first?.aasa)
        #expect(CompiledAASA.rulesKey(production) == CompiledAASA.rulesKey(staging))
        #expect(production != staging)
        let shared = CompiledAASA(staging, sharingRulesOf: CompiledAASA(production))
        let alone = CompiledAASA(staging)
        #expect(shared.appIDs == alone.appIDs)
        #expect(shared.appIDs == ["ABCDE12345.com.example.shop.staging", "ABCDE12345.com.example.kiosk.staging"])
        for path in ["/p/1", "/p/private/x", "/kiosk/1", "/search?q=a", "/search", "/beta/1"] {
            let url = try #require(LinkURL("https://staging.h1.example" + path))
            for appID in alone.appIDs + ["ABCDE12345.com.example.shop"] {
                #expect(shared.decision(for: url, appID: appID) == alone.decision(for: url, appID: appID), "\(path)")
            }
        }
    }

    /// A file's rules key is taken from a known key it equals (another environment's file of the
    /// same rules for other apps) rather than hashed again: whichever way it is made, it equals
    /// and hashes as the one made alone, and it is taken only when equal.
    @Test func rulesKeysAreTakenFromAnEqualKnownKeyOnly() throws {
        func document(_ appID: String, paths: [String]) -> AASADocument {
            let components = paths.map { "{\"/\": \"\($0)\"}" }.joined(separator: ", ")
            return readAASA(
                "{\"applinks\": {\"details\": [{\"appIDs\": [\"\(appID)\"], \"components\": [\(components)]},"
                    + " {\"appIDs\": [\"\(appID)\"], \"components\": [{\"/\": \"*\", \"exclude\": true}]}]}}")
        }
        let production = document("ABCDE12345.com.example.shops", paths: ["/a/*", "/b"])
        let known = try #require(CompiledAASA.rulesKey(production, editing: nil))
        for (other, taken) in [
            // App IDs of the same length: the reader locates each component in the text.
            (document("ABCDE99999.com.example.kiosk", paths: ["/a/*", "/b"]), true),
            (document("ABCDE99999.com.example.kiosk", paths: ["/a/*", "/c"]), false),
            (document("ABCDE12345.com.example.shops", paths: ["/a/*"]), false),
        ] {
            let alone = try #require(CompiledAASA.rulesKey(other))
            let key = try #require(CompiledAASA.rulesKey(other, editing: known)).key
            #expect(key == alone && key.hashValue == alone.hashValue)
            #expect((key == known.key) == taken)
            #expect((storageAddress(key.value.details) == storageAddress(known.key.value.details)) == taken)
        }
        #expect(CompiledAASA.rulesKey(AASADocument(), editing: known) == nil)
    }
}
