/// One entry of curl's `--connect-to`, `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`: a request for
/// `host` on `port` is sent to `connectHost` on `connectPort` instead. The request keeps its own
/// host for TLS (SNI and certificate verification) and for `Host`, so one test server with a
/// wildcard certificate can answer for a whole fleet: `::127.0.0.1:8443` sends every host there.
///
/// Semantics are libcurl's `CURLOPT_CONNECT_TO` (curl.se/libcurl/c/CURLOPT_CONNECT_TO.html): an
/// empty HOST or PORT matches any request, an empty CONNECT-TO-HOST or CONNECT-TO-PORT keeps the
/// request's, an IPv6 address is written in brackets, and the first matching entry wins.
public struct HTTPConnectTo: Sendable, Hashable, CustomStringConvertible {
    /// The request's host this entry applies to; nil for every host.
    public var host: String?
    /// The request's port this entry applies to; nil for every port.
    public var port: Int?
    /// Where to connect instead; nil keeps the request's host.
    public var connectHost: String?
    /// Which port to connect to instead; nil keeps the request's port.
    public var connectPort: Int?

    public init(host: String?, port: Int?, connectHost: String?, connectPort: Int?) {
        self.host = host
        self.port = port
        self.connectHost = connectHost
        self.connectPort = connectPort
    }

    /// Why a `--connect-to` value cannot be used, in words that name the offending part.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`. Each host is empty, a host name, an
    /// IPv4 address or an IPv6 address in brackets; each port is empty or in 1...65535; and the
    /// entry must change something (a CONNECT-TO-HOST, a CONNECT-TO-PORT or both).
    public init(_ text: String) throws(ParseError) {
        var rest = Substring(text)
        var fields: [Substring] = []
        while true {
            if rest.first == "[" {
                // A bracketed IPv6 address holds colons of its own.
                guard let close = rest.firstIndex(of: "]") else {
                    throw ParseError(description: "the [ of an IPv6 address is never closed")
                }
                fields.append(rest[...close])
                rest = rest[rest.index(after: close)...]
                guard rest.isEmpty || rest.first == ":" else {
                    throw ParseError(description: "a bracketed IPv6 address must be followed by a colon")
                }
            } else {
                let end = rest.firstIndex(of: ":") ?? rest.endIndex
                fields.append(rest[..<end])
                rest = rest[end...]
            }
            guard rest.first == ":" else { break }
            rest = rest.dropFirst()
        }
        guard fields.count == 4 else {
            throw ParseError(
                description: "has \(fields.count) field\(fields.count == 1 ? "" : "s"), not the 4 of "
                    + "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an IPv6 address goes in [brackets])")
        }
        host = try Self.host(fields[0])
        port = try Self.port(fields[1])
        connectHost = try Self.host(fields[2])
        connectPort = try Self.port(fields[3])
        guard connectHost != nil || connectPort != nil else {
            throw ParseError(description: "connects nowhere else: give CONNECT-TO-HOST, CONNECT-TO-PORT or both")
        }
    }

    /// The curl syntax, as libcurl takes it.
    public var description: String {
        "\(host ?? ""):\(port.map(String.init) ?? ""):\(connectHost ?? ""):\(connectPort.map(String.init) ?? "")"
    }

    private static func host(_ field: Substring) throws(ParseError) -> String? {
        guard !field.isEmpty else { return nil }
        if field.first == "[" {
            guard field.last == "]", HTTPResolveOverride.isIPAddress(field.dropFirst().dropLast()),
                field.dropFirst().dropLast().contains(":")
            else { throw ParseError(description: "\(field) is not an IPv6 address in brackets") }
            return String(field)
        }
        // A name as DNS spells it (letters, digits, hyphens, dots, and `_` some records use), or
        // an IPv4 address, which is made of the same characters.
        let allowed = field.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "-" || scalar == "." || scalar == "_")
        }
        guard allowed, !field.hasPrefix("."), !field.hasPrefix("-") else {
            throw ParseError(description: "\(field) is not a host name or an IP address")
        }
        return String(field)
    }

    private static func port(_ field: Substring) throws(ParseError) -> Int? {
        guard !field.isEmpty else { return nil }
        guard field.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(field), (1...65_535).contains(port) else {
            throw ParseError(description: "port \(field) is not a number in 1...65535")
        }
        return port
    }
}
