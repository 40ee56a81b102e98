import Foundation

/// Fetches HTTPS URLs with libcurl the way Apple's and Google's verifiers do: GET, TLS verified,
/// redirects not followed, bodies capped. Every outcome is a value; nothing throws or crashes.
///
/// Fetches block the calling thread, which runs libcurl's multi interface: one thread keeps many
/// transfers going at once, so the network, not threads, sets the pace.
public struct HTTPFetcher: Sendable {
    /// How every fetch of this fetcher is made.
    public let options: HTTPFetchOptions

    public init(options: HTTPFetchOptions = HTTPFetchOptions()) { self.options = options }

    /// Fetches one URL on the calling thread.
    public func fetch(_ url: String) -> HTTPFetchResult {
        fetchAll([url])[0]
    }

    /// Fetches every URL and returns the results in the order of `urls`, whatever order the fetches
    /// finish in: many at once, over at most `options.maximumConnections` connections and one per
    /// host, a host's URLs one after another on its connection (several at once once it speaks
    /// HTTP/2), and 429 or 503 answers asked again as `options.retryPolicy` says.
    public func fetchAll(_ urls: [String]) -> [HTTPFetchResult] {
        MultiTransfer(urls: urls, options: options).run()
    }
}
