import Testing

@testable import LinkwrightCore

/// Behaviour changes are proven per host and platform; hosts whose files and claims cannot have
/// changed are skipped, which must never hide a change.
@Suite struct BehaviourDiffTests {
    static func domain(_ rules: String) -> String { "applinks:\n  - apps: [shop]\n    rules:\n" + rules }

    static let android = """
            android:
              package: com.example.shop
              fingerprints:
                play-signing: "\(RuleExampleConfiguration.fingerprint)"

        """

    /// The rule examples' configuration, production serving the shop on its subdomains too and a
    /// blog beside it; without `android`, production's app is iOS only.
    func snapshot(
        shop: String, blog: String = "      - path: /posts/*\n", android: Bool = false,
        hosts: String = "  shop.example: shop\n  \"*.shop.example\": shop\n  blog.example: blog\n"
    ) throws -> CachedRevision {
        var files = RuleExampleConfiguration.replacing(
            "  shop.example: shop\n", with: hosts, in: "environments/production.yaml")
        if !android { files = files.replacing(Self.android, with: "", in: "environments/production.yaml") }
        return try LinkwrightCoreTests.snapshot(
            files.merging(["domains/shop.yaml": Self.domain(shop), "domains/blog.yaml": Self.domain(blog)]) { $1 })
    }

    func production(_ snapshot: CachedRevision) throws -> CompiledEnvironment {
        try #require(snapshot.compiled.environments.first { $0.name == "production" })
    }

    func host(_ name: String) throws -> Host { try Host.parse(name).get() }

    @Test func aChangeToOneDomainSkipsTheOthersButNotItsSubdomains() throws {
        let base = try snapshot(shop: "      - path: /products/*\n")
        let head = try snapshot(shop: "      - path: /products/*\n      - path: /sale/*\n")
        let affected = BehaviourDiff.affectedHosts(try production(base), try production(head))
        #expect(affected(try host("shop.example")))
        #expect(affected(try host("*.shop.example")), "a wildcard host reads its root's file")
        #expect(!affected(try host("blog.example")))
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.environment == "production" }
        #expect(Set(changes.map(\.host)) == ["shop.example", "*.shop.example"])
        #expect(changes.allSatisfy { $0.kind == .opensApp })
        #expect(changes.flatMap(\.witnesses).contains { $0.hasPrefix("https://shop.example/sale") })
    }

    /// Android's intent filters cover the rules' paths: a new rule widens the shop's filter,
    /// which changes Android's claims on the shop's hosts, not on the blog's.
    @Test func aRuleThatMovesIntentFilterScopesMakesItsFiltersHostsCount() throws {
        let base = try snapshot(shop: "      - path: /products/*\n", android: true)
        let head = try snapshot(shop: "      - path: /products/*\n      - path: /sale/*\n", android: true)
        let affected = BehaviourDiff.affectedHosts(try production(base), try production(head))
        #expect(affected(try host("shop.example")))
        #expect(affected(try host("*.shop.example")))
        #expect(!affected(try host("blog.example")))
        let blogBase = try snapshot(
            shop: "      - path: /products/*\n", blog: "      - path: /posts/*\n", android: true)
        let blogHead = try snapshot(shop: "      - path: /products/*\n", blog: "      - path: /news/*\n", android: true)
        let blogAffected = BehaviourDiff.affectedHosts(try production(blogBase), try production(blogHead))
        #expect(blogAffected(try host("blog.example")))
        #expect(!blogAffected(try host("shop.example")))
        let changes = BehaviourDiff.changes(base: blogBase, head: blogHead).filter { $0.environment == "production" }
        #expect(changes.contains { $0.platform == .android && $0.host == "blog.example" })
    }

    /// Files are compared once per pair of domains serving a host: a host bound to another
    /// domain counts, while the hosts of both domains whose files stayed do not.
    @Test func aHostBoundToAnotherDomainCounts() throws {
        let base = try production(try snapshot(shop: "      - path: /products/*\n"))
        var head = base
        let shop = try #require(head.sites.firstIndex { $0.domain == "shop" })
        let blog = try #require(head.sites.firstIndex { $0.domain == "blog" })
        (head.sites[blog].domain, head.sites[blog].aasa) = ("shop", head.sites[shop].aasa)
        let affected = BehaviourDiff.affectedHosts(base, head)
        #expect(affected(try host("blog.example")))
        #expect(!affected(try host("shop.example")))
        #expect(!affected(try host("*.shop.example")))
    }

    @Test func changedClaimsMakeEveryHostCount() throws {
        let base = try production(try snapshot(shop: "      - path: /products/*\n"))
        var head = base
        head.iosApps[0].associatedDomains.removeLast()
        let affected = BehaviourDiff.affectedHosts(base, head)
        #expect(affected(try host("blog.example")))
        #expect(affected(try host("shop.example")))
    }

    /// A host served on one side only is decided on both: a dropped wildcard's subdomains go to
    /// the web, shown on `www`, and a concrete host dropped under a wildcard is decided by the
    /// wildcard's files from then on.
    @Test func aDroppedWildcardSendsItsSubdomainsToTheWeb() throws {
        let rules = "      - path: /products/*\n"
        let base = try snapshot(shop: rules, android: true)
        let head = try snapshot(shop: rules, android: true, hosts: "  shop.example: shop\n  blog.example: blog\n")
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.environment == "production" }
        #expect(Set(changes.map(\.host)) == ["*.shop.example"])
        #expect(Set(changes.compactMap(\.platform)) == [.ios, .android])
        #expect(changes.allSatisfy { $0.kind == .opensWeb && !$0.approximate })
        #expect(changes.allSatisfy { $0.witnesses.first?.hasPrefix("https://www.shop.example/products") == true })
        let added = BehaviourDiff.changes(base: head, head: base).filter { $0.environment == "production" }
        #expect(Set(added.map(\.host)) == ["*.shop.example"])
        #expect(added.allSatisfy { $0.kind == .opensApp })
    }

    @Test func aConcreteHostDroppedUnderAWildcardIsDecidedByTheWildcard() throws {
        let base = try snapshot(
            shop: "      - path: /products/*\n",
            hosts: "  shop.example: shop\n  \"*.shop.example\": shop\n  sale.shop.example: blog\n  blog.example: blog\n"
        )
        let head = try snapshot(shop: "      - path: /products/*\n")
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.environment == "production" }
        #expect(Set(changes.map(\.host)) == ["sale.shop.example"])
        #expect(changes.contains { $0.kind == .opensWeb && $0.witnesses.first == "https://sale.shop.example/posts" })
        #expect(changes.contains { $0.kind == .opensApp && $0.witnesses.first == "https://sale.shop.example/products" })
    }

    /// A sample for a wildcard stands on `www` unless a binding names it.
    @Test func aWildcardSampleAvoidsBoundHosts() throws {
        let wildcard = try host("*.shop.example")
        #expect(URLSamples.host(for: wildcard, avoiding: []) == "www.shop.example")
        #expect(URLSamples.host(for: wildcard, avoiding: ["www.shop.example"]) == "subdomain.shop.example")
        #expect(
            URLSamples.host(for: wildcard, avoiding: ["www.shop.example", "subdomain.shop.example"])
                == "subdomain2.shop.example")
        #expect(URLSamples.host(for: try host("shop.example"), avoiding: ["shop.example"]) == "shop.example")
    }

    @Test func identicalSidesChangeNothing() throws {
        let base = try snapshot(shop: "      - path: /products/*\n")
        #expect(BehaviourDiff.changes(base: base, head: base).isEmpty)
        #expect(!BehaviourDiff.affectedHosts(try production(base), try production(base))(try host("shop.example")))
    }

    /// Where the iOS rules compare paths only, the diff's iOS changes are exact: a reordered
    /// exclusion is found with its shortest path, not marked as sampled.
    @Test func pathOnlyRulesGiveExactIOSChanges() throws {
        let base = try snapshot(
            shop: "      - path: /products/drafts/*\n        exclude: true\n      - path: /products/*\n")
        let head = try snapshot(
            shop: "      - path: /products/*\n      - path: /products/drafts/*\n        exclude: true\n")
        let changes = BehaviourDiff.changes(base: base, head: head).filter {
            $0.environment == "production" && $0.host == "shop.example"
        }
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.kind == .opensApp && !change.approximate)
        #expect(change.witnesses.contains("https://shop.example/products/drafts"))
    }

    /// A rule that reads the query is proven too: its shortest URL carries the item it needs.
    @Test func queryRulesGiveExactChanges() throws {
        let base = try snapshot(shop: "      - path: /products/*\n")
        let head = try snapshot(
            shop: "      - path: /products/*\n      - path: /sale/*\n        query:\n          id: \"?*\"\n")
        let changes = BehaviourDiff.changes(base: base, head: head).filter {
            $0.environment == "production" && $0.host == "shop.example"
        }
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.kind == .opensApp && !change.approximate)
        #expect(change.witnesses.first == "https://shop.example/sale?id=a", "\(change.witnesses)")
    }
}
