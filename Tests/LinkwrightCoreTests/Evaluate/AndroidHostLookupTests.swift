import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

/// Android applies dynamic rules by the URL's own host, not by the intent filter that matched
/// (AOSP `DomainVerificationService.matchUriRelativeFilterGroups` → `getUriRelativeFilterGroups`):
/// the host's own rules, else (`latest`) those of the nearest `*.` parent the app declares; with
/// none, the intent filter alone decides (`AndroidHostLookupConfiguration`).
@Suite struct AndroidHostLookupTests {
    static func evaluator(
        _ files: [String: String] = AndroidHostLookupConfiguration.files, release: AndroidRelease = .latest
    ) throws -> EnvironmentEvaluator {
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        let compiled = Compiler().compile(loaded).compiled
        return EnvironmentEvaluator(try #require(compiled.environments.first), androidRelease: release)
    }

    private func android(_ url: String, _ evaluator: EnvironmentEvaluator) throws -> EnvironmentEvaluator.Verdict {
        let parsed = try #require(LinkURL(url))
        return try #require(evaluator.verdicts(for: parsed, platform: .android).first)
    }

    /// The subdomain's own rules decide its URLs, though the wildcard's filter claims them
    /// first: its `/account/*` opens, its other paths stay on the web.
    @Test(arguments: AndroidRelease.allCases)
    func aHostsOwnRulesDecideIt(release: AndroidRelease) throws {
        let evaluator = try Self.evaluator(release: release)
        let account = try android("https://shop.example.com/account/orders", evaluator)
        #expect(account.opens)
        #expect(account.fileHost == "shop.example.com")
        #expect(account.claim == .wildcard("*.example.com"))
        let other = try android("https://shop.example.com/gallery", evaluator)
        #expect(!other.opens, "shop's rules name /account/* only")
        #expect(other.fileHost == "shop.example.com")
        // iOS reads shop's own file too (an exact entitlement): both platforms agree.
        let url = try #require(LinkURL("https://shop.example.com/account/orders"))
        let ios = try #require(evaluator.verdicts(for: url, platform: .ios).first)
        #expect(ios.opens)
    }

    /// A subdomain no binding names: `latest` finds the rules of `*.example.com`; the first
    /// Android 15 release looks up the host itself only, finds none, and lets the filter decide.
    @Test func anUndeclaredSubdomainReadsItsWildcardsRulesOnLatestOnly() throws {
        let latest = try android("https://www.example.com/account/x", try Self.evaluator())
        #expect(!latest.opens)
        #expect(latest.fileHost == "example.com")
        let initial = try android("https://www.example.com/account/x", try Self.evaluator(release: .android15Initial))
        #expect(initial.opens, "no groups for www.example.com: the intent filter alone decides")
        #expect(initial.decision.origin == nil)
    }

    /// A host whose own file has no dynamic rules reads its wildcard parent's on `latest`: an
    /// empty list is not stored, so the lookup goes on to `*.example.com`.
    @Test func aHostWithoutRulesOfItsOwnReadsTheWildcards() throws {
        var files = AndroidHostLookupConfiguration.files
        files["domains/shop.yaml"] = """
            applinks:
              - apps: [store]
                rules:
                  - path: /*

            """
        let latest = try android("https://shop.example.com/account/orders", try Self.evaluator(files))
        #expect(!latest.opens, "example.com's rules exclude /account/*")
        #expect(latest.fileHost == "example.com")
        let initial = try android(
            "https://shop.example.com/account/orders", try Self.evaluator(files, release: .android15Initial))
        #expect(initial.opens)
        #expect(initial.fileHost == "shop.example.com", "shop verifies itself; no rules apply")
    }

    /// Every URL of every host decided through `HostClaims` equals the decision made from the
    /// file the lookup names, on both releases: the proof and `test` read the same files.
    @Test(arguments: AndroidRelease.allCases)
    func everyFilterOfAHostSharesItsDecidingFile(release: AndroidRelease) throws {
        let evaluator = try Self.evaluator(release: release)
        for host in ["example.com", "www.example.com", "shop.example.com", "a.shop.example.com"] {
            let chain = evaluator.claims(of: host, on: .android).android[0]
            #expect(!chain.isEmpty, "\(host)")
            #expect(Set(chain.map(\.file)).count == 1, "\(host): \(chain.map(\.file))")
        }
    }
}
