import Testing

@testable import LinkwrightCore

private func rules(_ json: String) -> CompiledDynamicRules {
    let file = "[\(androidStatement(rules: json))]"
    let document = AssetLinksReader().read(Array(file.utf8), file: "assetlinks.json").document
    return CompiledDynamicRules(document?.statements.first?.dynamicComponents ?? [])
}

private func outcome(_ rules: CompiledDynamicRules, _ url: String) -> LinkOutcome {
    rules.decision(for: LinkURL(url)!).outcome
}

@Suite("Android matching")
struct AndroidMatchingTests {
    // Source: configure-assetlinks#configure-dynamic, the example rules and query wording.
    @Test func googleExample() {
        let example = rules(
            ##"""
            [{"?": {"dl": "*"}}, {"#": "app"}, {"/": "/products/*"},
             {"/": "/shoes", "?": {"in_app": "true"}}, {"/": "*", "exclude": true}]
            """##
        )
        #expect(outcome(example, "https://example.com/x?dl=abc") == .match)
        #expect(outcome(example, "https://example.com/x#app") == .match)
        #expect(outcome(example, "https://example.com/products/42") == .match)
        #expect(outcome(example, "https://example.com/shoes?in_app=true") == .match)
        #expect(outcome(example, "https://example.com/shoes?lang=en&in_app=true&tz=pst") == .match)
        #expect(outcome(example, "https://example.com/shoes?lang=en&tz=pst") == .exclude)
        #expect(outcome(example, "https://example.com/about") == .exclude)
        let items = rules(##"[{"?": {"dl": "*", "in_app": "true"}}]"##)
        #expect(outcome(items, "https://example.com/?in_app=true&dl=abc") == .match)
        #expect(outcome(items, "https://example.com/?lang=en&in_app=true&tz=pst&dl=abc") == .match)
        #expect(outcome(items, "https://example.com/?lang=en&tz=pst&dl=abc") == .noMatch)
    }

    // Source: configure-assetlinks, "Order dynamic rules" examples.
    @Test func orderAndDefaultExclusion() {
        #expect(outcome(rules(##"[{"/": "*", "exclude": true}, {"/": "/path1"}]"##), "https://e.com/path1") == .exclude)
        let path1First = rules(##"[{"/": "/path1"}, {"/": "*", "exclude": true}]"##)
        #expect(outcome(path1First, "https://e.com/path1") == .match)
        #expect(outcome(path1First, "https://e.com/path2") == .exclude)
        #expect(outcome(rules(##"[{"/": "/path1"}, {"/": "/path2"}]"##), "https://e.com/path3") == .noMatch)
        let decision = path1First.decision(for: LinkURL("https://e.com/path1")!)
        #expect(decision.ruleIndex == 0 && decision.entryIndex == 0)
    }

    // Google: `*` stops at the first occurrence of the character after it; Apple's `*` does not.
    @Test func lazyStar() {
        let lazy = rules(##"[{"/": "/*/edit"}]"##)
        #expect(outcome(lazy, "https://e.com/42/edit") == .match)
        #expect(outcome(lazy, "https://e.com/a/b/edit") == .noMatch)
        #expect(componentMatches(##"{"/": "/*/edit"}"##, "https://e.com/a/b/edit"))
        #expect(outcome(rules(##"[{"/": "/a/?*"}]"##), "https://e.com/a/") == .noMatch)
        #expect(outcome(rules(##"[{"/": "/a/?*"}]"##), "https://e.com/a/b/c") == .match)
    }

    // Read from AOSP: UriRelativeFilter compares decoded parts, and a missing fragment never
    // matches (PatternMatcher.match(null) is false). No Leading-slash or trailing-slash
    // leniency: Google documents none.
    @Test func decodingAndMissingParts() {
        #expect(outcome(rules(##"[{"/": "/a b"}]"##), "https://e.com/a%20b") == .match)
        #expect(outcome(rules(##"[{"#": "*"}]"##), "https://e.com/x") == .noMatch)
        #expect(outcome(rules(##"[{"#": "*"}]"##), "https://e.com/x#") == .match)
        #expect(outcome(rules(##"[{"?": {"q": "*"}}]"##), "https://e.com/x") == .noMatch)
        #expect(outcome(rules(##"[{"/": "/buy"}]"##), "https://e.com/buy/") == .noMatch)
        #expect(outcome(rules(##"[{"/": "/Buy"}]"##), "https://e.com/buy") == .noMatch)
    }

    @Test func traceNamesEachComparison() {
        let decision = rules(##"[{"/": "/a/*", "?": {"x": "1"}, "#": "f"}]"##)
            .decision(for: LinkURL("https://e.com/a/b?x=2&x=1")!, tracing: true)
        #expect(decision.outcome == .noMatch)
        let checks = decision.trace.first?.checks ?? []
        #expect(checks.map(\.part) == [.path, .queryItem("x"), .fragment])
        #expect(checks.map(\.matched) == [true, true, false])
        #expect(checks[1].comparedValue == "1")
        #expect(decision.trace.first?.kind == .dynamicRule && decision.trace.first?.flags[.percentEncoded] == false)
    }

    @Test func assetLinksDecisionPerPackage() throws {
        let file =
            "[\(androidStatement(package: "com.example.plain")),\n"
            + "\(androidStatement(rules: ##"[{"/": "/in/*"}]"##))]"
        let compiled = CompiledAssetLinks(
            try #require(AssetLinksReader().read(Array(file.utf8), file: "a.json").document))
        #expect(compiled.packages == ["com.example.plain", "com.example.app"])
        let plain = compiled.decision(for: LinkURL("https://e.com/x")!, package: "com.example.plain")
        #expect(plain.outcome == .match && plain.entryIndex == 0 && plain.ruleIndex == nil)
        let narrowed = compiled.decision(for: LinkURL("https://e.com/in/1")!, package: "com.example.app")
        #expect(narrowed.outcome == .match && narrowed.entryIndex == 1 && narrowed.ruleIndex == 0)
        #expect(compiled.decision(for: LinkURL("https://e.com/out")!, package: "com.example.app").outcome == .noMatch)
        #expect(compiled.decision(for: LinkURL("https://e.com/x")!, package: "com.other").outcome == .noMatch)
    }

    // Source: the data-element page's pathPattern examples, and AOSP PatternMatcher's
    // SIMPLE_GLOB as read (core/java/android/os/PatternMatcher.java).
    @Test(arguments: [
        (#"abc.*xyz"#, "abcpxqrxyz", false),  // `.*` stops at the first "x"
        (#"abc.*xyz"#, "abcpqrxyz", true),
        (#"a.*.c"#, "abbbc", false),  // the `.` after `.*` is searched for literally
        (#"a.*.c"#, "ab.c", true),
        (#"a*a"#, "aaa", false),  // `x*` is greedy and never gives back
        (#"a*"#, "", false),  // documented oddity: no match on the empty string
        (#"ba*"#, "b", false),  // the same quirk: the loop ends with the input
        (#"ba*"#, "baa", true),
        (#"/.*"#, "/", true),
        (#"/item/.*"#, "/item/", true),  // a final `.*` accepts once the input runs out
        (#"/files/.*\\.pdf"#, "/files/a.pdf", true),  // manifest `\\.` is pattern `\.`
        (#"/files/.*\\.pdf"#, "/files/a.b.pdf", false),
        (#"/a\\*b"#, "/a*b", true),  // manifest `\\*` is a literal star
        (#"/a\\*b"#, "/ab", false),
        (#"/v\\.1"#, "/vx1", true),  // AOSP compares an escaped lone `.` as any character
        (#"/.."#, "/ab", true),
        ("", "", true),
    ])
    func simpleGlob(pattern: String, path: String, matches: Bool) {
        #expect(AndroidPathAttribute.pattern(pattern).matches(path: path) == matches, "\(pattern) vs \(path)")
    }

    @Test func pathAttributesAndScopes() throws {
        #expect(AndroidPathAttribute.path("/a").matches(path: "/a"))
        #expect(!AndroidPathAttribute.path("/a").matches(path: "/a/"))
        #expect(AndroidPathAttribute.prefix("/a").matches(path: "/ab"))
        #expect(AndroidPathAttribute.suffix(".pdf").matches(path: "/x.pdf"))
        #expect(!AndroidPathAttribute.suffix(".pdf").matches(path: "/x.pdfs"))
        #expect(PathScope.prefix("/café").matches(LinkURL("https://e.com/caf%C3%A9/x")!))
        let host = try Host.parse("*.example.com").get()
        let filter = IntentFilter(domain: "d", hosts: [host], scopes: [.path("/a"), .prefix("/b/")])
        #expect(filter.matchingScope(for: LinkURL("https://www.example.com/b/1")!) == 1)
        #expect(filter.matchingScope(for: LinkURL("https://example.com/b/1")!) == nil)
        #expect(filter.matchingScope(for: LinkURL("/a")!) == 0)
        #expect(filter.matchingScope(for: LinkURL("https://www.example.com/c")!) == nil)
    }

    /// Up to `count` seeded pieces, joined.
    private static func joined(_ pieces: [String], upTo count: Int, using generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...count, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    /// `path` and `pathPrefix` values without `\` are compared as bytes
    /// (`AndroidPathAttribute.matches(path:)`): as the scalars of the path and the unescaped
    /// value, on seeded values and paths of escapes, non-ASCII letters spelt NFC and NFD and
    /// prefixes of each other.
    @Test func pathAttributesByBytesMatchAsByScalars() {
        let pieces = ["/", "a", "ab", "\\", "\\*", ".*", "caf\u{E9}", "cafe\u{301}", "\u{E9}", "e"]
        var generator = SplitMix64(seed: 62)
        func text() -> String { Self.joined(pieces, upTo: 4, using: &generator) }
        var matched = 0
        for _ in 0..<20_000 {
            let (value, path) = ("/" + text(), "/" + text())
            for attribute in [AndroidPathAttribute.path(value), .prefix(value), .suffix(value), .pattern(value)] {
                let expected = attribute.matchesByScalars(path: path)
                if expected { matched += 1 }
                #expect(attribute.matches(path: path) == expected, "\(attribute) vs \(path)")
            }
        }
        #expect(matched > 1_000)
    }

    /// Printable ASCII hosts are compared byte by byte (`HostPattern.androidFilter`): as the
    /// comparison of their lowered characters, on seeded filter and URL hosts of either case,
    /// wildcards, non-ASCII letters, combining marks and spaces.
    @Test func androidFilterHostsByBytesMatchAsByCharacters() {
        let pieces = [".", "a", "A", "shop", "SHOP", "-", "*", "é", "É", "\u{301}", "\u{212A}", "k", " ", "x9"]
        var generator = SplitMix64(seed: 61)
        func host() -> String { Self.joined(pieces, upTo: 5, using: &generator) }
        var matched = 0
        for _ in 0..<20_000 {
            let (filterHost, urlHost) = (host(), host())
            let expected = HostPattern.androidFilterByCharacters(filterHost, matches: urlHost)
            if expected { matched += 1 }
            #expect(HostPattern.androidFilter(filterHost, matches: urlHost) == expected, "\(filterHost) vs \(urlHost)")
        }
        #expect(matched > 100)
    }

    // Apple: "an entry for *.mywebsite.com does not match mywebsite.com" (App Search guide).
    // Android: AOSP IntentFilter.AuthorityEntry drops the "*" and compares the end, ignoring case.
    @Test func hostWildcards() {
        #expect(HostPattern.appleEntitlement("*.example.com", matches: "www.example.com"))
        #expect(HostPattern.appleEntitlement("*.example.com", matches: "a.b.example.com"))
        #expect(!HostPattern.appleEntitlement("*.example.com", matches: "example.com"))
        #expect(!HostPattern.appleEntitlement("*.example.com", matches: ".example.com"))
        #expect(HostPattern.appleEntitlement("example.com", matches: "EXAMPLE.com"))
        #expect(HostPattern.androidFilter("*.example.com", matches: "www.Example.com"))
        #expect(HostPattern.androidFilter("*.example.com", matches: ".example.com"))
        #expect(!HostPattern.androidFilter("*.example.com", matches: "example.com"))
        #expect(!HostPattern.androidFilter("www.example.com", matches: "example.com"))
    }
}
