import Foundation

/// Text compared scalar for scalar.
///
/// Swift's `==` on `String` is canonical equivalence: `"caf\u{E9}"` (NFC) equals `"cafe\u{301}"`
/// (NFD). A URL is bytes, and so is a pattern matched against it: the automata that decide URLs
/// run on scalars and tell the two spellings apart. Whatever names a pattern or a URL (a cache
/// key, a file compared with its previous revision, a query item's name) must tell them apart
/// too, or a pattern compiled for one spelling decides for the other, and a commit that changes
/// only the spelling compares as no change. Apple documents no normalization, so the exact
/// reading is the safe one: it never reports two rules as one.
struct ExactText: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (left: ExactText, right: ExactText) -> Bool { equal(left.text, right.text) }

    /// String's own hash: equal for canonically equivalent texts, so for exactly equal ones.
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// `text` as ASCII that is equal for exactly equal texts only: every other scalar written
    /// `\u{HEX}`, and `\` as `\\`. For keys built from pattern texts and kept in plain `String`
    /// sets and dictionaries; ASCII text (nearly every key) is returned as it is.
    static func key(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) else { return text }
        var key = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                key += "\\\\"
            } else if scalar.isASCII {
                key.unicodeScalars.append(scalar)
            } else {
                key += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return key
    }

    static func equal(_ left: String, _ right: String) -> Bool {
        // The same bits are the same text: a short text's bytes are its bits, and a longer one
        // shares its storage (a rule carried from an earlier revision holds its very texts).
        guard unsafeBitCast(left, to: (UInt64, UInt64).self) != unsafeBitCast(right, to: (UInt64, UInt64).self)
        else { return true }
        // The bytes in place, compared at once: cheaper than String's own `==`, which must
        // look at normalization whenever the storage differs.
        var (left, right) = (left, right)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    static func equal(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): equal(left, right)
        default: false
        }
    }

    static func equal(_ left: [String]?, _ right: [String]?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        default: false
        }
    }
}
