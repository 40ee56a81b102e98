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
        var text = text
        guard let url = text.withUTF8(Self.init(utf8:)) else { return nil }
        self = url
    }

    /// The same, from UTF-8 bytes read in place (a batch's input line needs no `String`): every
    /// delimiter is ASCII, so every slice starts and ends on a scalar boundary, and a batch of a
    /// million URLs pays no grapheme breaking. Ill-formed UTF-8 in a part is repaired as
    /// `String(decoding:as:)` repairs it.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // One pass finds the query and fragment delimiters and rejects what a browser would have
        // encoded; a `?` inside the fragment is the fragment's.
        var hash = bytes.count
        var question = -1
        for index in bytes.indices {
            let byte = bytes[index]
            if byte <= 0x20 || byte == 0x7F { return nil }
            if byte == UInt8(ascii: "#") {
                if hash == bytes.count { hash = index }
            } else if byte == UInt8(ascii: "?") && question < 0 && hash == bytes.count {
                question = index
            }
        }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        // Nearly every scheme and host is lowercase ASCII already: no second copy for those.
        func lowercased(_ range: Range<Int>) -> String {
            let lower = bytes[range].allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
            return lower ? string(range) : string(range).lowercased()
        }
        var end = hash
        if hash < bytes.count { fragment = string(hash + 1..<bytes.count) }
        if question >= 0 {
            query = string(question + 1..<end)
            end = question
        }
        if bytes.first == UInt8(ascii: "/") {
            path = string(0..<end)
            return
        }
        guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon + 2 < end,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        let scheme = lowercased(0..<colon)
        guard scheme == "https" || scheme == "http" else { return nil }
        self.scheme = scheme
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        path = string(authorityEnd..<end)
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
        if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
            guard let port = Int(string(portColon + 1..<authorityEnd)), (0...65535).contains(port) else { return nil }
            self.port = port
            host = lowercased(authorityStart..<portColon)
        } else {
            host = lowercased(authorityStart..<authorityEnd)
        }
        guard let host, !host.isEmpty else { return nil }
    }

    /// The same URL on another host.
    public func on(host: String) -> LinkURL {
        // A custom scheme's URL is not on a host.
        if isSchemeURL { return self }
        var copy = self
        copy.scheme = copy.scheme ?? "https"
        copy.host = host
        return copy
    }

    /// Parts compare exactly (`ExactText`): `/café` spelt NFC and NFD are different URLs, as
    /// their bytes are. The hash stays the synthesized one.
    public static func == (left: LinkURL, right: LinkURL) -> Bool {
        left.port == right.port && ExactText.equal(left.scheme, right.scheme) && ExactText.equal(left.host, right.host)
            && ExactText.equal(left.path, right.path) && ExactText.equal(left.query, right.query)
            && ExactText.equal(left.fragment, right.fragment)
    }

    public var description: String {
        // Appended in place into one string sized for it: reports write one per failing host
        // named, and interpolating the pieces into new strings cost more than the rest of a finding.
        var text = ""
        // The parts, and room for "://", a port, "?" and "#".
        let partsLength =
            (scheme?.utf8.count ?? 5) + (host?.utf8.count ?? 0) + path.utf8.count + (query?.utf8.count ?? 0)
            + (fragment?.utf8.count ?? 0)
        text.reserveCapacity(partsLength + 16)
        if let host {
            text += scheme ?? "https"
            text += "://"
            text += host
            if let port {
                text += ":"
                text += String(port)
            }
        } else if let scheme {
            text += scheme
            text += ":"
        }
        text += path
        if let query {
            text += "?"
            text += query
        }
        if let fragment {
            text += "#"
            text += fragment
        }
        return text
    }
}
