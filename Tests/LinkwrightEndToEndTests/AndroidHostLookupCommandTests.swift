import Foundation
import LinkwrightTestSupport
import Testing

/// `explain` and `check` decide Android by the URL's own host (docs/semantics.md, "Whose
/// dynamic rules apply"), on issue 43's configuration: `example.com` and `*.example.com` on
/// one domain (`/account/*` excluded, then `/*`) and `shop.example.com` on another (`/account/*`).
@Suite struct AndroidHostLookupCommandTests {
    private static let configuration: [String: String?] = [
        "domains/example.yaml": """
        applinks:
          - apps: [store]
            rules:
              - path: /account/*
                exclude: true
              - path: /*
        emit:
          android_dynamic_rules: true

        """,
        "domains/shop.yaml": """
        applinks:
          - apps: [store]
            rules:
              - path: /account/*
        emit:
          android_dynamic_rules: true

        """,
        "environments/production.yaml": """
        tier: production
        team_id: ABCDE12345
        apps:
          store:
            ios: {bundle_id: com.example.store}
            android:
              package: com.example.store
              fingerprints:
                play-signing: "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28"
        hosts:
          example.com: example
          "*.example.com": example
          shop.example.com: shop

        """,
    ]

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
            "domains/shop.yaml": (Self.configuration["domains/shop.yaml"]!)!.replacingOccurrences(
                of: "/account/*", with: "/account/orders/*")
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
