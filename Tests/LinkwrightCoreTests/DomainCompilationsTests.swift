import Foundation
import Testing

@testable import LinkwrightCore

/// Compiles that take domains compiled before (`DomainCompilations`) give what compiling alone
/// gives: the same files, apps and diagnostics, however the revisions before changed domains,
/// apps or environments.
@Suite struct DomainCompilationsTests {
    /// The rule examples' production, also serving `news.example`.
    static let production = RuleExampleConfiguration.production.replacingOccurrences(
        of: "  shop.example: shop\n", with: "  shop.example: shop\n  news.example: news\n")

    static let staging = production.replacingOccurrences(of: "tier: production", with: "tier: staging")
        .replacingOccurrences(of: "shop.example: shop", with: "staging.shop.example: shop")
        .replacingOccurrences(of: "news.example: news", with: "staging.news.example: news")

    /// Legacy paths it cannot write exactly, and an exclusion Android cannot honour without
    /// dynamic rules: diagnostics of the domain and of a translation shared by environments.
    static let shop = """
        applinks:
          - apps: [shop]
            rules:
              - path: /products/old/*
                exclude: true
              - path: /products/*
                query: "ref=*"
        emit:
          legacy_paths: true

        """

    /// Dynamic rules whose translation diagnoses a whole query string, and a rule for
    /// production only, so each environment translates the domain on its own.
    static let news = """
        applinks:
          - apps: [shop]
            rules:
              - path: /news/*
                query: "page=*"
              - path: /preview/*
                environments: [production]
        emit:
          android_dynamic_rules: true

        """

    static func files(_ files: [String: String]) -> [SourceFile] {
        files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
    }

    static let base = [
        "environments/production.yaml": production, "environments/staging.yaml": staging,
        "domains/shop.yaml": shop, "domains/news.yaml": news,
    ]

    /// A walk through revisions changing one part at a time, and back.
    static let revisions: [[String: String]] = [
        base,
        base.replacing(
            "      - path: /products/*", with: "      - path: /sale/*\n      - path: /products/*",
            in: "domains/shop.yaml"),
        base.replacing(
            "bundle_id: com.example.shop", with: "bundle_id: com.example.shop.beta", in: "environments/staging.yaml"),
        // Staging alone: the translations production made first are staging's to report now.
        base.filter { $0.key != "environments/production.yaml" }
            .replacing("environments: [production]", with: "environments: [staging]", in: "domains/news.yaml"),
        base.replacing(
            "tier: production", with: "tier: production\nentitlements_mode: developer",
            in: "environments/production.yaml"),
        base,
    ]

    /// Everything a compile gives, as text to compare.
    static func outcome(_ result: (compiled: CompiledConfiguration, diagnostics: [Diagnostic])) -> [String] {
        result.compiled.environments.map { environment in
            "\(environment.name) \(environment.tier) \(String(describing: environment.mode)) "
                + environment.sites.map { site in
                    "\(site.fileHost) \(site.servedHosts) \(site.domain) \(String(describing: site.aasa)) \(String(describing: site.assetLinks))"
                }.joined(separator: "\n") + "\(environment.iosApps) \(environment.androidApps)"
        } + result.diagnostics.map { String(describing: $0) }
    }

    @Test func compilesAsAloneWhateverWasCompiledBefore() throws {
        for order in [Self.revisions, Self.revisions.reversed()] {
            let compilations = DomainCompilations()
            for revision in order {
                let (configuration, diagnostics) = ConfigLoader().load(Self.files(revision))
                let loaded = try #require(configuration, "\(diagnostics)")
                let alone = Compiler().compile(loaded)
                #expect(Self.outcome(Compiler().compile(loaded, reusing: compilations)) == Self.outcome(alone))
            }
        }
    }

    /// The example exercises what it means to: every kind of diagnostic a compilation carries.
    @Test func theRevisionsDiagnoseWhatCompilationsCarry() throws {
        let (configuration, _) = ConfigLoader().load(Self.files(Self.base))
        let ids = Set(Compiler().compile(try #require(configuration)).diagnostics.map(\.id))
        #expect(ids.isSuperset(of: [.legacyPathsInexact, .androidExclusionIgnored, .androidQueryString]))
    }

    /// A domain file changed elsewhere than in its rules (here an expectation added) compiles
    /// again, to files equal to those before: the compilation serves the instance kept before,
    /// so comparisons of the two cost nothing.
    @Test func equalFilesCompiledAgainAreOneInstance() throws {
        let compilations = DomainCompilations()
        let expecting = Self.base.replacing(
            "  android_dynamic_rules: true\n",
            with: "  android_dynamic_rules: true\nexpectations:\n  - url: /news/1\n    opens_app: shop\n",
            in: "domains/news.yaml")
        let sites = try [Self.base, expecting].map { revision in
            let configuration = try #require(ConfigLoader().load(Self.files(revision)).configuration)
            let compiled = Compiler().compile(configuration, reusing: compilations).compiled
            return try #require(compiled.environments.flatMap(\.sites).first { $0.fileHost.name == "news.example" })
        }
        #expect(storageAddress(sites[0].assetLinks?.statements) != nil)
        #expect(storageAddress(sites[0].assetLinks?.statements) == storageAddress(sites[1].assetLinks?.statements))
        #expect(storageAddress(sites[0].aasa?.applinks?.details) == storageAddress(sites[1].aasa?.applinks?.details))
    }
}
