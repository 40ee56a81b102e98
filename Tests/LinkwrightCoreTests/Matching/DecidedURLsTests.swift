import Testing

@testable import LinkwrightCore

/// A list remembers the URLs it decided rule by rule (`DecidedURLs`): a repeat, on another host
/// or for another app, tries no rules and answers as before; distinct URLs still build the
/// index; each Android release's reading keeps its own answers.
@Suite struct DecidedURLsTests {
    static let components = (0..<12).map { AASAComponent(path: "/section\($0)/*") }

    @Test func aURLAskedForManyHostsAndAppsTriesTheRulesOnce() throws {
        let compiled = LazyRuleIndex.$triesPerRuleForTests.withValue(2) {
            CompiledAASA(
                AASADocument(
                    applinks: AppLinksSection(details: [
                        AASADetails(appIDs: ["T.a", "T.b"], components: Self.components)
                    ])))
        }
        // Each miss tries all 12 rules; 24 tries build the index, so three distinct URLs would.
        for host in 0..<200 {
            let url = try #require(LinkURL("https://h\(host).example/other/page?x=1#top"))
            for app in ["T.a", "T.b"] {
                var traced = compiled.decision(for: url, appID: app, tracing: true)
                traced.trace = []
                #expect(compiled.decision(for: url, appID: app) == traced)
                #expect(traced.outcome == .noMatch)
            }
        }
        #expect(!compiled.entries[0].index.isBuilt)
        // Another query or fragment is another URL to the rules.
        for variant in ["/other/page?x=2#top", "/other/page?x=1#end", "/other/page?x=1"] {
            _ = compiled.decision(for: try #require(LinkURL(variant)), appID: "T.a")
        }
        #expect(compiled.entries[0].index.isBuilt)
        let decided = compiled.decision(for: try #require(LinkURL("https://h1.example/section3/x")), appID: "T.a")
        #expect(decided.outcome == .match && decided.ruleIndex == 3)
    }

    /// A caller announcing many URLs (`test`, deciding a domain's expectations) gets the index
    /// before the first, for the entries naming its app only; a few URLs still try the rules in
    /// turn first.
    @Test func manyURLsAnnouncedBuildTheIndexAtOnce() throws {
        let compiled = CompiledAASA(
            AASADocument(
                applinks: AppLinksSection(details: [
                    AASADetails(appIDs: ["T.a"], components: Self.components),
                    AASADetails(appIDs: ["T.b"], components: Self.components),
                ])))
        let many = 2 * LazyRuleIndex.triesPerRule
        compiled.anticipate(urls: many - 1, appID: "T.a")
        #expect(!compiled.entries[0].index.isBuilt)
        compiled.anticipate(urls: many, appID: "T.a")
        #expect(compiled.entries[0].index.isBuilt && !compiled.entries[1].index.isBuilt)
        let decided = compiled.decision(for: try #require(LinkURL("/section3/x")), appID: "T.a")
        #expect(decided.outcome == .match && decided.ruleIndex == 3)

        let android = CompiledDynamicRules(Self.components.map { DynamicComponent(path: $0.path) })
        android.anticipate(urls: many - 1)
        #expect(!android.index.isBuilt)
        android.anticipate(urls: many)
        #expect(android.index.isBuilt)
        #expect(android.decision(for: try #require(LinkURL("/section5/x"))).ruleIndex == 5)
    }

    /// `/a?*b` is one character or more between `a` and `b` for the newest release, and a
    /// greedy `.+` that leaves nothing for `b` on the first Android 15 parser: the same URL is
    /// decided by each reading as that reading decides it, however often and in whatever order.
    @Test func eachAndroidReadingRemembersItsOwnAnswers() throws {
        let latest = LazyRuleIndex.$triesPerRuleForTests.withValue(2) {
            CompiledDynamicRules([DynamicComponent(path: "/a?*b"), DynamicComponent(path: "/a*", exclude: true)])
        }
        let older = latest.reading(.android15Initial)
        let url = try #require(LinkURL("https://h.example/axyb"))
        for _ in 0..<3 {
            #expect(latest.decision(for: url).outcome == .match)
            #expect(older.decision(for: url).outcome == .exclude)
        }
    }
}
