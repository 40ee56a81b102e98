import Testing

@testable import LinkwrightCore

/// The behaviour diff proves route changes too: URLs both sides open for the same app whose
/// router destination differs, each with a shortest witness decided again on both sides.
@Suite struct RouteChangeTests {
    /// The rule examples' configuration with the shop's rules replaced (iOS only).
    func snapshot(_ rules: String) throws -> CachedRevision {
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
        #expect(change.before == "product(id: s2)" && change.after == "product(id: q1)", "\(change)")
        #expect(change.witnesses == ["https://shop.example/products/s2?id=q1"])
    }

    /// Each query item a route reads holds its own value in the witness, so a parameter moved
    /// from one item to another, or two parameters swapped, read different values.
    @Test func aParameterMovedBetweenQueryItemsIsAChange() throws {
        let video = "      - path: /video/*\n        route: product\n        params:\n"
        let changes = try routeChanges(video + "          id?: query id\n", video + "          id?: query q\n")
        let change = try #require(changes.first, "\(changes)")
        #expect(change.before == "product(id: q1)" && change.after == "product(id: q2)", "\(change)")
        #expect(change.witnesses == ["https://shop.example/video?id=q1&q=q2"])
        let swapped = try routeChanges(
            video + "          a?: query x\n          b?: query y\n",
            video + "          a?: query y\n          b?: query x\n")
        #expect(swapped.map(\.before) == ["product(a: q1, b: q2)"], "\(swapped)")
        #expect(swapped.map(\.after) == ["product(a: q2, b: q1)"])
    }

    /// A parameter read as an int gets digits in the witness: filled with text, it gave no
    /// destination on both sides and hid the change of the parameter beside it.
    @Test func anIntParameterDoesNotHideAChangeBesideIt() throws {
        let video = "      - path: /video/*\n        route: product\n        params:\n          n?: segment 2 as int\n"
        let changes = try routeChanges(video + "          id?: query id\n", video + "          id?: query q\n")
        let change = try #require(changes.first, "\(changes)")
        #expect(change.before == "product(n: 2, id: q1)" && change.after == "product(n: 2, id: q2)", "\(change)")
        let ints = try routeChanges(
            video + "          id?: query id as int\n", video + "          id?: query q as int\n")
        #expect(ints.map(\.before) == ["product(n: 2, id: 11)"] && ints.map(\.after) == ["product(n: 2, id: 12)"])
    }

    /// A router with no destination on both sides does the same with the URL: `none` becoming a
    /// route whose int can never parse there is no change.
    @Test func noDestinationOnBothSidesIsNoChange() throws {
        let none = "      - path: /video/x\n        route: none\n        reason: the home screen\n"
        let unparsable =
            "      - path: /video/x\n        route: product\n        params:\n          id: segment 2 as int\n"
        #expect(try routeChanges(none, unparsable).isEmpty)
        #expect(try routeChanges(unparsable, none).isEmpty)
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
        let changes = try production(Self.products, Self.products + Self.tickets)
        #expect(Set(changes.map(\.kind)) == [.opensApp], "\(changes)")
    }

    static let tickets =
        "      - path: /tickets/*\n        route: ticket\n        params:\n          id?: segment 2\n"
        + "          source?: query source\n"

    func production(_ base: String, _ head: String) throws -> [LinkChange] {
        BehaviourDiff.changes(base: try snapshot(base), head: try snapshot(head)).filter {
            $0.environment == "production"
        }
    }

    /// A URL that starts opening the app says where the router takes it, resolved on the
    /// witness shown: its arguments are the witness's own.
    @Test func aGainedLinkNamesTheDestinationOfItsWitness() throws {
        let change = try #require(try production(Self.products, Self.products + Self.tickets).first)
        #expect(change.kind == .opensApp && change.routeBefore == nil, "\(change)")
        #expect(change.witnesses.first == "https://shop.example/tickets", "\(change)")
        #expect(change.routeAfter == "ticket(id: nil, source: nil)")
        #expect(
            change.summary
                == "production shop.example ios: now opens ABCDE12345.com.example.shop at ticket(id: nil, source: nil) instead of the web"
        )
        #expect(change.json.rendered().contains("\"route_after\": \"ticket(id: nil, source: nil)\""))
        #expect(!change.json.rendered().contains("route_before"))
    }

    /// The reverse: a URL that stops opening the app says which destination it reached.
    @Test func aLostLinkNamesTheDestinationItHad() throws {
        let change = try #require(try production(Self.products + Self.tickets, Self.products).first)
        #expect(change.kind == .opensWeb && change.routeAfter == nil, "\(change)")
        #expect(change.routeBefore == "ticket(id: nil, source: nil)")
        #expect(change.location?.line == 8 && change.side == .base, "\(change)")
        #expect(
            change.summary
                == "production shop.example ios: no longer opens ABCDE12345.com.example.shop at ticket(id: nil, source: nil); it stays on the web"
        )
        #expect(change.json.rendered().contains("\"route_before\": \"ticket(id: nil, source: nil)\""))
    }

    /// Without routes the wording and the JSON stay as they were.
    @Test func linksWithoutRoutesReadAsBefore() throws {
        // A domain names routes on every rule or on none (ROUTE_MISSING).
        let products = "      - path: /products/*\n"
        let tickets = "      - path: /tickets/*\n"
        let gained = try #require(try production(products, products + tickets).first)
        #expect(gained.routeAfter == nil && gained.routeBefore == nil)
        #expect(gained.summary == "production shop.example ios: now opens ABCDE12345.com.example.shop (was web)")
        let lost = try #require(try production(products + tickets, products).first)
        #expect(
            lost.summary == "production shop.example ios: now stays on the web (opened ABCDE12345.com.example.shop)")
        #expect(!lost.json.rendered().contains("route_"))
    }

    /// URLs gained for two destinations are two changes, each worded with its own.
    @Test func linksReachingDifferentDestinationsAreDifferentChanges() throws {
        let gifts = "      - path: /gifts/*\n        route: gift\n"
        let changes = try production(Self.products, Self.products + Self.tickets + gifts)
        #expect(changes.map(\.kind) == [.opensApp, .opensApp], "\(changes)")
        #expect(Set(changes.compactMap(\.routeAfter)) == ["gift", "ticket(id: nil, source: nil)"], "\(changes)")
        let gift = try #require(changes.first { $0.routeAfter == "gift" })
        #expect(gift.witnesses.allSatisfy { $0.hasPrefix("https://shop.example/gifts") }, "\(gift)")
    }

    /// `route: none` opens the app on purpose without a screen: said so, not "at none".
    @Test func aGainedLinkWithRouteNoneSaysItHasNoDestination() throws {
        let none = "      - path: /tickets/*\n        route: none\n        reason: tickets are sold on the web\n"
        let change = try #require(try production(Self.products, Self.products + none).first)
        #expect(change.routeAfter == "none")
        #expect(
            change.summary.hasSuffix(
                "now opens ABCDE12345.com.example.shop with no destination (route: none) instead of the web"))
    }

    /// The shop and a kiosk app (production, iOS) sharing shop.example's domain; `shop` and `kiosk` are their rules.
    func twoApps(shop: String, kiosk: String) throws -> CachedRevision {
        let kioskApp = "  kiosk:\n    ios:\n      bundle_id: com.example.kiosk\n"
        var files = RuleExampleConfiguration.replacing(
            BehaviourDiffTests.android, with: "", in: "environments/production.yaml")
        files = files.replacing("hosts:\n", with: kioskApp + "hosts:\n", in: "environments/production.yaml")
        files["domains/shop.yaml"] =
            BehaviourDiffTests.domain(shop) + (kiosk.isEmpty ? "" : "  - apps: [kiosk]\n    rules:\n" + kiosk)
        return try LinkwrightCoreTests.snapshot(files)
    }

    static func excluded(_ path: String) -> String { "      - path: \(path)\n        exclude: true\n" }

    /// A domain's route labels are its rules' in file order across its entries, `nil` for a rule
    /// without a route (an exclusion), as the plain reading of every rule gives them; a route changed in the
    /// second entry alone is a change of the second app's router.
    @Test func routeLabelsFollowEveryEntryInFileOrder() throws {
        let kiosk = "      - path: /kiosk/*\n        route: screen\n" + Self.excluded("/kiosk/help")
        let base = try twoApps(shop: Self.products + Self.excluded("/about"), kiosk: kiosk)
        let configuration = base.configuration
        let plain = try #require(configuration.domain(named: "shop")).applinks.flatMap(\.rules).map {
            $0.route.map(RouteLabels.label)
        }
        #expect(RouteLabels.sequence(of: "shop", in: configuration) == plain)
        #expect(plain.map { $0?.prefix(while: { $0 != "(" }) } == ["product", nil, "screen", nil], "\(plain)")
        #expect(RouteLabels.sequence(of: "nowhere.example", in: configuration).isEmpty)
        let head = try twoApps(
            shop: Self.products + Self.excluded("/about"),
            kiosk: kiosk.replacingOccurrences(of: "route: screen", with: "route: panel"))
        let changes = BehaviourDiff.changes(base: base, head: head).filter {
            $0.environment == "production" && $0.kind == .changesRoute
        }
        #expect(changes.map(\.app) == ["ABCDE12345.com.example.kiosk"], "\(changes)")
        #expect(changes.first?.before == "screen" && changes.first?.after == "panel", "\(changes)")
    }

    /// A URL one app hands to another names where each router takes it.
    @Test func aLinkMovingToAnotherAppNamesBothDestinations() throws {
        let sale = "      - path: /products/sale\n        route: sale\n"
        let excluded = "      - path: /products/sale\n        exclude: true\n"
        let base = try twoApps(shop: Self.products, kiosk: "")
        let head = try twoApps(shop: excluded + Self.products, kiosk: sale)
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.environment == "production" }
        let moved = try #require(changes.first { $0.kind == .changesApp }, "\(changes)")
        #expect(changes.count == 1, "\(changes)")
        #expect(moved.before == "ABCDE12345.com.example.shop" && moved.after == "ABCDE12345.com.example.kiosk")
        #expect(moved.routeBefore == "product(id: sale)" && moved.routeAfter == "sale", "\(moved)")
        #expect(
            moved.summary
                == "production shop.example ios: now opens ABCDE12345.com.example.kiosk at sale instead of "
                + "ABCDE12345.com.example.shop at product(id: sale)")
        #expect(
            Changelog.sentence(moved, code: MarkdownText.code, prose: MarkdownText.cell)
                == "Links to `/products/sale` now open ABCDE12345.com.example.kiosk at `sale` instead of "
                + "ABCDE12345.com.example.shop at `product(id: sale)`.")
        let json = moved.json.rendered()
        #expect(json.contains("\"route_before\": \"product(id: sale)\"") && json.contains("\"route_after\": \"sale\""))
        // Release notes keep both destinations on the URL they show.
        let shown = try #require(ReleaseNoteWitnesses.readable([moved], base: base, head: head).first)
        #expect(shown.witnesses.first == "https://shop.example/products/sale", "\(shown)")
        #expect(shown.routeBefore == "product(id: sale)" && shown.routeAfter == "sale", "\(shown)")
    }

    /// Release notes set the route apart like a URL and escape everything else for the format.
    @Test func releaseNoteSentencesNameTheDestination() {
        let gained = LinkChange(
            kind: .opensApp, environment: "production", host: "museo.example", platform: .ios, app: "museo",
            before: "web", after: "museo", routeAfter: "ticket(id: 42, source: <b>)",
            witnesses: ["https://museo.example/tickets/42"])
        #expect(
            Changelog.sentence(gained, code: MarkdownText.code, prose: MarkdownText.cell)
                == "Links to `/tickets/42` now open museo at `ticket(id: 42, source: <b>)` instead of the web.")
        #expect(
            Changelog.sentence(gained, code: { "<code>\(XMLText.printable($0))</code>" }, prose: XMLText.printable)
                == "Links to <code>/tickets/42</code> now open museo at <code>ticket(id: 42, source: &lt;b&gt;)</code> instead of the web."
        )
        var lost = gained
        lost.kind = .opensWeb
        (lost.routeBefore, lost.routeAfter) = ("no destination (id is not a whole number: x)", nil)
        #expect(
            Changelog.sentence(lost, code: MarkdownText.code, prose: MarkdownText.cell)
                == "Links to `/tickets/42` no longer open museo with no destination (id is not a whole number: x); they stay on the web."
        )
    }

    /// Release notes replace the proof's witness with a URL written from the deciding rule only
    /// when it reaches the change's destination: `/tickets/example`, written from `/tickets/*`,
    /// is taken by the rule in front to another screen.
    @Test func aReadableExampleReachingAnotherDestinationIsNotUsed() throws {
        let special = "      - path: /tickets/example\n        route: special\n"
        let base = try snapshot(Self.products)
        let head = try snapshot(Self.products + special + Self.tickets)
        let changes = BehaviourDiff.changes(base: base, head: head).filter { $0.environment == "production" }
        let ticket = try #require(changes.first { $0.routeAfter?.hasPrefix("ticket(") == true }, "\(changes)")
        let readable = ReleaseNoteWitnesses.readable([ticket], base: base, head: head)
        let shown = try #require(readable.first)
        #expect(!shown.witnesses.contains("https://shop.example/tickets/example"), "\(shown)")
        #expect(shown.routeAfter.map { $0.hasPrefix("ticket(") } == true, "\(shown)")
        let witness = try #require(shown.witnesses.first.flatMap(LinkURL.init))
        #expect(
            shown.routeAfter
                == "ticket(id: \(witness.path.split(separator: "/").dropFirst().first ?? "nil"), source: nil)")
        // The special screen's own change keeps its readable example.
        let own = try #require(changes.first { $0.routeAfter == "special" }, "\(changes)")
        #expect(
            ReleaseNoteWitnesses.readable([own], base: base, head: head).first?.witnesses.first
                == "https://shop.example/tickets/example")
    }
}
