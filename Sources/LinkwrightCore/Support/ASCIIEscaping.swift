/// Escaping of ASCII characters, decided on UTF-8 bytes rather than on `Character`s.
///
/// A Swift `Character` is a grapheme cluster: a combining mark joins the character before it,
/// so `"<\u{338}"` is one Character (canonically equal to `≮`) and never equals `"<"`. Escaping
/// by Character therefore lets a `<`, `&`, `|`, `-` or backtick through whenever input puts a
/// combining mark after it, and XML, Markdown tables and CI commands all read the raw byte.
/// Every character these formats reserve is ASCII, and in UTF-8 an ASCII byte never occurs
/// inside a longer scalar, so replacing bytes leaves every other scalar intact.
enum ASCIIEscaping {
    /// `text` with each byte `replacement` gives text for written as that text; returned as it
    /// is, without a copy, when no byte needs it (nearly all text).
    static func replacing(in text: some StringProtocol, _ replacement: (UInt8) -> String?) -> String {
        guard text.utf8.contains(where: { replacement($0) != nil }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if let replaced = replacement(byte) {
                bytes += replaced.utf8
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
