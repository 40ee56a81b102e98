import LinkwrightCore
import Testing

/// The app ID most cases use; swcutil captures in blazingly-aasa use the same one.
let exampleApp = "ABCDE12345.com.example.app"

/// Reads an AASA file from JSON text; the test fails on any error diagnostic.
func readAASA(_ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> AASADocument {
    let result = AASAReader().read(Array(json.utf8), file: "test.json")
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "unexpected errors: \(errors)", sourceLocation: sourceLocation)
    return result.document ?? AASADocument()
}

/// The decision of a whole AASA file for `url` and `app`.
func appleDecision(_ json: String, _ url: String, app: String = exampleApp) -> LinkDecision {
    CompiledAASA(readAASA(json)).decision(for: LinkURL(url)!, appID: app)
}

/// What `swcutil match -u URL -j COMPONENT` answers: one component in one entry.
func componentMatches(_ component: String, _ url: String) -> Bool {
    let json = #"{"applinks":{"details":[{"appIDs":["\#(exampleApp)"],"components":[\#(component)]}]}}"#
    return appleDecision(json, url).outcome == .match
}

/// A seeded SplitMix64 generator, so property tests draw the same cases on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
