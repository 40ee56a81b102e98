import Foundation
import Testing

@testable import LinkwrightCore

/// Witnesses of decoded text are written escaped (`DimensionSearch.escapedText`), as UTF-8
/// bytes. On seeded texts of every kind the proof writes, they must be what writing each
/// scalar as a string gives: `%`, what the part cannot hold and a query's stand-ins for
/// escaped separators as upper-case escapes of their UTF-8 bytes, the rest as it is.
@Suite struct EscapedTextTests {
    /// The straightforward writing, scalar by scalar.
    static func written(_ text: String, _ kind: TextKind) -> String {
        var written = ""
        for original in text.unicodeScalars {
            let scalar = kind == .part(.query) ? QuerySeparators.text(original) : original
            if scalar != original || scalar == "%" || kind.forbids(scalar.value) {
                for byte in String(scalar).utf8 { written += String(format: "%%%02X", byte) }
            } else {
                written.unicodeScalars.append(scalar)
            }
        }
        return written
    }

    @Test func escapedTextIsTheScalarByScalarWriting() {
        let scalars = Array(
            "a/%?#&= \u{7F}\u{01}é中\u{1F600}Z9".unicodeScalars + [
                QuerySeparators.escapedAmpersand, QuerySeparators.escapedEquals,
            ])
        let kinds: [TextKind] = URLPart.Key.allCases.map(TextKind.part) + [.itemName]
        var generator = SplitMix64(seed: 0xE5C_7E47)
        for kind in kinds {
            let search = DimensionSearch(.query, required: [], rejected: [], tracked: [], text: kind)
            for _ in 0..<500 {
                let text = String(
                    String.UnicodeScalarView(
                        (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                            scalars.randomElement(using: &generator)!
                        }))
                #expect(search.escapedText(text) == Self.written(text, kind), "\(kind): \(text.debugDescription)")
            }
        }
    }
}
