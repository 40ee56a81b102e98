import Testing

@testable import LinkwrightCore

/// Custom schemes in the structural diff (declared, dropped, redeclared) and in the behaviour
/// diff (where the app's router takes the scheme's URLs), on the rule examples' shop.
@Suite struct SchemeDiffTests {
    static let callback = """
              com.example.shop:
                purpose: oauth-callback
                callback: /oauth/callback

        """

    /// The shop declaring `com.example.shop` in production with `routes` (YAML entries indented
    /// by ten spaces).
    static func routed(_ routes: String) -> [String: String] {
        RuleExampleConfiguration.declaringSchemes(Self.callback + "        routes:\n" + routes)
    }

    static let signIn = """
                  - path: /oauth/callback
                    query: {code: "?*", state: "?*"}
                    route: signedIn
                    params: {code: query code, state: query state}

        """
    static let failed = """
                  - path: /oauth/callback
                    query: {error: "?*"}
                    route: signInFailed
                    params:
                      error: query error

        """

    func changes(_ base: [String: String], _ head: [String: String]) throws -> [LinkChange] {
        let base = try snapshot(base)
        let head = try snapshot(head)
        return StructuralDiff.changes(base: base, head: head) + BehaviourDiff.changes(base: base, head: head)
    }

    // MARK: Declarations

    @Test func aSchemeDeclaredIsAddedWithItsPurposeAtItsName() throws {
        let changes = try changes(
            RuleExampleConfiguration.files, RuleExampleConfiguration.declaringSchemes(Self.callback))
        let change = try #require(changes.first, "\(changes)")
        #expect(changes.count == 1, "\(changes)")
        #expect(change.kind == .schemeAdded && !change.kind.isBehaviour)
        #expect(change.scheme == "com.example.shop" && change.app == "shop" && change.host == nil)
        #expect(change.platform == nil && change.after == "oauth-callback, callback /oauth/callback")
        #expect(change.location?.description == "environments/production.yaml:12:7" && change.side == .head)
        #expect(
            change.summary
                == "production scheme com.example.shop: added for shop (oauth-callback, callback /oauth/callback)")
    }

    @Test func aSchemeDroppedIsRemovedAtTheBaseDeclaration() throws {
        let changes = try changes(
            RuleExampleConfiguration.declaringSchemes(Self.callback), RuleExampleConfiguration.files)
        #expect(changes.map(\.kind) == [.schemeRemoved], "\(changes)")
        #expect(changes.first?.before == "oauth-callback, callback /oauth/callback")
        #expect(changes.first?.side == .base && changes.first?.location?.line == 12)
        #expect(
            changes.first?.summary
                == "production scheme com.example.shop: removed from shop (oauth-callback, callback /oauth/callback)")
    }

    @Test func aNewPurposeOrCallbackIsAChangeAndRoutesAloneAreNot() throws {
        let deepLinks = RuleExampleConfiguration.declaringSchemes(
            "      com.example.shop:\n        purpose: deep-links\n")
        let changes = try changes(RuleExampleConfiguration.declaringSchemes(Self.callback), deepLinks)
        #expect(changes.map(\.kind) == [.schemeChanged], "\(changes)")
        #expect(changes.first?.before == "oauth-callback, callback /oauth/callback")
        #expect(changes.first?.after == "deep-links")
        let moved = RuleExampleConfiguration.declaringSchemes(
            Self.callback.replacingOccurrences(of: "/oauth/callback", with: "/sign-in/done"))
        #expect(
            try self.changes(RuleExampleConfiguration.declaringSchemes(Self.callback), moved).map(\.after)
                == ["oauth-callback, callback /sign-in/done"])
        // Equal declarations with other routes are no structural change (routes are behaviour).
        #expect(
            try StructuralDiff.changes(
                base: snapshot(Self.routed(Self.signIn)), head: snapshot(Self.routed(Self.failed))
            ).isEmpty)
    }

    @Test func schemeChangesFollowTheirAppInOrder() throws {
        let two =
            "      com.example.shop:\n        purpose: deep-links\n      com.example.shop.pay:\n        purpose: app-callback\n"
        let changes = try changes(
            RuleExampleConfiguration.declaringSchemes("      com.example.shop.old:\n        purpose: deep-links\n"),
            RuleExampleConfiguration.declaringSchemes(two))
        #expect(
            changes.map { "\($0.kind.rawValue) \($0.scheme ?? "")" }
                == [
                    "scheme_added com.example.shop", "scheme_added com.example.shop.pay",
                    "scheme_removed com.example.shop.old",
                ])
        #expect(changes.map { $0.json.rendered() }.allSatisfy { $0.contains("\"scheme\":") })
    }

    // MARK: Routes

    func routeChanges(_ base: String, _ head: String) throws -> [LinkChange] {
        try changes(Self.routed(base), Self.routed(head)).filter { $0.kind == .changesRoute }
    }

    @Test func swappedEntriesSendTheURLsBothMatchToTheOtherDestination() throws {
        let changes = try routeChanges(Self.signIn + Self.failed, Self.failed + Self.signIn)
        let change = try #require(changes.first, "\(changes)")
        #expect(changes.count == 1)
        #expect(change.scheme == "com.example.shop" && change.app == "shop" && change.platform == nil)
        #expect(change.before == "signedIn(code: a, state: a)" && change.after == "signInFailed(error: a)")
        // Items in the order of their names, whatever order the proof met them in.
        #expect(change.witnesses == ["com.example.shop:/oauth/callback?code=a&error=a&state=a"])
        #expect(change.kind.isBehaviour && !change.approximate)
        #expect(change.location?.line == 16 && change.side == .head, "\(String(describing: change.location))")
        #expect(
            change.summary
                == "production scheme com.example.shop: shop now routes to signInFailed(error: a) instead of signedIn(code: a, state: a)"
        )
        #expect(
            Changelog.sentence(change, code: { "`\($0)`" }, prose: { $0 })
                == "Links to `com.example.shop:/oauth/callback?code=a&error=a&state=a` now open shop at "
                + "`signInFailed(error: a)` instead of at `signedIn(code: a, state: a)`.")
    }

    @Test func aRemovedEntryLeavesItsURLsWithoutADestination() throws {
        let changes = try routeChanges(Self.signIn + Self.failed, Self.signIn)
        #expect(changes.map(\.before) == ["signInFailed(error: a)"], "\(changes)")
        #expect(changes.map(\.after) == ["no destination (no route entry matches)"])
        #expect(changes.map(\.witnesses) == [["com.example.shop:/oauth/callback?error=a"]])
        // Nothing decides the witness at the head: the change points at the base's entry.
        #expect(changes.first?.side == .base && changes.first?.location?.line == 20)
    }

    @Test func anEntryThatNowExcludesIsADestinationChangeNotALinkLost() throws {
        let excluded = Self.failed.replacingOccurrences(
            of: "            route: signInFailed\n            params:\n              error: query error\n",
            with: "            exclude: true\n")
        let changes = try changes(Self.routed(Self.failed + Self.signIn), Self.routed(excluded + Self.signIn))
        #expect(changes.map(\.kind) == [.changesRoute], "\(changes)")
        #expect(changes.first?.after == "no destination (an exclude entry matches)")
        #expect(changes.first?.before?.hasPrefix("signInFailed(") == true)
    }

    @Test func noDestinationReachedOtherwiseIsNoChange() throws {
        // `exclude` and `route: none` both leave the router without a destination, as no entry does.
        let none = "          - path: /help\n            route: none\n            reason: the start screen\n"
        let excluded = "          - path: /help\n            exclude: true\n"
        #expect(try routeChanges(Self.signIn + none, Self.signIn + excluded).isEmpty)
        #expect(try routeChanges(Self.signIn + none, Self.signIn).isEmpty)
        // Entries moved in the file but deciding alike are no change either.
        #expect(try routeChanges(Self.signIn + Self.failed, "\n" + Self.signIn + Self.failed).isEmpty)
    }

    @Test func aParameterReadFromElsewhereIsShownOnAURLHoldingBoth() throws {
        let tickets =
            "          - path: /tickets/*\n            route: ticket\n            params:\n              id?: segment 2\n"
        let changes = try routeChanges(tickets, tickets.replacingOccurrences(of: "segment 2", with: "query id"))
        #expect(changes.map(\.before) == ["ticket(id: s2)"] && changes.map(\.after) == ["ticket(id: q1)"], "\(changes)")
        #expect(changes.map(\.witnesses) == [["com.example.shop:/tickets/s2?id=q1"]])
    }

    @Test func onlyTheSameAppsSchemeIsCompared() throws {
        // Renamed: one scheme removed and one added, and no route change between them.
        let renamed = Self.routed(Self.failed).replacing(
            "      com.example.shop:\n", with: "      com.example.shop.auth:\n", in: "environments/production.yaml")
        let changes = try changes(Self.routed(Self.signIn), renamed)
        #expect(changes.map(\.kind) == [.schemeAdded, .schemeRemoved], "\(changes)")
    }

    // MARK: Routes shared with routes_from

    /// The shop's production scheme with `routes`, and staging's taking them.
    static func shared(_ routes: String) -> [String: String] {
        routed(routes).declaringSchemes(
            "      com.example.shop.staging:\n        purpose: oauth-callback\n        callback: /oauth/callback\n"
                + "        routes_from: production\n", in: "staging")
    }

    @Test func aSchemeTakesTheRoutesOfTheSameAppsSchemeWithItsPurpose() throws {
        let configuration = try snapshot(Self.shared(Self.signIn + Self.failed)).configuration
        let staging = try #require(configuration.environment(named: "staging")?.app(named: "shop")?.schemes.first)
        let production = try #require(configuration.environment(named: "production")?.app(named: "shop")?.schemes.first)
        #expect(staging.routes.map(\.location) == production.routes.map(\.location))
        #expect(
            staging.routes.map(\.location.file) == ["environments/production.yaml", "environments/production.yaml"])
        #expect(staging.routes.compactMap(\.route?.destination) == ["signedIn", "signInFailed"])
        #expect(staging.routesFrom?.value == "production" && production.routesFrom == nil)
    }

    @Test func aChangeToSharedRoutesChangesEveryEnvironmentTakingThem() throws {
        let changes = try changes(Self.shared(Self.signIn + Self.failed), Self.shared(Self.signIn))
            .filter { $0.kind == .changesRoute }
        #expect(changes.map(\.environment) == ["production", "staging"], "\(changes)")
        #expect(changes.map(\.scheme) == ["com.example.shop", "com.example.shop.staging"])
        #expect(changes.last?.witnesses == ["com.example.shop.staging:/oauth/callback?error=a"])
        // Where the routes are written.
        #expect(changes.last?.location?.file == "environments/production.yaml")
    }

    @Test func anUnsettledEntryPairIsListedAsUnproven() throws {
        let base = try snapshot(Self.routed(Self.signIn + Self.failed))
        let head = try snapshot(Self.routed(Self.failed + Self.signIn))
        let comparison = BehaviourDiff.compare(base: base, head: head, limits: ProofLimits(region: 1, total: 1))
        let unproven = comparison.unproven.filter { $0.host == "com.example.shop" }
        // Listed for each platform the shop ships on: both routers decide alike.
        #expect(Set(unproven.map(\.platform)) == [.ios, .android], "\(comparison.unproven)")
        #expect(unproven.count % 2 == 0 && unproven.contains { $0.headRule == "/oauth/callback ?error=?*" })
        #expect(unproven.allSatisfy { $0.identity == "shop" && $0.environment == "production" })
    }
}
