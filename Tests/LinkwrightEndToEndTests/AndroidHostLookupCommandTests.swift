import Foundation
import LinkwrightTestSupport
import Testing

/// `explain` and `check` decide Android by the URL's own host (docs/semantics.md, "Whose
/// dynamic rules apply"), on issue 43's configuration (`AndroidHostLookupConfiguration`).
@Suite struct AndroidHostLookupCommandTests {
    private static let configuration: [String: String?] = AndroidHostLookupConfiguration.files.mapValues { $0 }

    @Test func explainOpensTheSubdomainsOwnRuleOnAndroidAsOnIOS() throws {
        let fixture = try GitFixture()
        try fixture.commit("Two domains", Self.configuration)
        let result = try runLinkwright(
            ["explain", "https://shop.example.com/account/orders", "--format", "json"],
            in: URL(fileURLWithPath: fixture.repository))
        #expect(result.status == 0, "\(result)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let text = String(
            decoding: try JSONSerialization.data(withJSONObject: json, options: .sortedKeys), as: UTF8.self)
        #expect(!text.contains("\"opens\":false"), "every platform opens the app: \(result.stdout)")
        #expect(text.contains("\"opens\":true"), "\(result.stdout)")
    }

    /// An edit of shop's own rule changes Android's decisions on shop.example.com too, though the
    /// wildcard's intent filter claims those URLs first.
    @Test func checkReportsAnEditOfTheSubdomainsRuleOnBothPlatforms() throws {
        let fixture = try GitFixture()
        try fixture.commit("Two domains", Self.configuration)
        try fixture.write([
            "domains/shop.yaml": AndroidHostLookupConfiguration.files["domains/shop.yaml"]!.replacingOccurrences(
                of: AndroidHostLookupConfiguration.shopRule, with: "/account/orders/*")
        ])
        let result = try runLinkwright(
            ["diff", "--format", "json"], in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\"opens_web\""), "\(result.stdout)")
        #expect(result.stdout.contains("ABCDE12345.com.example.store"), "iOS: \(result.stdout)")
        #expect(result.stdout.contains("\"com.example.store\""), "Android: \(result.stdout)")
    }
}
