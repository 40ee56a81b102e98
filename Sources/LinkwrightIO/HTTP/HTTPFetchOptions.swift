import Foundation

/// How `HTTPFetcher` fetches: whom to trust, where hosts are, how long to wait, how much to read.
///
/// Some things are not options, because the association files are only valid when served that
/// way: only `https://` URLs are fetched, the certificate chain and host name are always verified,
/// redirects are never followed (a 3xx is returned as it is), and connections are always direct
/// (proxy variables in the environment are ignored, so a result means the same on every machine).
public struct HTTPFetchOptions: Sendable, Equatable {
    /// Apple's limit for the apple-app-site-association file: 128 KB, uncompressed.
    public static let defaultMaximumBodySize = 128 * 1024

    /// A PEM file of certificate authorities to trust instead of the system's (curl's `--cacert`).
    public var caBundlePath: String?
    /// Addresses to connect to for given hosts and ports instead of asking DNS (curl's `--resolve`).
    public var resolveOverrides: [HTTPResolveOverride]
    /// Where to connect instead of the URL's host and port, keeping the URL's host for TLS and
    /// `Host` (curl's `--connect-to`). The first entry that matches a request is used.
    public var connectTo: [HTTPConnectTo]
    /// The longest wait for the TCP connection and the TLS handshake. Values under 1 ms count as 1 ms.
    public var connectTimeout: Duration
    /// The longest wait for the whole fetch, connection included. Values under 1 ms count as 1 ms.
    public var totalTimeout: Duration
    /// The longest one URL (or the URLs of one deadline group, `HTTPFetcher.fetchEach`) may take
    /// from its first try to its result, every retry, every wait a server asks for and every
    /// slowly trickled body included: a try gets at most what is left, and a retry whose wait
    /// would end past it is not made (the last answer stands).
    public var deadline: Duration
    /// Bodies up to this many bytes are returned whole. Reading stops at the first byte beyond it:
    /// the response then holds the first `maximumBodySize` bytes and `isBodyTruncated` is true.
    public var maximumBodySize: Int
    /// The User-Agent header, such as `linkwright/1.0`.
    public var userAgent: String
    /// The most connections `fetchAll` keeps open at once, over every host (at least one). Each
    /// host gets at most one, whatever this is.
    public var maximumConnections: Int
    /// When an answer of 429 or 503 is asked again, and after how long.
    public var retryPolicy: HTTPRetryPolicy

    /// How long one URL or deadline group may take, retries included, unless told otherwise.
    public static let defaultDeadline = Duration.seconds(20)

    /// How many connections `fetchAll` opens at most unless told otherwise.
    public static let defaultMaximumConnections = 50

    /// Options with bounded defaults: 5 s to connect, 10 s a try, 20 s a URL with its retries,
    /// bodies up to 128 KiB, at most 50 connections, 429 and 503 asked again up to 3 times.
    public init(
        caBundlePath: String? = nil, resolveOverrides: [HTTPResolveOverride] = [], connectTo: [HTTPConnectTo] = [],
        connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(10),
        deadline: Duration = defaultDeadline,
        maximumBodySize: Int = defaultMaximumBodySize, userAgent: String = "linkwright",
        maximumConnections: Int = defaultMaximumConnections, retryPolicy: HTTPRetryPolicy = HTTPRetryPolicy()
    ) {
        self.caBundlePath = caBundlePath
        self.resolveOverrides = resolveOverrides
        self.connectTo = connectTo
        self.maximumConnections = maximumConnections
        self.retryPolicy = retryPolicy
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.deadline = deadline
        self.maximumBodySize = maximumBodySize
        self.userAgent = userAgent
    }
}

/// One entry of curl's `--resolve`, `HOST:PORT:ADDRESS`: connections to `host` on `port` go to
/// `address` without asking DNS. TLS still verifies the certificate against `host`, so a test
/// server can stand in for a real host name without touching /etc/hosts.
public struct HTTPResolveOverride: Sendable, Hashable, CustomStringConvertible {
    /// The host name as it appears in URLs.
    public var host: String
    /// The port as it appears in URLs (443 when the URL has none).
    public var port: Int
    /// An IPv4 or IPv6 address (IPv6 optionally in brackets), or several separated by commas.
    public var address: String

    public init(host: String, port: Int, address: String) {
        self.host = host
        self.port = port
        self.address = address
    }

    /// Parses curl's `HOST:PORT:ADDRESS`; nil unless the host is a name, the port is in 1...65535
    /// and every address is a literal IP address.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let port = Int(parts[1]), (1...65_535).contains(port) else { return nil }
        let host = String(parts[0])
        let address = String(parts[2])
        guard !host.isEmpty, !host.contains(where: { $0 == "[" || $0 == "]" || $0.isWhitespace }),
            !address.isEmpty,
            address.split(separator: ",", omittingEmptySubsequences: false).allSatisfy(Self.isIPAddress)
        else { return nil }
        self.init(host: host, port: port, address: address)
    }

    /// The curl syntax, `HOST:PORT:ADDRESS`.
    public var description: String { "\(host):\(port):\(address)" }

    static func isIPAddress(_ text: Substring) -> Bool {
        var literal = String(text)
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var storage = in6_addr()
        return inet_pton(AF_INET, literal, &storage) == 1 || inet_pton(AF_INET6, literal, &storage) == 1
    }
}
