import LinkwrightCore
import Testing

private func read(_ json: String) -> AASAReadResult { AASAReader().read(Array(json.utf8), file: "aasa.json") }

/// (id, line, column) of every diagnostic, in report order.
private func located(_ result: AASAReadResult) -> [String] {
    result.diagnostics.map { "\($0.id)@\($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
}

@Suite("AASA reader")
struct AASAReaderTests {
    @Test func modernFile() throws {
        let result = read(
            ##"""
            {"applinks": {
              "defaults": {"caseSensitive": false, "/": "/app/*"},
              "substitutionVariables": {"food": ["pizza", "sushi"]},
              "details": [{"appIDs": ["ABCDE12345.com.example.app"],
                "defaults": {"percentEncoded": false},
                "components": [{"/": "/$(food)", "?": {"id": "?*"}, "#": "top", "exclude": true, "comment": "x"}]}]},
             "webcredentials": {"apps": ["ABCDE12345.com.example.app"]},
             "appclips": {"apps": ["ABCDE12345.com.example.app.Clip"]},
             "activitycontinuation": {"apps": ["ABCDE12345.com.example.app"]}}
            """##)
        #expect(result.diagnostics.isEmpty)
        let document = try #require(result.document)
        let applinks = try #require(document.applinks)
        #expect(applinks.defaults?.flags[.caseSensitive] == false && applinks.defaults?.path == "/app/*")
        #expect(applinks.substitutionVariables == [AASAVariable(name: "food", values: ["pizza", "sushi"])])
        let details = try #require(applinks.details.first)
        #expect(details.defaults?.flags[.percentEncoded] == false)
        #expect(details.origin?.line == 4)
        let component = try #require(details.components?.first)
        #expect(component.path == "/$(food)")
        #expect(component.query == .items([AASAQueryItem(name: "id", pattern: "?*")]))
        #expect(component.fragment == "top" && component.exclude == true && component.comment == "x")
        #expect(component.origin?.line == 6 && component.origin?.column == 20)
        #expect(document.serviceApps[.webcredentials] == ["ABCDE12345.com.example.app"])
        #expect(document.serviceApps[.appclips] == ["ABCDE12345.com.example.app.Clip"])
        #expect(document.serviceApps[.activitycontinuation] == ["ABCDE12345.com.example.app"])
    }

    @Test func legacyForms() throws {
        let array = read(
            ##"{"applinks": {"apps": [], "details": [{"appID": "\##(exampleApp)", "paths": ["NOT /a/*", "*"]}]}}"##
        )
        #expect(array.diagnostics.isEmpty)
        #expect(array.document?.applinks?.legacyApps == [])
        #expect(array.document?.applinks?.details.first?.paths == ["NOT /a/*", "*"])
        // WWDC15 form (gist mat/e35393e9dfd9d7fb0972); swcutil still reads it.
        let dictionary = read(
            ##"{"applinks": {"apps": [], "details": {"ABCDE12345.com.example.app": {"paths": ["/wwdc/news/"]}}}}"##)
        #expect(dictionary.diagnostics.isEmpty)
        let details = try #require(dictionary.document?.applinks?.details.first)
        #expect(details.effectiveAppIDs == ["ABCDE12345.com.example.app"])
        #expect(details.paths == ["/wwdc/news/"])
    }

    @Test func appIDAndAppIDsAndMixing() {
        let result = read(
            ##"""
            {"applinks": {"details": [
              {"appID": "ABCDE12345.com.example.a", "appIDs": ["ABCDE12345.com.example.b"], "components": []},
              {"appID": "ABCDE12345.com.example.a", "components": []},
              {"appIDs": ["ABCDE12345.com.example.a"], "paths": ["*"]},
              {"appIDs": ["ABCDE12345.com.example.a"], "paths": ["*"], "components": []},
              {"components": []}]}}
            """##)
        #expect(
            located(result) == [
                "APP_ID_AND_APP_IDS@2:4", "MIXED_LEGACY_MODERN@3:41", "MIXED_LEGACY_MODERN@4:44",
                "MIXED_LEGACY_MODERN@5:44", "MISSING_KEY@6:3",
            ])
        #expect(result.document?.applinks?.details.first?.effectiveAppIDs == ["ABCDE12345.com.example.b"])
    }

    // Corpus: JobCore (no team prefix), 0Itsuki0 (placeholder), 5eeman ("<TeamID>."), Xcode
    // projects that paste $(TeamIdentifierPrefix).
    @Test(arguments: [
        "co.jobcore.talent", "appid_placeholder", "<TeamID>.com.example.app", "$(TeamIdentifierPrefix)com.example.app",
        "abcde12345.com.example.app", "ABCDE12345.bad_bundle",
    ])
    func invalidAppIDs(appID: String) {
        let result = read(##"{"applinks": {"details": [{"appIDs": ["\##(appID)"], "components": []}]}}"##)
        #expect(located(result) == ["INVALID_APP_ID@1:39"])
        #expect(result.diagnostics.first?.severity == .warning)
    }

    // swcutil ignores a `?` dictionary with a non-string value (swcutil-probes.tsv, nonstr).
    @Test func queryDiagnostics() {
        let result = read(
            ##"""
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [
              {"?": {"a": "1", "flag": true}},
              {"?": {"no_universal_links": "*"}, "exclude": true}]}]}}
            """##)
        #expect(located(result) == ["QUERY_DICTIONARY_IGNORED@2:28", "QUERY_STAR_MATCHES_ABSENT@3:32"])
        #expect(result.document?.applinks?.details.first?.components?.first?.query == .ignoredDictionary)
    }

    @Test func unknownKeysAndWrongTypes() {
        let result = read(
            ##"""
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [
              {"/": 5, "casesensitive": false, "exclude": "yes", "future": {}}]}]},
             "webcredential": {}}
            """##)
        #expect(
            located(result) == [
                "UNKNOWN_KEY@3:2", "UNKNOWN_KEY@2:12", "UNKNOWN_KEY@2:54", "WRONG_TYPE@2:9", "WRONG_TYPE@2:47",
            ])
        #expect(result.diagnostics[1].hint == "keys are case-sensitive: write \"caseSensitive\"")
        let component = result.document?.applinks?.details.first?.components?.first
        #expect(component?.path == nil && component?.exclude == nil)
    }

    @Test func variableDiagnostics() {
        let result = read(
            ##"""
            {"applinks": {"substitutionVariables": {"a(b": ["x"], "lang": ["en"], "v": ["$(lang)"]}, "details": []}}
            """##
        )
        #expect(
            result.diagnostics.map(\.id) == [
                .invalidVariableName, .variableShadowsPredefined, .variableInVariable,
            ])
    }

    @Test func structuralProblems() {
        #expect(located(read("[]")) == ["WRONG_TYPE@1:1"])
        #expect(read("[]").document == nil)
        #expect(located(read(##"{"applinks": {"apps": []}}"##)) == ["MISSING_KEY@1:14"])
        #expect(located(read(##"{"webcredentials": {}}"##)) == ["MISSING_KEY@1:20"])
        #expect(located(read(##"{"applinks": {"details": "x"}}"##)) == ["WRONG_TYPE@1:26"])
    }

    @Test func oversizedFilesAreFlagged() {
        let padding = String(repeating: " ", count: AASAReader.appleSizeLimit)
        let result = read(##"{"applinks": {"details": []}}"## + padding)
        #expect(result.diagnostics.map(\.id) == [.aasaTooLarge])
        #expect(result.document != nil)
    }
}
