import Testing

@testable import LinkwrightCore

/// `ProofWitness.url` writes its parts into one string made large enough at once. On seeded
/// witnesses (no query or one, no fragment, an empty one or one, scalars of every UTF-8
/// length), it must write what joining the parts writes: the path after the host, `?` and the
/// query unless it is empty, `#` and the fragment when there is one.
@Suite struct ProofWitnessURLTests {
    @Test func writesWhatJoiningThePartsWrites() {
        var generator = SplitMix64(seed: 0x0E1_7E55)
        let scalars = Array("/a%2F=&?#é中😀".unicodeScalars)
        func text(_ longest: Int) -> String {
            String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...longest, using: &generator)).map { _ in
                        scalars.randomElement(using: &generator)!
                    }))
        }
        for _ in 0..<2_000 {
            let host = Bool.random(using: &generator) ? "witness.invalid" : "é.example"
            let witness = ProofWitness(
                path: text(12), query: text(3), fragment: Bool.random(using: &generator) ? nil : text(3))
            var joined = "https://" + host + witness.path
            if !witness.query.isEmpty { joined += "?" + witness.query }
            if let fragment = witness.fragment { joined += "#" + fragment }
            #expect(witness.url(host: host) == joined)
            #expect(witness.url(host: host).utf8.elementsEqual(joined.utf8))
        }
    }
}
