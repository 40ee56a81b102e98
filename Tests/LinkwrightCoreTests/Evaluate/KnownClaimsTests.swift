import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

/// An evaluator finds each host's claims once per host and platform (`claims(of:on:)`) and
/// answers the next asker from them. Whatever hosts are asked for, in whatever order, exact,
/// wildcard-covered, unknown, in other letter cases or other Unicode spellings, the claims it
/// answers must decide every URL as the claims found afresh do, and keep the host as spelt.
@Suite struct KnownClaimsTests {
    /// Everything a verdict says, and the claims' Android filters with their files.
    static func described(_ url: LinkURL, _ claims: EnvironmentEvaluator.HostClaims, in evaluator: EnvironmentEvaluator)
        -> [String]
    {
        var described = [claims.host.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")]
        described += claims.android.map { chain in
            chain.map { "\($0.index) \($0.declared.name) \($0.file)" }.joined(separator: ", ")
        }
        described += (0..<claims.appCount).map { "\(claims.decidingFile(app: $0).map { "\($0)" } ?? "none")" }
        func verdict(
            _ app: Int, _ claim: EnvironmentEvaluator.Claim, _ file: EnvironmentEvaluator.FileRef?,
            _ scope: PathScope?, _ decision: LinkDecision
        ) {
            described.append(
                [
                    "\(app)", "\(claim)", file.map { "\($0)" } ?? "no file", scope?.attribute ?? "-",
                    decision.outcome.rawValue, "\(decision.entryIndex ?? -1)", "\(decision.ruleIndex ?? -1)",
                    decision.origin?.description ?? "-",
                ].joined(separator: "|"))
        }
        evaluator.forEachApp(deciding: url, on: claims, decide: { _, _, make in make() }, verdict)
        return described
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func knownClaimsDecideAsClaimsFoundAfresh(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let evaluators = try AndroidRelease.allCases.map { try AndroidHostLookupTests.evaluator(release: $0) }
        let labels = ["www", "shop", "a", "eu", "plain", "Shop", "caf\u{E9}", "cafe\u{301}", "x-1"]
        let roots = ["example.com", "EXAMPLE.com", "eu.example.com", "example.org", "com"]
        let paths = ["/", "/account/orders", "/eu/1", "/gallery", "/account"]
        for round in 0..<300 {
            let depth = Int.random(in: 0...2, using: &generator)
            let host =
                ((0..<depth).map { _ in labels.randomElement(using: &generator)! }
                + [roots.randomElement(using: &generator)!]).joined(separator: ".")
            let platform = Platform.allCases.randomElement(using: &generator)!
            let evaluator = evaluators.randomElement(using: &generator)!
            // A path alone: it is decided on the host the claims are of.
            let url = try #require(LinkURL(paths.randomElement(using: &generator)!))
            let known = evaluator.claims(of: host, on: platform)
            let found = evaluator.claimsFound(of: host, on: platform)
            #expect(ExactText.equal(known.host, host), "seed \(seed) round \(round): \(host)")
            #expect(
                Self.described(url, known, in: evaluator) == Self.described(url, found, in: evaluator),
                "seed \(seed) round \(round): \(host) \(platform)")
        }
    }
}
