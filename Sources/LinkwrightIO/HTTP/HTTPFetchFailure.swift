/// A fetch that produced no response: what kind of failure, libcurl's code, and a readable message.
public struct HTTPFetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, as far as the caller can act on it.
    public enum Kind: Sendable, Equatable {
        /// Not an `https://` URL, or not a URL at all. Nothing was sent.
        case invalidURL
        /// The CA bundle given with `caBundlePath` is missing or holds no certificate.
        case unreadableCABundle
        /// The host name did not resolve.
        case dnsFailure
        /// Nothing listens on that address and port.
        case connectionRefused
        /// The connection could not be made or broke (network or host unreachable, connection reset).
        case connectionFailed
        /// The certificate chain does not lead to a trusted authority, or a certificate in it
        /// has expired or is not yet valid.
        case untrustedCertificate
        /// The certificate is trusted but does not name the requested host.
        case hostnameMismatch
        /// TLS could not be negotiated: the server does not speak TLS, or no version or cipher
        /// suite is shared.
        case tlsHandshake
        /// The connection or the whole fetch took longer than its timeout.
        case timeout
        /// The server broke HTTP: an empty or malformed reply, or a connection closed mid-body.
        case protocolError
        /// Anything else libcurl reports.
        case other
    }

    public let kind: Kind
    /// The URL that was requested.
    public let url: String
    /// libcurl's `CURLcode` (for example 6 for a DNS failure, 60 for a certificate problem).
    public let curlCode: Int
    /// One sentence for people, ending with libcurl's own explanation and code.
    public let message: String

    /// A failure built by hand, for tests of code that reports failures.
    public init(kind: Kind, url: String, curlCode: Int, message: String) {
        self.kind = kind
        self.url = url
        self.curlCode = curlCode
        self.message = message
    }

    /// Builds the message from the kind's summary and libcurl's detail.
    init(kind: Kind, url: String, curlCode: Int, detail: String) {
        self.init(
            kind: kind, url: url, curlCode: curlCode, message: "\(kind.summary) (curl error \(curlCode): \(detail))")
    }

    public var description: String { "\(url): \(message)" }
}

extension HTTPFetchFailure.Kind {
    /// What went wrong, in a few words; libcurl's detail follows it in `HTTPFetchFailure.message`.
    public var summary: String {
        switch self {
        case .invalidURL: "not a valid https:// URL"
        case .unreadableCABundle: "the CA bundle cannot be used"
        case .dnsFailure: "the host name does not resolve"
        case .connectionRefused: "the server refused the connection"
        case .connectionFailed: "the server cannot be reached"
        case .untrustedCertificate: "the server's certificate is not trusted"
        case .hostnameMismatch: "the server's certificate is not valid for this host name"
        case .tlsHandshake: "the TLS handshake failed"
        case .timeout: "the server did not answer in time"
        case .protocolError: "the server's reply is not valid HTTP"
        case .other: "the fetch failed"
        }
    }
}

/// The outcome of one fetch: a response (whatever its status) or why there is none.
public typealias HTTPFetchResult = Result<HTTPResponse, HTTPFetchFailure>
