import LinkwrightCore
import Testing

/// Routes as expectations write them and as the router reads them from URLs.
@Suite struct RouteTests {
    @Test func parsesTheWrittenForms() throws {
        #expect(RouteValue.parse("none") == RouteValue(destination: nil, arguments: []))
        #expect(RouteValue.parse("home") == RouteValue(destination: "home", arguments: []))
        let ticket = try #require(RouteValue.parse("ticket(id: 42, source: nil)"))
        #expect(ticket.destination == "ticket")
        #expect(ticket.arguments == [.init(name: "id", value: "42"), .init(name: "source", value: nil)])
        #expect(ticket.description == "ticket(id: 42, source: nil)")
        for broken in ["Ticket", "ticket(", "ticket(id)", "ticket(id: 1, id: 2)", "ticket(id: )", "ticket(1: x)"] {
            #expect(RouteValue.parse(broken) == nil, "\(broken)")
        }
    }

    @Test func anArgumentLeftOutMustBeAbsent() throws {
        let value = RouteValue(
            destination: "ticket", arguments: [.init(name: "id", value: "42"), .init(name: "source", value: nil)])
        #expect(value.satisfies(try #require(RouteValue.parse("ticket(id: 42)"))))
        #expect(value.satisfies(try #require(RouteValue.parse("ticket(id: 42, source: nil)"))))
        #expect(!value.satisfies(try #require(RouteValue.parse("ticket"))))
        #expect(!value.satisfies(try #require(RouteValue.parse("ticket(id: 42, source: mail)"))))
        #expect(!value.satisfies(try #require(RouteValue.parse("ticket(id: 42, seat: 3)"))))
        #expect(!value.satisfies(try #require(RouteValue.parse("order(id: 42)"))))
    }

    private func route(_ yaml: String) throws -> Route {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\nhosts:\n  shop.example: shop\n",
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /t/*\n" + yaml,
        ]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        return try #require(loaded.domains.first?.applinks.first?.rules.first?.route)
    }

    private func resolve(_ route: Route, _ url: String) throws -> Result<RouteValue, RouteProblem> {
        RouteResolver.resolve(route, url: try #require(LinkURL(url)))
    }

    /// A `/`, `&` or `=` followed by a combining mark is one Swift Character, but a separator
    /// to the router reading the percent-encoded URL: a raw URL splits at the same places.
    @Test func separatorsBeforeCombiningMarksStillSeparate() throws {
        let ticket = try route(
            "        route: ticket\n        params:\n          id?: segment 3\n          source?: query source\n")
        #expect(
            try resolve(ticket, "https://shop.example/t/x/\u{301}y?a=1&\u{301}=2&source=\u{301}z")
                == .success(
                    .init(
                        destination: "ticket",
                        arguments: [.init(name: "id", value: "\u{301}y"), .init(name: "source", value: "\u{301}z")])))
    }

    @Test func readsDecodedSegmentsAndTheFirstQueryItem() throws {
        let ticket = try route(
            "        route: ticket\n        params:\n          id?: segment 2\n          source?: query source\n")
        #expect(
            try resolve(ticket, "https://shop.example//t/caf%C3%A9/?source=a%20b&source=c")
                == .success(
                    .init(
                        destination: "ticket",
                        arguments: [.init(name: "id", value: "café"), .init(name: "source", value: "a b")])))
        #expect(
            try resolve(ticket, "https://shop.example/t?source=")
                == .success(
                    .init(
                        destination: "ticket",
                        arguments: [.init(name: "id", value: nil), .init(name: "source", value: nil)])))
    }

    /// A query item's name is compared scalar by scalar, as rules compare it and as the
    /// generated routers do: `café` written precomposed does not read an item named with `e`
    /// and a combining accent, though Swift's `==` holds the two equal.
    @Test func queryItemNamesCompareExactly() throws {
        let ticket = try route("        route: ticket\n        params:\n          source?: query caf\u{E9}\n")
        #expect(
            try resolve(ticket, "https://shop.example/t?cafe%CC%81=nfd&caf%C3%A9=nfc")
                == .success(.init(destination: "ticket", arguments: [.init(name: "source", value: "nfc")])))
        #expect(
            try resolve(ticket, "https://shop.example/t?cafe%CC%81=nfd")
                == .success(.init(destination: "ticket", arguments: [.init(name: "source", value: nil)])))
    }

    /// As matching decodes (`PercentDecoding`), so the generated routers need one decoder: a
    /// malformed escape stays, the others are still decoded, and bytes that are not UTF-8 read
    /// as U+FFFD.
    @Test func aMalformedEscapeLeavesTheRestDecoded() throws {
        let ticket = try route("        route: ticket\n        params:\n          id?: segment 2\n")
        #expect(
            try resolve(ticket, "https://shop.example/t/a%zz%41")
                == .success(.init(destination: "ticket", arguments: [.init(name: "id", value: "a%zzA")])))
        #expect(
            try resolve(ticket, "https://shop.example/t/%FFx")
                == .success(.init(destination: "ticket", arguments: [.init(name: "id", value: "\u{FFFD}x")])))
    }

    @Test func aRequiredOrTypedValueThatIsNotThereGivesNoDestination() throws {
        let ticket = try route("        route: ticket\n        params:\n          id?: segment 2 as int\n")
        #expect(
            try resolve(ticket, "https://shop.example/t/42")
                == .success(.init(destination: "ticket", arguments: [.init(name: "id", value: "42")])))
        #expect(
            try resolve(ticket, "https://shop.example/t/annual")
                == .failure(RouteProblem(message: "id reads \"annual\", not an int")))
        let search = try route(
            "        query: {q: \"*\"}\n        route: search\n        params:\n          q?: query q\n")
        #expect(
            try resolve(search, "https://shop.example/t")
                == .success(.init(destination: "search", arguments: [.init(name: "q", value: nil)])))
        let none = try route("        route: none\n        reason: home screen\n")
        #expect(try resolve(none, "https://shop.example/t/1") == .success(.init(destination: nil, arguments: [])))
    }

    @Test func testChecksTheRouteOnTheDecidingRule() throws {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\nhosts:\n  shop.example: shop\n",
            "domains/shop.yaml": """
            applinks:
              - apps: [shop]
                rules:
                  - path: /new/*
                    route: newArrivals
                  - path: /products/*
                    route: product
                    params:
                      id?: segment 2
            expectations:
              - url: /products/42
                opens_app: shop
                route: "product(id: 42)"
              - url: /new/42
                opens_app: shop
                route: "product(id: 42)"

            """,
        ]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        let results = ExpectationRunner.run(loaded, Compiler().compile(loaded).compiled)
        #expect(results.map(\.passed) == [true, false])
        #expect(results.last?.mismatch == "expected shop at product(id: 42), got shop at newArrivals")
    }
}
