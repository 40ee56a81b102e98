import LinkwrightCore
import Testing

private func read(_ json: String) -> AssetLinksReadResult {
    AssetLinksReader().read(Array(json.utf8), file: "assetlinks.json")
}

@Suite("assetlinks reader")
struct AssetLinksReaderTests {
    @Test func statementsTargetsAndIncludes() throws {
        let result = read(
            ##"""
            [\##(androidStatement()),
             {"relation": ["delegate_permission/common.get_login_creds"],
              "target": {"namespace": "web", "site": "https://example.com"}},
             {"include": "https://example.com/other.json"}]
            """##)
        #expect(result.diagnostics.isEmpty)
        let document = try #require(result.document)
        #expect(document.statements.count == 2)
        #expect(
            document.statements[0].target == .androidApp(package: "com.example.app", fingerprints: [goodFingerprint]))
        #expect(document.statements[1].target == .web(site: "https://example.com"))
        #expect(document.statements[1].origin?.line == 2)
        #expect(
            document.includes == [
                AssetInclude(url: "https://example.com/other.json", origin: document.includes.first?.origin)
            ])
        #expect(document.includes.first?.origin?.line == 4)
    }

    // Google's compatibility tests 2311–2314 (2300-android-targets.pb) expect MALFORMED_CONTENT
    // for each of these fingerprints.
    @Test(arguments: [
        ("B A D", "comptest2311"),
        (goodFingerprint.lowercased(), "comptest2312: lowercase"),
        (String(goodFingerprint.dropLast(2)) + "ZZ", "comptest2313: not hex"),
        (String(goodFingerprint.dropLast(3)), "comptest2314: 31 bytes"),
        ("YOUR_SHA256_CERT_FINGERPRINT", "corpus: 2keyapp placeholder"),
    ])
    func malformedFingerprints(fingerprint: String, source: String) {
        let result = read("[\(androidStatement(fingerprint: fingerprint))]")
        #expect(result.diagnostics.map(\.id) == [.invalidFingerprint], "\(source)")
        #expect(result.diagnostics.first?.severity == .error)
        #expect(result.diagnostics.first?.location?.column == 166)
    }

    @Test func packageNamesAndDebugKeys() {
        // Corpus: 0x01-a2a/pilot uses a segment starting with a digit.
        #expect(
            read("[\(androidStatement(package: "world.zerox1.01pilot"))]").diagnostics.map(\.id) == [
                .invalidPackageName
            ])
        // Corpus: coopcycle and bluesky list the React Native template debug key.
        let debug = read("[\(androidStatement(fingerprint: Fingerprint.publicReactNativeDebugKey))]")
        #expect(debug.diagnostics.map(\.id) == [.publicDebugKey])
        #expect(debug.diagnostics.first?.severity == .warning)
    }

    @Test func relationsNamespacesAndSites() {
        let result = read(
            ##"""
            [{"relation": ["delegate_permission/common.use_as_origin", "handle_all_urls"],
              "target": {"namespace": "web", "site": "https://example.com/path"}},
             {"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "ios_app", "appid": "x"}},
             {"relation": ["delegate_permission/common.handle_all_urls"]}]
            """##)
        #expect(
            result.diagnostics.map(\.id) == [
                .unknownRelation, .unknownRelation, .invalidSite, .unknownNamespace, .missingKey,
            ])
        #expect(result.diagnostics[1].message.contains("not of the form"))
        #expect(result.document?.statements.count == 1)
    }

    // Google's configure-assetlinks example, with AOSP's `comments` key.
    @Test func dynamicRules() throws {
        let result = read(
            ##"""
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.app",
                         "sha256_cert_fingerprints": ["\##(goodFingerprint)"]},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [
                {"?": {"dl": "*"}}, {"#": "app"}, {"/": "/products/*", "comments": "catalogue"},
                {"/": "/shoes", "?": {"in_app": "true"}}, {"/": "*", "exclude": true}]}}}]
            """##)
        #expect(result.diagnostics.isEmpty)
        let rules = try #require(result.document?.statements.first?.dynamicComponents)
        #expect(rules.count == 5)
        #expect(rules[0].query == [AASAQueryItem(name: "dl", pattern: "*")])
        #expect(rules[2].comments == "catalogue" && rules[2].origin?.line == 5)
        #expect(rules[4].exclude)
    }

    // "If any of the fields in the file are malformed or empty, Android discards the dynamic
    // rules" (configure-assetlinks); AOSP drops a string "?" (StatementParser optJSONObject).
    @Test func malformedDynamicRules() {
        func file(_ rules: String) -> String { "[\(androidStatement(rules: rules))]" }
        for rules in [
            ##"[{"/": ""}]"##, ##"[{"/": 5}]"##, ##"[{"?": {"a": 1}}]"##, ##"[{"exclude": "yes"}]"##, ##"{"/": "*"}"##,
        ] {
            let result = read(file(rules))
            #expect(result.diagnostics.map(\.id) == [.dynamicRulesDiscarded], "\(rules)")
            #expect(result.document?.statements.first?.dynamicComponents == nil)
        }
        let stringQuery = read(file(##"[{"/": "/a", "?": "x=1", "caseSensitive": false}]"##))
        #expect(stringQuery.diagnostics.map(\.id) == [.unknownKey, .dynamicQueryStringIgnored])
        #expect(stringQuery.document?.statements.first?.dynamicComponents?.first?.query == nil)
    }

    @Test func duplicateDynamicRulesAreFlagged() {
        let extended = androidStatement(rules: ##"[{"/": "*"}]"##)
        #expect(read("[\(extended),\n\(extended)]").diagnostics.map(\.id) == [.duplicateDynamicRules])
    }

    @Test func roundTripsThroughJSON() throws {
        let document = try #require(
            read("[\(androidStatement()), {\"include\": \"https://example.com/more.json\"}]").document)
        let again = try #require(read(document.json.rendered()).document)
        #expect(again.statements.map(\.target) == document.statements.map(\.target))
        #expect(again.includes.map(\.url) == ["https://example.com/more.json"])
    }
}
