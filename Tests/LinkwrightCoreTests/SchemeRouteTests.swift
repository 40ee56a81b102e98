import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// A custom scheme's `routes:` and `expectations:`: how they are read, validated, decided and
/// tested.
@Suite struct SchemeRouteTests {
    static let domain = """
        applinks:
          - apps: [shop]
            rules:
              - path: /items/*
                route: item
                params: {id?: segment 2}

        """

    /// An environment whose `shop` app declares `com.example.shop` with `routes` (and whatever
    /// `more` adds under the scheme).
    static func environment(routes: String, more: String = "", apps: String = "") -> String {
        """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios: {bundle_id: com.example.shop}
            android: {package: com.example.shop, fingerprints: {play-signing: "\(fingerprint)"}}
            schemes:
              com.example.shop:
                purpose: oauth-callback
                callback: /oauth/callback
                routes:
        \(routes.split(separator: "\n").map { "          " + $0 }.joined(separator: "\n"))
        \(more.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
        \(apps)
        hosts:
          shop.example: shop

        """
    }

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static let callbackRoutes = """
        - path: /oauth/callback
          query: {code: "?*", state: "?*"}
          route: oauthCallback
          params: {code: query code, state: query state}
        - path: /admin/*
          exclude: true
        - path: /help
          route: none
          reason: the start screen
        - path: /items/*
          route: item
          params: {id?: segment 2}
        """

    private func load(_ environment: String) -> (Configuration?, [Diagnostic]) {
        let files = ["environments/production.yaml": environment, "domains/shop.yaml": Self.domain]
        return ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
    }

    private func scheme(_ routes: String = callbackRoutes) throws -> CustomScheme {
        let (configuration, diagnostics) = load(Self.environment(routes: routes))
        let loaded = try #require(configuration, "\(diagnostics)")
        return try #require(loaded.environments.first?.apps.first?.schemes.first)
    }

    private func answer(_ url: String, _ routes: String = callbackRoutes) throws -> SchemeAnswer {
        CompiledSchemeRoutes(try scheme(routes)).answer(for: try #require(LinkURL.customScheme(url)))
    }

    // MARK: Reading scheme URLs

    @Test func aSchemeURLHasAPathAndQueryAndNoHost() throws {
        let url = try #require(LinkURL.customScheme("Com.Example.Shop:/oauth/callback?code=a#top"))
        #expect(url.scheme == "Com.Example.Shop")
        #expect(url.host == nil && url.path == "/oauth/callback" && url.query == "code=a" && url.fragment == "top")
        #expect(url.description == "Com.Example.Shop:/oauth/callback?code=a#top")
        #expect(LinkURL.customScheme("com.example.shop:")?.path == "")
        #expect(LinkURL.customScheme("com.example.shop:items/7")?.path == "items/7")
    }

    /// RFC 3986, section 3.2: `//` starts an authority, kept as the host, not read as a segment.
    @Test func twoSlashesStartAnAuthority() throws {
        let url = try #require(LinkURL.customScheme("com.example.shop://oauth/callback?code=a"))
        #expect(url.host == "oauth" && url.path == "/callback")
        #expect(url.description == "com.example.shop://oauth/callback?code=a")
    }

    @Test func httpSchemesAndMalformedTextAreNoSchemeURLs() {
        for text in ["https:/x", "HTTP:/x", "/path", "1abc:/x", "a b:/x", "com.example.shop:/a b", ":x", "x"] {
            #expect(LinkURL.customScheme(text) == nil, "\(text)")
        }
    }

    // MARK: Deciding

    @Test func theFirstMatchingEntryDecides() throws {
        let value = try answer("com.example.shop:/oauth/callback?state=s&code=c").value
        #expect(value.description == "oauthCallback(code: c, state: s)")
        #expect(try answer("com.example.shop:/items/7").value.description == "item(id: 7)")
        // Apple's reading of paths: `/items/*` also matches `/items`, slashes at either end do not count.
        #expect(try answer("com.example.shop:/items").value.description == "item(id: nil)")
        #expect(try answer("com.example.shop:items/7/").value.description == "item(id: 7)")
    }

    @Test func exclusionsNoneRoutesAndUnmatchedURLsReachNoDestination() throws {
        #expect(try answer("com.example.shop:/admin/users") == .excluded(try scheme().routes[1].location))
        guard case .route(let none, _) = try answer("com.example.shop:/help") else {
            Issue.record("route: none is an answer")
            return
        }
        #expect(none.destination == nil)
        #expect(try answer("com.example.shop:/elsewhere") == .noEntry)
        #expect(try answer("com.example.shop://items/7") == .withAuthority)
        // A required parameter the URL lacks: the entry matches, the router has no destination.
        let missing = try answer("com.example.shop:/oauth/callback?code=c&state=", Self.callbackRoutes)
        #expect(missing.value.destination == nil)
    }

    @Test func entriesCompareCaseAndEscapesAsWritten() throws {
        #expect(try answer("com.example.shop:/HELP") == .noEntry)
        #expect(try answer("com.example.shop:/%68elp") == .noEntry)
    }

    // MARK: Validation

    private func diagnostics(_ environment: String) -> [String] {
        load(environment).1.map { diagnostic in
            let place = diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-"
            return "\(diagnostic.id.rawValue) \(place) \(diagnostic.message)"
        }
    }

    @Test func anEntryWithoutARouteIsRefused() {
        let found = diagnostics(Self.environment(routes: "- path: /x"))
        #expect(found.contains { $0.hasPrefix("MISSING_KEY 12:13 a scheme route needs route:") }, "\(found)")
    }

    @Test func schemeEntriesHaveNoFragmentVariablesOrWholeQuery() {
        let found = diagnostics(
            Self.environment(
                routes: """
                    - path: /$(lang)/x
                      query: "a=*"
                      fragment: top
                      route: none
                      reason: r
                    """))
        #expect(found.contains { $0.hasPrefix("UNKNOWN_KEY") && $0.contains("fragment") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("INVALID_VALUE") && $0.contains("substitution variable") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("INVALID_VALUE") && $0.contains("query names items") }, "\(found)")
    }

    /// One router, one destination type: a route keeps its parameters across domains and schemes.
    @Test func aRouteHasTheSameParametersInDomainsAndSchemes() {
        let found = diagnostics(
            Self.environment(routes: "- path: /items/*\n  route: item\n  params: {id?: segment 2 as int}"))
        #expect(found.contains { $0.hasPrefix("ROUTE_PARAMETERS_DIFFER") }, "\(found)")
        #expect(diagnostics(Self.environment(routes: Self.callbackRoutes)).isEmpty)
    }

    @Test func aRequiredParameterMustBeInEveryURLTheEntryOpens() {
        let found = diagnostics(
            Self.environment(routes: "- path: /oauth/callback\n  route: oauthCallback\n  params: {code: query code}"))
        #expect(found.contains { $0.hasPrefix("ROUTE_PARAMETER_MAY_BE_ABSENT") }, "\(found)")
    }

    @Test func anExcludeEntryHasNoRoute() {
        let found = diagnostics(Self.environment(routes: "- path: /x\n  exclude: true\n  route: none\n  reason: r"))
        #expect(found.contains { $0.hasPrefix("CONFLICTING_KEYS") && $0.contains("exclude") }, "\(found)")
    }

    @Test func anOAuthCallbackNoEntryLeadsAnywhereIsAWarning() {
        for routes in [
            "- path: /items/*\n  route: item\n  params: {id?: segment 2}",
            "- path: /oauth/*\n  exclude: true\n- path: /oauth/callback\n  route: none\n  reason: r",
            "- path: /oauth/callback\n  route: none\n  reason: handled by the sign-in session",
        ] {
            let found = diagnostics(Self.environment(routes: routes))
            #expect(found.contains { $0.hasPrefix("SCHEME_CALLBACK_UNROUTED 10:19") }, "\(routes): \(found)")
        }
        #expect(!diagnostics(Self.environment(routes: Self.callbackRoutes)).contains { $0.contains("UNROUTED") })
    }

    @Test func expectationsNameRoutesAndAppsThatExist() {
        let found = diagnostics(
            Self.environment(
                routes: Self.callbackRoutes,
                more: """
                    expectations:
                      - url: com.example.shop:/items/7
                        route: "itme(id: 7)"
                      - url: com.example.shop:/items/7
                        opens_app: shp
                        route: "item(id: 7)"
                      - url: com.example.other:/items/7
                        route: none
                    """))
        #expect(
            found.contains { $0.hasPrefix("INVALID_VALUE") && $0.contains("is not a route of the scheme") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("UNDEFINED_APP") && $0.contains("shp") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("INVALID_URL") && $0.contains("com.example.other") }, "\(found)")
    }

    // MARK: Expectations

    private func report(more: String, apps: String = "") throws -> ExpectationReport {
        let (configuration, diagnostics) = load(Self.environment(routes: Self.callbackRoutes, more: more, apps: apps))
        let loaded = try #require(configuration, "\(diagnostics)")
        return ExpectationReport(
            loaded, Compiler().compile(loaded).compiled, keeping: .everyCheck, pathPrefix: "")
    }

    @Test func expectationsAreCheckedOnEveryPlatformWithTheRouteTheRouterGives() throws {
        let report = try report(
            more: """
                expectations:
                  - url: com.example.shop:/oauth/callback?code=c&state=s
                    opens_app: shop
                    route: "oauthCallback(code: c, state: s)"
                  - url: com.example.shop:/items/7
                    route: "item(id: 8)"
                  - url: com.example.shop://items/7
                    route: none
                  - url: COM.EXAMPLE.SHOP:/items/7
                    route: "item(id: 7)"
                """)
        let outcomes = report.checks.map { "\($0.url) \($0.platform.rawValue) \($0.outcomes[0].actual)" }
        #expect(
            outcomes == [
                "com.example.shop:/oauth/callback?code=c&state=s ios shop at oauthCallback(code: c, state: s)",
                "com.example.shop:/oauth/callback?code=c&state=s android shop at oauthCallback(code: c, state: s)",
                "com.example.shop:/items/7 ios shop at item(id: 7)",
                "com.example.shop:/items/7 android shop at item(id: 7)",
                "com.example.shop://items/7 ios shop with no destination: the URL has an authority (scheme://), which no route reads",
                "com.example.shop://items/7 android shop with no destination: the URL has an authority (scheme://), which no route reads",
                "COM.EXAMPLE.SHOP:/items/7 ios shop at item(id: 7)",
                // Android compares schemes exactly (IntentFilter.addDataScheme).
                "COM.EXAMPLE.SHOP:/items/7 android no app",
            ], "\(outcomes)")
        #expect(report.checks.map { $0.outcomes[0].passed } == [true, true, false, false, true, true, true, false])
        #expect(report.checkCount == 8 && report.failedCount == 3)
        #expect(report.checks[2].outcomes[0].places.map(\.host) == ["com.example.shop"])
    }

    /// Two apps declaring one scheme leave the choice to the system: no expectation can pass.
    @Test func aSchemeTwoAppsDeclareOpensNeitherForCertain() throws {
        let report = try report(
            more: """
                expectations:
                  - url: com.example.shop:/items/7
                    route: "item(id: 7)"
                """,
            apps: """
                  wallet:
                    ios: {bundle_id: com.example.wallet}
                    schemes:
                      com.example.shop: {purpose: deep-links}
                """)
        let ios = try #require(report.checks.first { $0.platform == .ios })
        #expect(ios.outcomes[0].actual == "shop, wallet" && !ios.outcomes[0].passed)
    }
}
