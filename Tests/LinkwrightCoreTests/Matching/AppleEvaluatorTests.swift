import LinkwrightCore
import Testing

/// The file of Apple's applinks overview example, as blazingly-aasa's cases `apple/overview/*`
/// write it (conformance/cases.json), each case checked there against swcutil.
private let overviewFile = ##"""
    {"applinks": {"details": [{
      "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
      "components": [
        {"#": "no_universal_links", "exclude": true},
        {"/": "/buy/*"},
        {"/": "/help/website/*", "exclude": true},
        {"/": "/help/*", "?": {"articleNumber": "????"}}
      ]}]}}
    """##

/// blazingly-aasa cases `defaults/rule-overrides-app` and neighbours (swcutil-backed).
private let defaultsFile = ##"""
    {"applinks": {
      "defaults": {"caseSensitive": false},
      "details": [{"appIDs": ["ABCDE12345.com.example.app"], "defaults": {"caseSensitive": true},
        "components": [{"/": "/Loose/*", "caseSensitive": false}, {"/": "/Strict/*"}]}]}}
    """##

/// blazingly-aasa cases `substitution/*`, from Apple's substitutionVariables example.
private let foodFile = ##"""
    {"applinks": {"substitutionVariables": {"food": ["burrito", "pizza", "sushi", "samosa"]},
      "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(lang)_$(region)/$(food)/"}]}]}}
    """##

private let legacyFile = ##"""
    {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app",
      "paths": ["NOT /wwdc/internal/*", "/wwdc/*"]}]}}
    """##

@Suite("Apple evaluator")
struct AppleEvaluatorTests {
    // Source: blazingly-aasa conformance/cases.json apple/overview/*, swcutil verify output.
    @Test(
        arguments: [
            ("https://example.com/buy/42", exampleApp, LinkOutcome.match, 1),
            ("https://example.com/buy/42#no_universal_links", exampleApp, .exclude, 0),
            ("https://example.com/help/website/faq?articleNumber=4815", exampleApp, .exclude, 2),
            ("https://example.com/help/123?articleNumber=4815", exampleApp, .match, 3),
            ("https://example.com/help/123?articleNumber=481", exampleApp, .noMatch, nil),
            ("https://example.com/help/123?articleNumber=48159", exampleApp, .noMatch, nil),
            ("https://example.com/help/123", exampleApp, .noMatch, nil),
            ("https://example.com/elsewhere", exampleApp, .noMatch, nil),
            ("https://example.com/buy/42", "ABCDE12345.com.example.app2", .match, 1),
            ("https://example.com/buy/42", "ZZZZZ99999.com.other.app", .noMatch, nil),
        ] as [(String, String, LinkOutcome, Int?)])
    func appleOverviewExample(url: String, app: String, outcome: LinkOutcome, component: Int?) {
        let decision = appleDecision(overviewFile, url, app: app)
        #expect(decision.outcome == outcome)
        #expect(decision.ruleIndex == component)
        #expect(decision.entryIndex == (component == nil ? nil : 0))
    }

    // Source: Apple's Components page: {"/": "abc", "?": "def", "#": "*"} matches /abc?def,
    // not /abc nor ?def (blazingly apple/components/*, swcutil-backed).
    @Test func allSpecifiedPartsMustMatch() {
        let component = ##"{"/": "/abc", "?": "def", "#": "*"}"##
        #expect(componentMatches(component, "https://example.com/abc?def"))
        #expect(!componentMatches(component, "https://example.com/abc"))
        #expect(!componentMatches(component, "https://example.com?def"))
    }

    // Source: blazingly cases defaults/* (swcutil): component > details.defaults > applinks.defaults.
    @Test(arguments: [
        ("https://example.com/loose/1", LinkOutcome.match),
        ("https://example.com/strict/1", .noMatch),
        ("https://example.com/Strict/1", .match),
    ])
    func defaultsHierarchy(url: String, outcome: LinkOutcome) {
        #expect(appleDecision(defaultsFile, url).outcome == outcome)
    }

    // Source: blazingly swcutil-gap-probes.tsv, defaults group: `/`, `?` and `exclude` inherit.
    @Test func defaultsCarryComponentKeys() {
        let component = ##"{"#": "*"}"##
        func file(_ applinksDefaults: String, detailsDefaults: String = "{}") -> String {
            ##"""
            {"applinks": {"defaults": \##(applinksDefaults), "details": [{"appIDs": ["\##(exampleApp)"],
              "defaults": \##(detailsDefaults), "components": [\##(component)]}]}}
            """##
        }
        #expect(appleDecision(file("{}"), "https://example.com/bar").outcome == .match)
        #expect(appleDecision(file(##"{"/": "/foo/*"}"##), "https://example.com/bar").outcome == .noMatch)
        #expect(appleDecision(file(##"{"/": "/foo/*"}"##), "https://example.com/foo/1").outcome == .match)
        #expect(
            appleDecision(file("{}", detailsDefaults: ##"{"/": "/foo/*"}"##), "https://example.com/bar").outcome
                == .noMatch)
        #expect(appleDecision(file(##"{"exclude": true}"##), "https://example.com/bar").outcome == .exclude)
        #expect(appleDecision(file(##"{"?": {"id": "??"}}"##), "https://example.com/bar?id=7").outcome == .noMatch)
        #expect(appleDecision(file(##"{"?": {"id": "??"}}"##), "https://example.com/bar?id=77").outcome == .match)
        #expect(appleDecision(file(##"{"caseSensitive": false}"##), "https://example.com/FOO").outcome == .match)
    }

    // Source: st-tech/universal-links-test tests/node.test.ts, run against swcutil in CI.
    @Test func stTechCases() {
        func file(_ details: String) -> String { ##"{"applinks": {"details": [\##(details)]}}"## }
        #expect(appleDecision("{}", "/").outcome == .noMatch)  // "empty json"
        #expect(appleDecision(file(##"{"appID": "\##(exampleApp)", "components": []}"##), "/").outcome == .noMatch)
        let search = ##"{"appID": "\##(exampleApp)", "components": [{"/": "/search/"}]}"##
        #expect(appleDecision(file(search), "/search/").outcome == .match)
        #expect(appleDecision(file(search), "/SEARCH/").outcome == .noMatch)  // "default case sensitive"
        #expect(appleDecision(file(search), "/search/?q=foo#bar").outcome == .match)
        let insensitive = ##"{"appID": "\##(exampleApp)", "components": [{"/": "/search/", "caseSensitive": false}]}"##
        #expect(appleDecision(file(insensitive), "/SEARCH/").outcome == .match)
        let excluded =
            ##"""
            {"appID": "\##(exampleApp)", "components": [{"#": "nondeeplinking", "exclude": true}, {"/": "/search/"}]}
            """##
        #expect(appleDecision(file(excluded), "/search/#nondeeplinking").outcome == .exclude)
        let whole = ##"{"appID": "\##(exampleApp)", "components": [{"?": "key=value"}]}"##
        #expect(appleDecision(file(whole), "/?key=value").outcome == .match)
        #expect(appleDecision(file(whole), "/?key=value&extra=value").outcome == .noMatch)
        let items = ##"{"appID": "\##(exampleApp)", "components": [{"?": {"key": "value"}}]}"##
        #expect(appleDecision(file(items), "/?key=value").outcome == .match)
        #expect(appleDecision(file(items), "/?key=value&extra=value").outcome == .match)
        // "should unset appIDs and appID not provided"
        #expect(appleDecision(file(##"{"components": [{"/": "/search/"}]}"##), "/search/").outcome == .noMatch)
    }

    // Source: st-tech "should ignore appID if appIDs provided" and "should match multiple
    // appIDs (appID is ignored)", swcutil-backed.
    @Test func appIDsWinOverAppIDEvenWhenEmpty() {
        let empty =
            ##"""
            {"applinks": {"details": [{"appID": "\##(exampleApp)", "appIDs": [], "components": [{"/": "/search/"}]}]}}
            """##
        #expect(appleDecision(empty, "/search/").outcome == .noMatch)
        let other = "FGHIJ67890.com.example.bar"
        let listed =
            ##"""
            {"applinks": {"details": [{"appID": "\##(exampleApp)", "appIDs": ["\##(other)"],
              "components": [{"/": "/search/"}]}]}}
            """##
        #expect(appleDecision(listed, "/search/").outcome == .noMatch)
        #expect(appleDecision(listed, "/search/", app: other).outcome == .match)
    }

    // Source: st-tech "should handle multiple details": the first entry that decides wins.
    @Test func firstDecidingEntryWins() {
        let file = ##"""
            {"applinks": {"details": [
              {"appIDs": ["\##(exampleApp)"], "components": [{"/": "/other/"}]},
              {"appIDs": ["\##(exampleApp)"], "components": [{"/": "/search/"}]},
              {"appIDs": ["\##(exampleApp)"], "components": [{"/": "/search/", "exclude": true}]}]}}
            """##
        let decision = appleDecision(file, "/search/")
        #expect(decision.outcome == .match)
        #expect(decision.entryIndex == 1)
        #expect(decision.ruleIndex == 0)
    }

    // Source: blazingly cases order/* (swcutil): first matching component wins.
    @Test func componentOrderDecides() {
        func file(_ components: String) -> String {
            ##"{"applinks": {"details": [{"appIDs": ["\##(exampleApp)"], "components": [\##(components)]}]}}"##
        }
        let excludeFirst = file(##"{"/": "/a/private/*", "exclude": true}, {"/": "/a/*"}"##)
        #expect(appleDecision(excludeFirst, "https://example.com/a/private/x").outcome == .exclude)
        #expect(appleDecision(excludeFirst, "https://example.com/a/public").outcome == .match)
        let reversed = file(##"{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}"##)
        #expect(appleDecision(reversed, "https://example.com/a/private/x").outcome == .match)
    }

    // Source: blazingly cases substitution/* (swcutil).
    @Test(arguments: [
        ("https://example.com/en_US/pizza/", true),
        ("https://example.com/en_US/tacos/", false),
        ("https://example.com/qq_ZZ/pizza/", false),
        ("https://example.com/en_US/$(food)/", false),
    ])
    func substitutionVariables(url: String, matches: Bool) {
        #expect((appleDecision(foodFile, url).outcome == .match) == matches)
    }

    // Source: blazingly cases substitution/class-* and region-* (swcutil).
    @Test(arguments: [
        ("/$(region)/home", "/GB/home", true), ("/$(region)/home", "/UK/home", false),
        ("/id/$(digit)", "/id/7", true), ("/id/$(digit)", "/id/x", false), ("/id/$(digit)", "/id/77", false),
        ("/id/$(alpha)", "/id/q", true), ("/id/$(alpha)", "/id/7", false),
        ("/id/$(upper)", "/id/Q", true), ("/id/$(upper)", "/id/q", false),
        ("/id/$(lower)", "/id/q", true), ("/id/$(lower)", "/id/Q", false),
        ("/id/$(alnum)", "/id/7", true), ("/id/$(alnum)", "/id/-", false),
        ("/id/$(xdigit)", "/id/f", true), ("/id/$(xdigit)", "/id/g", false),
        ("/$(lang)/x", "/en/x", true), ("/$(lang)/x", "/english/x", false),
    ])
    func predefinedVariables(pattern: String, path: String, matches: Bool) {
        #expect(componentMatches(##"{"/": "\##(pattern)"}"##, "https://example.com" + path) == matches)
    }

    // Source: blazingly substitution/class-folds-when-case-insensitive and
    // substitution/values-may-contain-wildcards (swcutil).
    @Test func variablesFoldAndCarryWildcards() {
        #expect(componentMatches(##"{"/": "/id/$(upper)", "caseSensitive": false}"##, "https://example.com/id/q"))
        let file = ##"""
            {"applinks": {"substitutionVariables": {"kind": ["a*z"]},
              "details": [{"appIDs": ["\##(exampleApp)"], "components": [{"/": "/$(kind)/x"}]}]}}
            """##
        #expect(appleDecision(file, "https://example.com/abcz/x").outcome == .match)
        #expect(appleDecision(file, "https://example.com/abc/x").outcome == .noMatch)
    }

    // Apple is silent on variables in `?` and `#`; Apple says variables serve "URL pattern
    // matching" without restriction, so they are honoured everywhere.
    @Test func variablesWorkInQueryAndFragment() {
        #expect(componentMatches(##"{"?": {"id": "$(digit)$(digit)"}}"##, "https://example.com/x?id=42"))
        #expect(!componentMatches(##"{"?": {"id": "$(digit)$(digit)"}}"##, "https://example.com/x?id=4x"))
        #expect(componentMatches(##"{"#": "$(lang)"}"##, "https://example.com/x#fr"))
    }

    // Source: blazingly cases legacy/* (swcutil) and Apple's App Search guide.
    @Test func legacyPaths() {
        #expect(appleDecision(legacyFile, "https://example.com/wwdc/2015").outcome == .match)
        let excluded = appleDecision(legacyFile, "https://example.com/wwdc/internal/notes")
        #expect(excluded.outcome == .exclude)
        #expect(excluded.ruleIndex == 0)
        #expect(appleDecision(legacyFile, "https://example.com/other").outcome == .noMatch)
        // Only the path counts: "Other components, such as the query string or fragment
        // identifier, are ignored."
        #expect(appleDecision(legacyFile, "https://example.com/wwdc/2015?x=1#y").outcome == .match)
        let dictionary = ##"{"applinks": {"apps": [], "details": {"\##(exampleApp)": {"paths": ["/wwdc/news/"]}}}}"##
        #expect(appleDecision(dictionary, "https://example.com/wwdc/news/").outcome == .match)
    }

    // Source: WWDC19 session 717: with components present iOS 13+ ignores paths.
    @Test func componentsHideLegacyPaths() {
        let file = ##"""
            {"applinks": {"details": [{"appIDs": ["\##(exampleApp)"], "paths": ["*"],
              "components": [{"/": "/only/*"}]}]}}
            """##
        let result = AASAReader().read(Array(file.utf8), file: "aasa")
        let compiled = CompiledAASA(result.document!)
        #expect(compiled.decision(for: LinkURL("/elsewhere")!, appID: exampleApp).outcome == .noMatch)
        #expect(compiled.decision(for: LinkURL("/only/1")!, appID: exampleApp).outcome == .match)
    }

    // Apple is silent on whether query names fold; this engine compares names exactly and folds
    // values only, and decodes both under percentEncoded false.
    @Test func queryItemNamesAndDecoding() {
        #expect(componentMatches(##"{"?": {"q": "abc"}, "caseSensitive": false}"##, "https://example.com/?q=ABC"))
        #expect(!componentMatches(##"{"?": {"q": "abc"}, "caseSensitive": false}"##, "https://example.com/?Q=abc"))
        #expect(componentMatches(##"{"?": {"q": "a b"}, "percentEncoded": false}"##, "https://example.com/?q=a%20b"))
        #expect(!componentMatches(##"{"?": {"q": "a b"}}"##, "https://example.com/?q=a%20b"))
        #expect(componentMatches(##"{"?": {"a b": "1"}, "percentEncoded": false}"##, "https://example.com/?a%20b=1"))
        #expect(componentMatches(##"{"#": "café", "percentEncoded": false}"##, "https://example.com/#caf%C3%A9"))
    }

    @Test func appIDsListsEveryAppOnce() {
        let compiled = CompiledAASA(readAASA(overviewFile + ""))
        #expect(compiled.appIDs == [exampleApp, "ABCDE12345.com.example.app2"])
    }

    // Apple is silent on undefined variables and unterminated `$(`: such a pattern never
    // matches (the safe reading for a positive rule) and is reported at its component.
    @Test func patternsThatDoNotCompileNeverMatch() {
        let file = ##"""
            {"applinks": {"details": [{"appIDs": ["\##(exampleApp)"], "components": [
              {"/": "/$(nothing)/*"}, {"/": "/x/$(lang"}, {"/": "*", "exclude": true}]}]}}
            """##
        let compiled = CompiledAASA(readAASA(file))
        #expect(compiled.diagnostics.map(\.id) == [.undefinedVariable, .patternSyntax])
        #expect(compiled.diagnostics.allSatisfy { $0.location?.line == 2 })
        #expect(compiled.decision(for: LinkURL("/anything/1")!, appID: exampleApp).outcome == .exclude)
    }

    @Test func traceRecordsEveryComparison() {
        let compiled = CompiledAASA(readAASA(overviewFile))
        let decision = compiled.decision(
            for: LinkURL("https://example.com/Help/123?articleNumber=12345")!, appID: exampleApp, tracing: true)
        #expect(decision.outcome == .noMatch)
        #expect(decision.trace.count == 4)
        let last = decision.trace[3]
        #expect(last.kind == .component)
        #expect(last.flags == .appleDefaults && !last.exclude && !last.matched)
        #expect(last.origin?.line == 7)
        #expect(last.checks.map(\.part) == [.path, .queryItem("articleNumber"), .fragment])
        #expect(last.checks.map(\.matched) == [false, false, true])
        #expect(last.checks[0].comparedValue == "/Help/123/")
        #expect(last.checks[1].comparedValue == "12345")
        #expect(last.checks[2].note == "no fragment: read as empty")
        let untraced = compiled.decision(for: LinkURL("https://example.com/buy/1")!, appID: exampleApp)
        #expect(untraced.trace.isEmpty)
        #expect(untraced.origin?.line == 5)
    }

    // The engine must not crash or mis-decide on several flag combinations cached for one URL.
    @Test func flagsAreResolvedPerComponent() {
        let file = ##"""
            {"applinks": {"details": [{"appIDs": ["\##(exampleApp)"], "components": [
              {"/": "/A%20B", "exclude": true},
              {"/": "/a b", "percentEncoded": false, "caseSensitive": false}]}]}}
            """##
        let decision = appleDecision(file, "https://example.com/A%20b")
        #expect(decision.outcome == .match)
        #expect(decision.ruleIndex == 1)
    }
}
