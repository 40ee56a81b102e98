import Testing

@testable import LinkwrightCore

/// The exact search behind iOS behaviour diffs: every way two files decide paths differently
/// gets a shortest witness, and "no witness" is a proof, not a missed sample.
@Suite struct PathDecisionSearchTests {
    static let other = "ABCDE12345.com.example.other"

    func file(_ components: String, other: String? = nil) -> AASADocument {
        let second = other.map { #", {"appIDs": ["\#(Self.other)"], "components": [\#($0)]}"# } ?? ""
        return readAASA(
            #"{"applinks": {"details": [{"appIDs": ["\#(exampleApp)"], "components": [\#(components)]}\#(second)]}}"#)
    }

    func search(_ before: AASADocument, _ after: AASADocument, apps: [String] = [exampleApp])
        -> PathDecisionSearch.Result
    {
        PathDecisionSearch().differences(before: before, after: after, appIDs: apps)
    }

    /// Moving an exclusion below the rule it carved out of opens what it kept on the web.
    @Test func aMovedExclusionGivesAShortestPathItNoLongerExcludes() throws {
        let result = search(
            file(#"{"/": "/products/drafts/*", "exclude": true}, {"/": "/products/*"}"#),
            file(#"{"/": "/products/*"}, {"/": "/products/drafts/*", "exclude": true}"#))
        #expect(result == PathDecisionSearch.Result(paths: ["/products/drafts"], complete: true))
    }

    /// Textually different rules that decide every path alike: no witness, and that is proved.
    @Test func anUnreachableRuleChangesNothingAndTheSearchSaysSoCompletely() {
        let result = search(
            file(#"{"/": "/products/*"}"#), file(#"{"/": "/products/*"}, {"/": "/products/sale/*"}"#))
        #expect(result == PathDecisionSearch.Result(paths: [], complete: true))
    }

    /// One witness per kind of difference: a path one app gains while the other loses it is a
    /// kind of its own, apart from paths only one of them changes.
    @Test func twoAppsTradingAPathIsItsOwnKind() {
        let result = search(
            file(#"{"/": "/a/*"}"#, other: #"{"/": "/b/*"}, {"/": "/c/*"}"#),
            file(#"{"/": "/a/*"}, {"/": "/b/*"}"#, other: #"{"/": "/c/*"}"#),
            apps: [exampleApp, Self.other])
        #expect(result == PathDecisionSearch.Result(paths: ["/b"], complete: true))
        // Each app alone changes first at `/b`; together, `/c` (only the second app gains it)
        // differs from `/b` (both do), so a search per app would miss it.
        let gained = search(
            file(#"{"/": "/a/*"}"#, other: #"{"/": "/z/*"}"#),
            file(#"{"/": "/a/*"}, {"/": "/b/*"}"#, other: #"{"/": "/z/*"}, {"/": "/b/*"}, {"/": "/c/*"}"#),
            apps: [exampleApp, Self.other])
        #expect(gained == PathDecisionSearch.Result(paths: ["/b", "/c"], complete: true))
    }

    /// Rules that read more than the path, or compare it another way, are not covered.
    static let pathPlus = [
        #"{"/": "/products/*", "?": {"id": "?*"}}"#,
        ##"{"/": "/products/*", "#": "top"}"##,
        #"{"/": "/products/*", "caseSensitive": false}"#,
        #"{"/": "/products/*", "percentEncoded": false}"#,
    ]

    @Test(arguments: pathPlus)
    func rulesReadingMoreThanThePathMakeItIncomplete(component: String) {
        let result = search(file(#"{"/": "/products/*"}"#), file(component))
        #expect(result == PathDecisionSearch.Result(paths: [], complete: false))
    }

    /// A legacy `paths` entry repeating the components decides nothing they don't, and the
    /// search does not count it as a difference (what `linkwright build` emits for old iOS).
    @Test func aLegacyEntryRepeatingTheComponentsIsNoDifference() {
        let modern = file(#"{"/": "/admin/*", "exclude": true}, {"/": "*"}"#)
        let both = readAASA(
            #"{"applinks": {"details": [{"appIDs": ["\#(exampleApp)"], "components": [{"/": "/admin/*", "exclude": true}, {"/": "*"}]}, {"appID": "\#(exampleApp)", "paths": ["NOT /admin/*", "*"]}]}}"#
        )
        #expect(search(modern, both) == PathDecisionSearch.Result(paths: [], complete: true))
    }

    /// A file that grows too large for the work limit keeps the samples' answer.
    @Test func theWorkLimitMakesItIncompleteNotWrong() {
        var tight = PathDecisionSearch()
        tight.workLimit = 10
        let result = tight.differences(
            before: file(#"{"/": "/a/*"}"#), after: file(#"{"/": "/b/*"}"#), appIDs: [exampleApp])
        #expect(result == PathDecisionSearch.Result(paths: [], complete: false))
    }
}
