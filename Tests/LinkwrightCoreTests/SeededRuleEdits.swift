import Foundation

/// The edits of a seeded chain of revisions that state kept by rule content or position must see
/// through: a rule inserted at the top (moving every later rule), one removed, one moved, one
/// respelt from one Unicode form to the other (equal `String`s that devices tell apart).
enum SeededRuleEdits {
    /// Applies edit `choice` (0–3, as above) to `rules` at `position`; `false` for another
    /// choice, or a removal that would leave fewer than three rules, which the caller applies.
    static func apply(
        _ choice: Int, at position: Int, to rules: inout [String], random: (ClosedRange<Int>) -> Int,
        rule: () -> String
    ) -> Bool {
        switch choice {
        case 0: rules.insert(rule(), at: 0)
        case 1 where rules.count > 3: rules.remove(at: position)
        case 2:
            let moved = rules.remove(at: position)
            rules.insert(moved, at: random(0...rules.count))
        case 3:
            rules[position] =
                rules[position].unicodeScalars.contains("\u{301}")
                ? rules[position].precomposedStringWithCanonicalMapping
                : rules[position].decomposedStringWithCanonicalMapping
        default: return false
        }
        return true
    }

    /// The next spelling of a variable's value: `café` NFC, then NFD, then another word.
    static func respelt(_ value: String) -> String {
        value == "caf\u{E9}" ? "cafe\u{301}" : value == "cafe\u{301}" ? "blog" : "caf\u{E9}"
    }
}
