import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

/// An Android app's claim on a URL reads only its filters' path scopes when the URL is on the
/// host its claims were found for, or on none (`AndroidClaimLink.scope(for:onClaimedHost:)`):
/// each app must still get the filter, scope and file that checking every filter's hosts and
/// scopes in turn (`IntentFilter.matchingScope`) gives, whatever host the URL names.
@Suite struct ClaimedHostScopeTests {
    /// Claims and URL hosts: the bound hosts, case variants, subdomains under each wildcard and
    /// hosts no filter names.
    static let hosts = [
        "example.com", "Example.COM", "shop.example.com", "SHOP.example.com", "www.example.com",
        "a.eu.example.com", "x.y.EU.example.com", "eu.example.com", "plain.example.com", "other.org",
        "example.com.other.org",
    ]
    static let words = ["account", "eu", "a", "b", "orders"]

    /// `AndroidHostLookupConfiguration` with each domain's rules replaced by seeded paths, so
    /// each domain's filter has scopes of its own.
    static func files(_ generator: inout SplitMix64) -> [String: String] {
        var files = AndroidHostLookupConfiguration.files
        for domain in ["example", "shop", "europe", "plain"] {
            var text = "applinks:\n  - apps: [store]\n    rules:\n"
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let path = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                    "/" + words.randomElement(using: &generator)!
                }.joined()
                let ending = ["", "/*", "*"].randomElement(using: &generator)!
                text += "      - path: \"\(path.isEmpty && ending.isEmpty ? "/" : path + ending)\"\n"
            }
            files["domains/\(domain).yaml"] = text + "emit:\n  android_dynamic_rules: true\n"
        }
        return files
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func eachAppClaimsAsItsFiltersHostsAndScopesInTurnSay(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed &* 0x51_7CC1)
        let evaluator = try AndroidHostLookupTests.evaluator(Self.files(&generator))
        var claimed = 0
        for claimsHost in Self.hosts {
            let claims = evaluator.claims(of: claimsHost, on: .android)
            for _ in 0..<40 {
                let path = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    "/" + Self.words.randomElement(using: &generator)!
                }.joined()
                let host = [claimsHost, claimsHost, nil, Self.hosts.randomElement(using: &generator)!]
                    .randomElement(using: &generator)!
                let text = (host.map { "https://" + $0 } ?? "") + (path.isEmpty ? "/" : path)
                let url = try #require(LinkURL(text))
                var found: [[String?]] = []
                evaluator.forEachApp(
                    deciding: url, on: claims, decide: { _, _, make in make() },
                    { _, claim, file, scope, _ in found.append([claim.declared, scope.map { "\($0)" }, file?.host]) })
                let expected = claims.android.map { chain -> [String?] in
                    guard let link = chain.first(where: { $0.filter.matchingScope(for: url) != nil }) else {
                        return [nil, nil, nil]
                    }
                    let scope = link.filter.scopes[link.filter.matchingScope(for: url)!]
                    return [link.declared.name, "\(scope)", link.file.host]
                }
                #expect(found == expected, "\(text) on the claims of \(claimsHost)")
                claimed += expected.filter { $0[0] != nil }.count
            }
        }
        // The URLs reach both outcomes: claimed, and refused by a filter's hosts or scopes.
        #expect(claimed > 0 && claimed < Self.hosts.count * 40)
    }
}
