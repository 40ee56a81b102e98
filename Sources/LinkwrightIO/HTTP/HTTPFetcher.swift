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
    /// finish in. How they are fetched: `fetchEach(_:_:)`.
    public func fetchAll(_ urls: [String]) -> [HTTPFetchResult] {
        var results = [HTTPFetchResult?](repeating: nil, count: urls.count)
        fetchEach(urls) { index, result in results[index] = result }
        return results.map { $0! }
    }

    /// Fetches every URL and hands each result to `receive` with the URL's index as soon as it is
    /// final, on the calling thread, returning once every URL has had its result: many at once,
    /// over at most `options.maximumConnections` connections and one per host, a host's URLs one
    /// after another on its connection (several at once once it speaks HTTP/2), and 429 or 503
    /// answers asked again as `options.retryPolicy` says. Nothing is kept once handed over.
    /// URLs with the same `deadlineGroups` entry (one host's files) share one `options.deadline`,
    /// counted from the first of them to start; without groups each URL has its own.
    public func fetchEach(
        _ urls: [String], deadlineGroups: [Int]? = nil, _ receive: (Int, HTTPFetchResult) -> Void
    ) {
        MultiTransfer(urls: urls, options: options, deadlineGroups: deadlineGroups).run(receive)
    }
}
