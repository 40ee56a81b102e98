import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Every `ComponentFlag`, at the value departing from Apple's default (in `defaults`, and
/// overridden back on one rule), through the generated Swift router and compared with the core
/// matcher; the Kotlin router is compared in `KotlinRouterAgreementTests`' one kotlinc run.
/// A flag added to the declaration is tried here without a change to this file.
@Suite(.serialized) struct ComponentFlagRouterTests {
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing), arguments: ComponentFlag.allCases)
    func theSwiftRouterReadsEveryFlagAsTheCoreDoes(_ flag: ComponentFlag) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (path, text) in ComponentFlagFixture.files(departing: flag) { try folder.write(path, text) }
        let comparison = try RouterComparison(configuration: folder.url, environmentScopes: false)
        let report = try comparison.run(urls: ComponentFlagFixture.urls(comparison.samples))
        #expect(report.mismatches.isEmpty, "\(flag): \(report)")
        #expect(report.destinationsSeen.isSuperset(of: ["cafe", "items", "plain"]), "\(flag): \(report)")
    }
}

/// A configuration whose rules read URLs with one flag departing from Apple's default, and URLs
/// that tell the readings apart: letters in both cases, escapes in both cases, and raw text.
enum ComponentFlagFixture {
    static func files(departing flag: ComponentFlag) -> [(path: String, text: String)] {
        let key = flag.configurationKey
        let departing = !flag.appleDefault
        return [
            (
                "environments/production.yaml",
                """
                tier: production
                team_id: A1B2C3D4E5
                apps:
                  shop:
                    ios: {bundle_id: com.example.shop}
                    android:
                      package: com.example.shop
                      fingerprints: {play-signing: "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28"}
                hosts:
                  shop.example: shop
                """
            ),
            (
                "domains/shop.yaml",
                """
                defaults:
                  \(key): \(departing)
                applinks:
                  - apps: [shop]
                    rules:
                      - path: "/Caf%C3%A9/*"
                        route: cafe
                        params: {item?: segment 2}
                      - path: "/Caf\\u00E9/*"
                        route: cafe
                        params: {item?: segment 2}
                      - path: /Items/?*
                        query: {Q%41: "A*"}
                        route: items
                        params: {q?: query QA}
                      - path: /Items/?*
                        query: {QA: "A*"}
                        route: items
                        params: {q?: query QA}
                      - path: /Plain/*
                        \(key): \(!departing)
                        route: plain
                        params: {rest?: segment 2}
                emit: {android_dynamic_rules: true}
                """
            ),
        ]
    }

    static func urls(_ samples: RouterSampleURLs) -> [String] {
        let paths = [
            "/Caf%C3%A9/x", "/caf%c3%a9/x", "/CAF%C3%A9/x", "/Caf\u{E9}/x", "/caf\u{E9}/x", "/Caf%C3%89/x",
            "/Items/x?Q%41=A1", "/items/x?QA=A1", "/ITEMS/x?q%41=a1", "/Items/x?QA=a", "/Items/%78?Q%41=%41",
            "/Plain/x", "/plain/x", "/PLAIN/%78", "/Pl%61in/x",
        ]
        return samples.ruleSamples() + samples.hosts.flatMap { host in paths.map { "https://\(host)\($0)" } }
    }
}
