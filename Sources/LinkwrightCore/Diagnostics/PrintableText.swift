/// Text from input (configuration and association files, server responses, git, the command
/// line) made safe to print. Pull requests from anyone reach CI, where a raw newline in a value
/// could start a forged workflow command (`::add-mask::`, `::error::`) and an escape sequence
/// could rewrite the terminal or a log viewer; so every printer passes such text through here.
///
/// Escaped are the characters that act instead of showing: C0 controls (newline and ESC
/// included), DEL, C1 controls (U+0080–U+009F), the line and paragraph separators U+2028 and
/// U+2029, and the bidi overrides and isolates U+202A–U+202E and U+2066–U+2069, which reorder
/// what is shown around them. They are written as `\n`, `\r`, `\t` or `\u{1B}`. Backslashes are
/// not doubled: the result is for reading, not a string literal, and escaping escaped text again
/// leaves it as it is.
public enum PrintableText {
    /// How many characters (Unicode scalars, after escaping) an excerpt shows at most, the
    /// ellipsis included.
    public static let excerptLimit = 60

    /// Whether `scalar` is written as an escape.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether a UTF-8 byte can begin an escaped scalar: a cheap test that lets text without any
    /// (nearly all of it) through uncopied.
    static func mayBeginEscaped(_ byte: UInt8) -> Bool {
        // C0 and DEL are themselves; C1 starts with 0xC2; U+2028–U+2069 start with 0xE2.
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    /// `text` with every escaped character written visibly; the rest as it is.
    public static func escaped(_ text: some StringProtocol) -> String {
        // Nearly every text needs nothing: its bytes are scanned in place where they lie together
        // (a native string's do), much faster than the generic view's iteration.
        let mayNeedEscaping =
            text.utf8.withContiguousStorageIfAvailable { $0.contains(where: mayBeginEscaped) }
            ?? text.utf8.contains(where: mayBeginEscaped)
        guard mayNeedEscaping else { return String(text) }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// `text` escaped and, when longer than `excerptLimit`, cut between two characters (never
    /// inside one, nor inside an escape) and ended with `…`. For values quoted in messages: a
    /// file that is not a configuration file at all (a copy of credentials, say) is then never
    /// echoed whole.
    public static func excerpt(_ text: some StringProtocol) -> String {
        // Escaped characters up to the first past the limit: all that can be shown.
        var pieces: [String] = []
        var length = 0
        for character in text {
            let piece = escaped(String(character))
            pieces.append(piece)
            length += piece.unicodeScalars.count
            guard length > excerptLimit else { continue }
            var shown = ""
            var shownLength = 0
            for piece in pieces {
                let pieceLength = piece.unicodeScalars.count
                guard shownLength + pieceLength < excerptLimit else { break }
                shown += piece
                shownLength += pieceLength
            }
            return shown + "…"
        }
        return pieces.joined()
    }

    /// `excerpt(text)` in double quotes: how a message quotes a value it read.
    public static func quoted(_ text: some StringProtocol) -> String { "\"" + excerpt(text) + "\"" }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        guard isEscaped(scalar) else { return out.unicodeScalars.append(scalar) }
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
