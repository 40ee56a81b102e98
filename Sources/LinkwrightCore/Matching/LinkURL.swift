/// A URL split into the parts association files match, each kept exactly as written (still
/// percent-encoded): Apple compares the encoded form unless `percentEncoded` is false.
public struct LinkURL: Hashable, Sendable, CustomStringConvertible {
    /// `nil` for a path-only URL such as `/tickets/annual?source=mail`.
    public var scheme: String?
    /// Lowercased host, `nil` for a path-only URL.
    public var host: String?
    public var port: Int?
    /// The path as written, `""` when absent.
    public var path: String
    /// The query without `?`, `nil` when there is no `?`.
    public var query: String?
    /// The fragment without `#`, `nil` when there is no `#`.
    public var fragment: String?

    /// Parses an absolute `http(s)://` URL or a path starting with `/`. Returns `nil` for
    /// anything else, or when the text holds spaces or control characters (a browser would
    /// have encoded them).
    public init?(_ text: String) {
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) { return nil }
        var rest = Substring(text)
        if let hashIndex = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hashIndex)...])
            rest = rest[..<hashIndex]
        }
        if let queryIndex = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: queryIndex)...])
            rest = rest[..<queryIndex]
        }
        if rest.hasPrefix("/") {
            path = String(rest)
            return
        }
        guard let schemeEnd = rest.range(of: "://") else { return nil }
        let scheme = rest[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { return nil }
        self.scheme = scheme
        rest = rest[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        path = String(rest[authorityEnd...])
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        if let colon = authority.lastIndex(of: ":") {
            guard let port = Int(authority[authority.index(after: colon)...]), (0...65535).contains(port) else {
                return nil
            }
            self.port = port
            host = authority[..<colon].lowercased()
        } else {
            host = authority.lowercased()
        }
        guard let host, !host.isEmpty else { return nil }
    }

    /// The same URL on another host.
    public func on(host: String) -> LinkURL {
        var copy = self
        copy.scheme = copy.scheme ?? "https"
        copy.host = host
        return copy
    }

    public var description: String {
        var text = ""
        if let host { text += "\(scheme ?? "https")://\(host)" + (port.map { ":\($0)" } ?? "") }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }
}
