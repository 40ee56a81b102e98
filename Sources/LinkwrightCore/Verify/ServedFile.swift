/// What a server answered for one association file, as the core sees it (the fetching itself
/// happens at the edge, in LinkwrightIO).
public struct ServedFile: Sendable {
    public enum Outcome: Sendable {
        case response(Response)
        /// No HTTP answer: DNS, connection, TLS or timeout. `kind` names it in a few words;
        /// `message` says it in full, with the transport's detail.
        case failure(kind: String, message: String)
    }

    public struct Response: Sendable {
        public var status: Int
        /// The media type without parameters, lowercased (`application/json`).
        public var mediaType: String?
        public var contentType: String?
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        /// The body went past the size cap and was cut there.
        public var isTruncated: Bool
        public var redirectLocation: String?

        public init(
            status: Int, mediaType: String?, contentType: String?, headers: [(name: String, value: String)],
            body: [UInt8],
            isTruncated: Bool, redirectLocation: String?
        ) {
            self.status = status
            self.mediaType = mediaType
            self.contentType = contentType
            self.headers = headers
            self.body = body
            self.isTruncated = isTruncated
            self.redirectLocation = redirectLocation
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public var url: String
    public var outcome: Outcome

    public init(url: String, outcome: Outcome) {
        self.url = url
        self.outcome = outcome
    }
}

/// The two association files and where each is fetched from.
public enum AssociationFile: String, Sendable, CaseIterable {
    case aasa = "apple-app-site-association"
    case assetLinks = "assetlinks.json"

    /// `https://HOST/.well-known/<file>`: the only place iOS 9.3+ and Android look
    /// (Supporting associated domains; configure-assetlinks).
    public func originURL(host: String) -> String { "https://\(host)/.well-known/\(rawValue)" }

    /// Apple's CDN copy, `<base>/<host>` (default base `https://app-site-association.cdn-apple.com/a/v1`).
    public static func cdnURL(base: String, host: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + host
    }

    public static let defaultCDNBase = "https://app-site-association.cdn-apple.com/a/v1"

    /// The platform that fetches the file.
    public var platform: Platform {
        switch self {
        case .aasa: .ios
        case .assetLinks: .android
        }
    }
}

extension Platform {
    /// The association file the platform fetches.
    public var associationFile: AssociationFile { AssociationFile.allCases.first { $0.platform == self }! }
}
