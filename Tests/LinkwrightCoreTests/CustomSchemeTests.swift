import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Custom schemes as `build` emits them: an Info.plist `CFBundleURLTypes` fragment per iOS app and
/// an unverified `<intent-filter>` per scheme for Android.
@Suite struct CustomSchemeTests {
    static let environment = """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios: {bundle_id: com.example.shop}
            android:
              package: com.example.shop
              fingerprints:
                play-signing: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
            schemes:
              com.example.shop:
                purpose: deep-links
              com.example.shop.auth:
                purpose: oauth-callback
                callback: /oauth/callback
          wallet:
            android:
              package: com.example.wallet
              fingerprints:
                play-signing: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
            schemes:
              com.example.wallet:
                purpose: app-callback
        hosts:
          shop.example: shop

        """

    static let domain = "applinks:\n  - apps: [shop]\n    rules:\n      - path: /products/*\n"

    private func artifacts() throws -> [Artifact] {
        let files = ["environments/production.yaml": Self.environment, "domains/shop.yaml": Self.domain]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        return ArtifactRenderer.render(Compiler().compile(loaded).compiled)
    }

    private func artifact(_ path: String) throws -> String {
        let found = try #require(try artifacts().first { $0.path == path }, "no \(path)")
        return String(decoding: found.bytes, as: UTF8.self)
    }

    @Test func theURLTypesFragmentListsEverySchemeInOrder() throws {
        let text = try artifact("production/ios/shop.url-types.plist")
        let plist = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        let root = try #require(plist as? [String: Any])
        #expect(root.keys.sorted() == ["CFBundleURLTypes"])
        let types = try #require(root["CFBundleURLTypes"] as? [[String: Any]])
        #expect(
            types.map { $0["CFBundleURLSchemes"] as? [String] } == [["com.example.shop"], ["com.example.shop.auth"]])
        #expect(types.map { $0["CFBundleURLName"] as? String } == ["com.example.shop", "com.example.shop.auth"])
        #expect(types.allSatisfy { $0["CFBundleTypeRole"] as? String == "Viewer" })
    }

    @Test func anAppWithoutSchemesGetsNoFragment() throws {
        let paths = try artifacts().map(\.path)
        #expect(paths.filter { $0.hasSuffix(".url-types.plist") } == ["production/ios/shop.url-types.plist"])
    }

    /// Every fragment of the example configuration, as committed in dist/, is a property list
    /// Apple's own `plutil -lint` accepts (the Swift toolchain ships it on Linux).
    @Test(.enabled(if: InstalledTool.path("plutil") != nil, "plutil is not on PATH"))
    func plutilAcceptsEveryEmittedFragment() throws {
        let plutil = try #require(InstalledTool.path("plutil"))
        let (example, _) = try compileFolder(RepositoryPaths.root)
        let fragments = example.filter { $0.kind == .urlTypes } + (try artifacts()).filter { $0.kind == .urlTypes }
        #expect(fragments.count >= 3)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for fragment in fragments {
            let url = try folder.write(
                fragment.path.replacingOccurrences(of: "/", with: "-"), String(decoding: fragment.bytes, as: UTF8.self))
            let result = try runProcess(plutil, ["-lint", url.path])
            #expect(result.status == 0, "\(fragment.path): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.hasSuffix(": OK\n"), "\(result.stdout)")
        }
    }

    @Test func eachSchemeGetsAnUnverifiedIntentFilterWithTheSchemeAlone() throws {
        let text = try artifact("production/android/shop.intent-filters.xml")
        let document = try XMLDocument(xmlString: text)
        let filters = try document.nodes(forXPath: "/intent-filters/intent-filter").compactMap { $0 as? XMLElement }
        #expect(filters.count == 3)
        #expect(filters[0].attribute(forName: "android:autoVerify")?.stringValue == "true")
        for (filter, scheme) in zip(filters.dropFirst(), ["com.example.shop", "com.example.shop.auth"]) {
            #expect(filter.attribute(forName: "android:autoVerify") == nil)
            let data = filter.elements(forName: "data")
            #expect(data.count == 1)
            #expect(data.first?.attributes?.map(\.name) == ["android:scheme"])
            #expect(data.first?.attribute(forName: "android:scheme")?.stringValue == scheme)
            #expect(
                filter.elements(forName: "category").compactMap { $0.attribute(forName: "android:name")?.stringValue }
                    == ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"])
        }
    }

    /// An Android app that opens no verified links still declares its schemes.
    @Test func anAppWithSchemesOnlyStillGetsItsIntentFilters() throws {
        let text = try artifact("production/android/wallet.intent-filters.xml")
        #expect(!text.contains("autoVerify"))
        #expect(text.contains("<data android:scheme=\"com.example.wallet\" />"))
    }
}
