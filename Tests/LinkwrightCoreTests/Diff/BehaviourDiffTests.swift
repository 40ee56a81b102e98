import Testing

@testable import LinkwrightCore

/// Behaviour changes are found by deciding sample URLs on both sides; hosts whose files and
/// claims cannot have changed are skipped, which must never hide a change.
@Suite struct BehaviourDiffTests {
    static let environment = """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios:
              bundle_id: com.example.shop
        hosts:
          shop.example: shop
          "*.shop.example": shop
          blog.example: blog

        """
    static func domain(_ rules: String) -> String { "applinks:\n  - apps: [shop]\n    rules:\n" + rules }

    func snapshot(shop: String, blog: String) throws -> PolicySnapshot {
        try LinkwrightCoreTests.snapshot([
            "environments/production.yaml": Self.environment, "domains/shop.yaml": Self.domain(shop),
            "domains/blog.yaml": Self.domain(blog),
        ])
    }

    @Test func aChangeToOneDomainSkipsTheOthersButNotItsSubdomains() throws {
        let base = try snapshot(shop: "      - path: /products/*\n", blog: "      - path: /posts/*\n")
        let head = try snapshot(
            shop: "      - path: /products/*\n      - path: /sale/*\n", blog: "      - path: /posts/*\n")
        let affected = BehaviourDiff.affectedHosts(base.compiled.environments[0], head.compiled.environments[0])
        #expect(affected(try Host.parse("shop.example").get()))
        #expect(affected(try Host.parse("*.shop.example").get()), "a wildcard host reads its root's file")
        #expect(!affected(try Host.parse("blog.example").get()))
        let changes = BehaviourDiff.changes(base: base, head: head)
        #expect(Set(changes.map(\.host)) == ["shop.example", "*.shop.example"])
        #expect(changes.allSatisfy { $0.kind == .opensApp })
        #expect(changes.flatMap(\.witnesses).contains { $0.hasPrefix("https://shop.example/sale") })
    }

    @Test func changedClaimsMakeEveryHostCount() throws {
        let base = try snapshot(shop: "      - path: /products/*\n", blog: "      - path: /posts/*\n")
        var head = base
        head.compiled.environments[0].iosApps[0].associatedDomains.removeLast()
        let affected = BehaviourDiff.affectedHosts(base.compiled.environments[0], head.compiled.environments[0])
        #expect(affected(try Host.parse("blog.example").get()))
        #expect(affected(try Host.parse("shop.example").get()))
    }

    @Test func identicalSidesChangeNothing() throws {
        let base = try snapshot(shop: "      - path: /products/*\n", blog: "      - path: /posts/*\n")
        #expect(BehaviourDiff.changes(base: base, head: base).isEmpty)
        let affected = BehaviourDiff.affectedHosts(base.compiled.environments[0], base.compiled.environments[0])
        #expect(!affected(try Host.parse("shop.example").get()))
    }
}
