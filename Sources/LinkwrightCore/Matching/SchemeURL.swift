extension LinkURL {
    /// Parses a URL of a custom scheme, `scheme:/path?query#fragment`, as the system hands it to an
    /// app declaring the scheme. The scheme is kept as written (RFC 3986 section 3.1 reads it
    /// without case; Android's `IntentFilter.matchData` compares it exactly), the path as written,
    /// possibly empty or without a leading `/`. `scheme://x/path` has an authority (RFC 3986
    /// section 3.2): `x` is kept as `host`, never read as a path segment. `nil` for `http`,
    /// `https`, text that is not a URL, and text holding spaces or control characters.
    public static func customScheme(_ text: String) -> LinkURL? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            }),
            !["http", "https"].contains(scheme.lowercased())
        else { return nil }
        var rest = text[text.index(after: colon)...]
        var authority: Substring?
        if rest.hasPrefix("//") {
            let start = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[start...].firstIndex { "/?#".contains($0) } ?? rest.endIndex
            authority = rest[start..<end]
            rest = rest[end...]
        }
        guard authority?.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) ?? true,
            var url = LinkURL("/" + rest)
        else { return nil }
        url.scheme = String(scheme)
        url.host = authority.map { String($0).lowercased() }
        // The `/` put in front only lets the path parser read the rest; the path is as written.
        url.path.removeFirst()
        return url
    }

    /// Whether this is a URL of a custom scheme (`LinkURL.customScheme`), not a path or an
    /// `http(s)` URL.
    public var isSchemeURL: Bool {
        guard let scheme else { return false }
        return !["http", "https"].contains(scheme.lowercased())
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
