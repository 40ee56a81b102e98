import LinkwrightCore
import Testing

/// Lists a pull request can make as long as its file caps allow: each is de-duplicated or looked
/// up in linear time. The sizes would take minutes with a search per element and take well
/// under a second now; nothing here measures time, a regression shows as a hung test.
@Suite struct LargeInputTests {
    private func aasa(_ details: [String]) throws -> AASADocument {
        let json = #"{"applinks": {"details": ["# + details.joined(separator: ",") + "]}}"
        return try #require(AASAReader().read(Array(json.utf8), file: "aasa").document)
    }

    @Test func anObjectOf100000KeysKeepsTheLastOfEachRepeatedKey() throws {
        let keys = (0..<100_000).map { "k\($0)" } + (0..<100_000).filter { $0 % 10 == 0 }.map { "k\($0)" }
        let json = "{" + keys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ",") + "}"
        let (root, diagnostics) = JSONParser().parse(Array(json.utf8), file: "f.json")
        guard case .object(let members) = try #require(root).value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.count == 100_000)
        #expect(members.prefix(3).map(\.key) == ["k1", "k2", "k3"])
        #expect(members.last?.key == "k99990" && members.last?.value.value == .number("109999"))
        #expect(diagnostics.count == 10_000 && diagnostics.allSatisfy { $0.id == .duplicateJSONKey })
    }

    @Test func oneHundredThousandAppIDsAreListedOnceInFileOrder() throws {
        let ids = (0..<100_000).map { "\"A1B2C3D4E5.com.example.app\($0)\"" }
        let document = try aasa([
            #"{"appIDs": [\#(ids.joined(separator: ","))], "components": [{"/": "/x"}]}"#,
            #"{"appIDs": [\#(ids.reversed().prefix(10).joined(separator: ","))], "components": []}"#,
        ])
        let compiled = CompiledAASA(document)
        #expect(compiled.appIDs.count == 100_000)
        #expect(compiled.appIDs.first == "A1B2C3D4E5.com.example.app0")
        #expect(compiled.appIDs.last == "A1B2C3D4E5.com.example.app99999")
    }

    @Test func oneHundredThousandStatementsListEachPackageOnce() {
        let statements = (0..<100_000).map { index in
            AssetStatement(
                relations: [AssetStatement.handleAllURLs],
                target: .androidApp(package: "com.example.app\(index % 50_000)", fingerprints: []))
        }
        let packages = CompiledAssetLinks(AssetLinksDocument(statements: statements)).packages
        #expect(packages.count == 50_000)
        #expect(packages.prefix(2) == ["com.example.app0", "com.example.app1"])
    }

    @Test func fiveThousandTeamsOfOneBundleImportUnderNumberedNames() throws {
        // Same bundle, so after `museo`, `example-museo` and `com-example-museo` every app takes
        // the next free `app-N`: found by a scan from app-2 each time, that was cubic.
        let ids = (0..<5_000).map { "\"T\(String(1_000_000_000 + $0).dropFirst()).com.example.museo\"" }
        let document = try aasa([#"{"appIDs": [\#(ids.joined(separator: ","))], "components": [{"/": "/x"}]}"#])
        let host = try Host.parse("museo.example").get()
        let result = Importer(environment: "live", tier: .production).run([
            Importer.Site(host: host, aasa: document, aasaFile: "aasa", assetLinks: nil, assetLinksFile: nil)
        ])
        let environment = try #require(result.files.first { $0.path == "environments/live.yaml" }?.text)
        for name in ["museo", "example-museo", "com-example-museo", "app-2", "app-4998"] {
            #expect(environment.contains("\n  \(name):\n"), "\(name)")
        }
        #expect(!environment.contains("app-4999"))
    }

    @Test func aDomainOf3000AppsCompiles() throws {
        let apps = (0..<3_000).map { "  a\($0):\n    ios:\n      bundle_id: com.example.a\($0)\n" }.joined()
        let names = (0..<3_000).map { "a\($0)" }.joined(separator: ", ")
        let (configuration, diagnostics) = try ConfigLoader().load(
            from: InMemorySourceTree([
                "environments/live.yaml":
                    "tier: production\nteam_id: A1B2C3D4E5\napps:\n\(apps)hosts:\n  museo.example: museo\n",
                "domains/museo.yaml": "applinks:\n  - apps: [\(names)]\n    rules:\n      - path: /x\n",
            ]))
        let compiled = Compiler().compile(try #require(configuration, "\(diagnostics)")).compiled
        let environment = try #require(compiled.environments.first)
        #expect(environment.iosApps.count == 3_000)
        #expect(environment.iosApps.allSatisfy { $0.associatedDomains == ["applinks:museo.example"] })
        #expect(environment.sites.first?.aasa?.applinks?.details.first?.appIDs?.count == 3_000)
    }

    @Test func twentyThousandPrefixRulesGiveTheirScopesAtOnce() throws {
        let rules = (0..<20_000).map { "      - path: /p\($0)/*\n" }.joined()
        let (configuration, diagnostics) = try ConfigLoader().load(
            from: InMemorySourceTree([
                "environments/live.yaml": """
                tier: production
                apps:
                  museo:
                    android:
                      package: com.example.museo
                      fingerprints:
                        k: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                hosts:
                  museo.example: museo

                """,
                "domains/museo.yaml": "applinks:\n  - apps: [museo]\n    rules:\n\(rules)      - path: /p1/deep/*\n",
            ]))
        let compiled = Compiler().compile(try #require(configuration, "\(diagnostics)")).compiled
        let scopes = try #require(compiled.environments.first?.androidApps.first?.intentFilters.first?.scopes)
        // Each `/pN/*` covers `/pN` and `/pN/…`. `/p1/deep/*` lies inside `/p1/`, and `/p1/` is no
        // prefix of `/p10/`.
        #expect(scopes.count == 40_000)
        #expect(scopes.prefix(2) == [.path("/p0"), .prefix("/p0/")])
        #expect(!scopes.contains(.prefix("/p1/deep/")) && !scopes.contains(.path("/p1/deep")))
    }

    @Test func aServedFileOf100000AppIDsBecomesASnapshotOfThemAll() throws {
        let ids = (0..<100_000).map { "\"A1B2C3D4E5.com.example.app\($0)\"" }.joined(separator: ",")
        let document = try aasa([#"{"appIDs": [\#(ids)], "components": [{"/": "/x"}]}"#])
        let snapshot = PolicySnapshot.artifacts(
            aasa: document, assetLinks: nil, host: try Host.parse("a.example").get())
        #expect(snapshot.compiled.environments.first?.iosApps.count == 100_000)
    }

    @Test func appsAddedOnOneURLAreDecidedThereOnce() throws {
        // Every app's region has the same witness: deciding it again for every app per region
        // was quadratic (4,000 apps: 86 s).
        let host = try Host.parse("museo.example").get()
        let ids = (0..<2_000).map { "\"A1B2C3D4E5.com.example.app\($0)\"" }.joined(separator: ",")
        let base = try aasa([#"{"appIDs": ["A1B2C3D4E5.com.example.museo"], "components": [{"/": "/x"}]}"#])
        let head = try aasa([#"{"appIDs": [\#(ids)], "components": [{"/": "/x"}]}"#])
        let cache = RevisionCache()
        let comparison = BehaviourDiff.compare(
            base: cache.revision(.artifacts(aasa: base, assetLinks: nil, host: host)),
            head: cache.revision(.artifacts(aasa: head, assetLinks: nil, host: host)))
        #expect(comparison.unproven.isEmpty)
        #expect(comparison.observations.count == 2_001)
        #expect(Set(comparison.observations.map(\.url)) == ["https://museo.example/x"])
    }

    @Test func buildingTheStatesOfLargeUnionsCountsAgainstTheProofBudget() throws {
        // A union of 500 `*x*y*z*` rules builds states of thousands of nodes each. Counted as
        // steps alone, this budget let the comparison build all it wanted (for 5,000 rules that
        // took minutes); counted too, it runs out and says what it did not prove.
        let host = try Host.parse("museo.example").get()
        let rules = (0..<500).map { #"{"/": "*x*y*z*\#($0)*"}"# }.joined(separator: ",")
        let base = try aasa([#"{"appIDs": ["A1B2C3D4E5.com.example.museo"], "components": [{"/": "/x/*"}]}"#])
        let head = try aasa([#"{"appIDs": ["A1B2C3D4E5.com.example.museo"], "components": [\#(rules)]}"#])
        let cache = RevisionCache()
        let comparison = BehaviourDiff.compare(
            base: cache.revision(.artifacts(aasa: base, assetLinks: nil, host: host)),
            head: cache.revision(.artifacts(aasa: head, assetLinks: nil, host: host)),
            limits: ProofLimits(region: 100_000, total: 1_000_000))
        #expect(!comparison.unproven.isEmpty)
    }
}
