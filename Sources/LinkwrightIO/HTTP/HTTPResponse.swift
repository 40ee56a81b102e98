/// A response as the server sent it, whatever its status: a 3xx is not followed and a 404 is not
/// an error here, because judging them is the caller's job.
public struct HTTPResponse: Sendable, Equatable {
    /// The URL that was requested.
    public let url: String
    /// The URL libcurl last used: `url` normalised (host lowercased, an empty path as `/`).
    public let effectiveURL: String
    /// The HTTP status code (200, 301, 404…).
    public let status: Int
    /// Every header field of the response, in the order received.
    public let headers: HTTPHeaders
    /// The body, or its first `HTTPFetchOptions.maximumBodySize` bytes when `isBodyTruncated`.
    public let body: [UInt8]
    /// The server sent more than `HTTPFetchOptions.maximumBodySize` bytes; reading stopped there.
    public let isBodyTruncated: Bool
    /// For a 3xx: the `Location` header as an absolute URL (resolved against `url`), not followed.
    public let redirectLocation: String?
    public let timings: HTTPTimings

    /// A response built by hand, for tests of code that judges responses.
    public init(
        url: String, effectiveURL: String, status: Int, headers: HTTPHeaders, body: [UInt8],
        isBodyTruncated: Bool, redirectLocation: String?, timings: HTTPTimings
    ) {
        self.url = url
        self.effectiveURL = effectiveURL
        self.status = status
        self.headers = headers
        self.body = body
        self.isBodyTruncated = isBodyTruncated
        self.redirectLocation = redirectLocation
        self.timings = timings
    }

    /// The `Content-Type` header as sent, parameters included (`application/json; charset=utf-8`).
    public var contentType: String? { headers["Content-Type"] }

    /// The media type alone, lowercased and without parameters (`application/json`).
    public var mediaType: String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return type.trimmingHTTPWhitespace().lowercased()
    }
}

/// Response header fields in the order they arrived. Names compare case-insensitively, and a
/// name sent several times keeps every value. Values are kept exactly as sent, control
/// characters included: whatever shows one escapes it (`PrintableText`), since the server chose it.
public struct HTTPHeaders: Sendable, Equatable {
    /// One header line: the name as sent, and the value without surrounding whitespace.
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order received.
    public let fields: [Field]

    public init(_ fields: [Field]) { self.fields = fields }

    /// The first value of `name`, or nil when the server did not send it.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of `name`, in the order sent; empty when the server did not send it.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}

/// When each phase of a fetch ended, measured from its start (libcurl's `time_*` values). A phase
/// that did not happen (no TLS, a reused connection) reads zero.
public struct HTTPTimings: Sendable, Equatable {
    public let nameLookup: Duration
    public let connect: Duration
    public let tlsHandshake: Duration
    public let firstByte: Duration
    public let total: Duration

    public init(
        nameLookup: Duration, connect: Duration, tlsHandshake: Duration, firstByte: Duration, total: Duration
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs, the whitespace HTTP allows around values.
    func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let end = lastIndex(where: { !isWhitespace($0) })!
        return String(self[start...end])
    }
}
