import LinkwrightCore
import Testing

/// `test` decides a path expectation once per situation of its hosts; every host still gets its
/// own result, and an absolute URL is checked on its own host only.
@Suite struct ExpectationRunnerTests {
    private func run(hosts: [String], expectations: String) throws -> [ExpectationRunner.Result] {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "    android: {package: com.example.shop, fingerprints: {play-signing: \""
                + Array(repeating: "AB", count: 32).joined(separator: ":") + "\"}}\n"
                + "hosts:\n" + hosts.map { "  \"\($0)\": shop\n" }.joined(),
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /admin/*\n        exclude: true\n"
                + "      - path: /p/*\nexpectations:\n" + expectations,
        ]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        return ExpectationRunner.run(loaded, Compiler().compile(loaded).compiled)
    }

    @Test func everyHostGetsItsOwnResult() throws {
        let results = try run(
            hosts: ["a.example", "b.example", "c.example", "*.c.example"],
            expectations:
                "  - url: /p/1\n    opens_app: shop\n  - url: https://b.example/admin/x\n    opens_web: true\n"
                + "  - url: /q\n    opens_app: shop\n")
        let lines = results.map { "\($0.host) \($0.platform.rawValue) \($0.url) \($0.passed)" }
        #expect(
            lines == [
                "a.example ios https://a.example/p/1 true", "a.example android https://a.example/p/1 true",
                "a.example ios https://a.example/q false", "a.example android https://a.example/q false",
                "b.example ios https://b.example/p/1 true", "b.example android https://b.example/p/1 true",
                "b.example ios https://b.example/admin/x true", "b.example android https://b.example/admin/x true",
                "b.example ios https://b.example/q false", "b.example android https://b.example/q false",
                "c.example ios https://c.example/p/1 true", "c.example android https://c.example/p/1 true",
                "c.example ios https://c.example/q false", "c.example android https://c.example/q false",
                "*.c.example ios https://subdomain.c.example/p/1 true",
                "*.c.example android https://subdomain.c.example/p/1 true",
                "*.c.example ios https://subdomain.c.example/q false",
                "*.c.example android https://subdomain.c.example/q false",
            ])
    }

    @Test func countsWithoutMakingPassedResults() throws {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "hosts:\n  a.example: shop\n  b.example: shop\n",
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\nexpectations:\n"
                + "  - url: /p/1\n    opens_app: shop\n  - url: /q\n    opens_app: shop\n",
        ]
        let (configuration, _) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration)
        var failed: [String] = []
        let tally = ExpectationRunner.forEach(loaded, Compiler().compile(loaded).compiled, includingPassed: false) {
            failed.append("\($0.host) \($0.url)")
        }
        #expect(tally.checks == 4)
        #expect(tally.environments == ["production"])
        #expect(failed == ["a.example https://a.example/q", "b.example https://b.example/q"])
    }
}
