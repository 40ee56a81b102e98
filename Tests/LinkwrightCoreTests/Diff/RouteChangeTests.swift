import Testing

@testable import LinkwrightCore

/// The behaviour diff proves route changes too: URLs both sides open for the same app whose
/// router destination differs, each with a shortest witness decided again on both sides.
@Suite struct RouteChangeTests {
    /// The rule examples' configuration with the shop's rules replaced (iOS only).
    func snapshot(_ rules: String) throws -> PolicySnapshot {
        let files = RuleExampleConfiguration.replacing(
            BehaviourDiffTests.android, with: "", in: "environments/production.yaml")
        return try LinkwrightCoreTests.snapshot(
            files.merging(["domains/shop.yaml": BehaviourDiffTests.domain(rules)]) { $1 })
    }

    func routeChanges(_ base: String, _ head: String) throws -> [LinkChange] {
        BehaviourDiff.changes(base: try snapshot(base), head: try snapshot(head)).filter {
            $0.environment == "production" && $0.kind == .changesRoute
        }
    }

    static let products =
        "      - path: /products/*\n        route: product\n        params:\n          id?: segment 2\n"

    @Test func aRenamedDestinationIsAChangeWithAWitness() throws {
        let changes = try routeChanges(
            Self.products, Self.products.replacingOccurrences(of: "route: product", with: "route: item"))
        let change = try #require(changes.first)
        #expect(changes.count == 1, "\(changes)")
        #expect(change.app == "ABCDE12345.com.example.shop" && change.platform == .ios)
        #expect(change.before == "product(id: nil)" && change.after == "item(id: nil)")
        #expect(change.witnesses == ["https://shop.example/products"])
        #expect(change.location?.line == 4 && change.location?.file == "domains/shop.yaml")
        #expect(change.kind.isBehaviour && !change.approximate)
        #expect(
            change.summary
                == "production shop.example ios: ABCDE12345.com.example.shop now routes to item(id: nil) instead of product(id: nil)"
        )
    }

    @Test func aParameterReadFromElsewhereChangesWhereTheRouterGoes() throws {
        let changes = try routeChanges(
            Self.products, Self.products.replacingOccurrences(of: "id?: segment 2", with: "id?: query id"))
        let change = try #require(changes.first, "\(changes)")
        // The shortest URL where the two readings differ.
        #expect(change.before == "product(id: s2)" && change.after == "product(id: q)", "\(change)")
        #expect(change.witnesses == ["https://shop.example/products/s2?id=q"])
    }

    /// A new rule in front takes some of the old rule's URLs to another destination: only those.
    @Test func aRuleInFrontTakesItsURLsToItsOwnDestination() throws {
        let sale = "      - path: /products/sale\n        route: sale\n"
        let changes = try routeChanges(Self.products, sale + Self.products)
        #expect(changes.map(\.before) == ["product(id: sale)"] && changes.map(\.after) == ["sale"], "\(changes)")
        #expect(changes.map(\.witnesses) == [["https://shop.example/products/sale"]])
    }

    @Test func routeNoneIsADestinationChangeToo() throws {
        let none = Self.products.replacingOccurrences(
            of: "route: product\n        params:\n          id?: segment 2\n",
            with: "route: none\n        reason: the catalogue screen is gone\n")
        let changes = try routeChanges(Self.products, none)
        #expect(changes.map(\.after) == ["none"], "\(changes)")
    }

    /// Routes that decide every URL alike change nothing: a comment, a rule moved down a line,
    /// the same route on a new line.
    @Test func theSameRoutesOnOtherLinesAreNoChange() throws {
        let moved = "      - path: /about\n        exclude: true\n" + Self.products
        #expect(try routeChanges(Self.products, moved).isEmpty)
        let commented = Self.products + "        comment: the catalogue\n"
        #expect(try routeChanges(Self.products, commented).isEmpty)
        #expect(
            BehaviourDiff.changes(base: try snapshot(Self.products), head: try snapshot(commented)).isEmpty)
    }

    /// Opening the app where it did not is still `opens_app`, not a route change as well.
    @Test func aURLThatNowOpensTheAppIsNotARouteChange() throws {
        let ticket = "      - path: /tickets/*\n        route: ticket\n"
        let changes = BehaviourDiff.changes(
            base: try snapshot(Self.products), head: try snapshot(Self.products + ticket)
        )
        .filter { $0.environment == "production" }
        #expect(Set(changes.map(\.kind)) == [.opensApp], "\(changes)")
    }
}
