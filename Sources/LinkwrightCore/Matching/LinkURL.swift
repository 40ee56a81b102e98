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

    /// Whether `text` parses (`init?(_:)`), answered without making its parts: validation asks
    /// it of every expectation, whose URL the checks parse again.
    public static func parses(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { Layout(utf8: $0) != nil }
    }

    /// The same, from UTF-8 bytes read in place (a batch's input line needs no `String`): every
    /// delimiter is ASCII, so every slice starts and ends on a scalar boundary, and a batch of a
    /// million URLs pays no grapheme breaking. Ill-formed UTF-8 in a part is repaired as
    /// `String(decoding:as:)` repairs it.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let layout = Layout(utf8: bytes) else { return nil }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        scheme = layout.scheme?.rawValue
        // Nearly every host is lowercase ASCII already: no second copy for those.
        host = layout.host.map { range in
            bytes[range].allSatisfy(Layout.isLowercaseASCII) ? string(range) : string(range).lowercased()
        }
        port = layout.port
        path = string(layout.path)
        query = layout.query.map(string)
        fragment = layout.fragment.map(string)
    }

    /// Where the parts of a URL lie in its UTF-8 bytes, and whether it is one `init?(utf8:)`
    /// takes. Plain values only: no reference to count when it is made and dropped.
    private struct Layout {
        enum Scheme: String {
            case http, https
        }

        var scheme: Scheme?
        var host: Range<Int>?
        var port: Int?
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?

        static func isLowercaseASCII(_ byte: UInt8) -> Bool {
            byte < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }

        init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
            // One pass finds the query and fragment delimiters and rejects what a browser would
            // have encoded; a `?` inside the fragment is the fragment's.
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
            var end = hash
            if hash < bytes.count { fragment = hash + 1..<bytes.count }
            if question >= 0 {
                query = question + 1..<end
                end = question
            }
            if bytes.first == UInt8(ascii: "/") {
                path = 0..<end
                return
            }
            guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon + 2 < end,
                bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            let written = String(decoding: bytes[0..<colon], as: UTF8.self)
            let scheme = bytes[0..<colon].allSatisfy(Self.isLowercaseASCII) ? written : written.lowercased()
            guard let scheme = Scheme(rawValue: scheme) else { return nil }
            self.scheme = scheme
            let authorityStart = colon + 3
            let authorityEnd = bytes[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            path = authorityEnd..<end
            let authority = bytes[authorityStart..<authorityEnd]
            guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
            if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
                let digits = String(decoding: bytes[portColon + 1..<authorityEnd], as: UTF8.self)
                guard let port = Int(digits), (0...65535).contains(port) else { return nil }
                self.port = port
                host = authorityStart..<portColon
            } else {
                host = authorityStart..<authorityEnd
            }
            // Lowercasing keeps a host empty or not.
            guard let host, !host.isEmpty else { return nil }
        }
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
