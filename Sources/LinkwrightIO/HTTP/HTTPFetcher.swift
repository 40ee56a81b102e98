import Foundation
import LinkwrightCore

/// Fetches HTTPS URLs with libcurl the way Apple's and Google's verifiers do: GET, TLS verified,
/// redirects not followed, bodies capped. Every outcome is a value; nothing throws or crashes.
///
/// Fetches block the calling thread. `fetchAll` runs them on threads of its own rather than on
/// Swift's cooperative pool, which has only one thread per core and must not wait on the network.
public struct HTTPFetcher: Sendable {
    /// How many fetches `fetchAll` runs at once unless told otherwise.
    public static let defaultMaximumConcurrentFetches = 6

    /// How every fetch of this fetcher is made.
    public let options: HTTPFetchOptions

    public init(options: HTTPFetchOptions = HTTPFetchOptions()) { self.options = options }

    /// Fetches one URL on the calling thread with a handle of its own.
    public func fetch(_ url: String) -> HTTPFetchResult {
        CurlTransfer(url: url, options: options).run()
    }

    /// Fetches every URL, at most `maximumConcurrentFetches` at a time (at least one), and returns
    /// the results in the order of `urls`, whatever order the fetches finish in.
    public func fetchAll(_ urls: [String], maximumConcurrentFetches: Int = defaultMaximumConcurrentFetches)
        -> [HTTPFetchResult]
    {
        // libcurl's global initialisation must happen before any thread uses libcurl.
        _ = LibCurl.initialization
        let queue = FetchQueue(urls: urls)
        let threadCount = min(max(1, maximumConcurrentFetches), urls.count)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threadCount {
            Thread { [self] in
                while let (index, url) = queue.next() { queue.record(fetch(url), at: index) }
                finished.signal()
            }.start()
        }
        for _ in 0..<threadCount { finished.wait() }
        return queue.results
    }
}

/// The URLs still to fetch and the results so far, shared by `fetchAll`'s threads.
private final class FetchQueue: Sendable {
    private struct State {
        var urls: [String]
        var nextIndex = 0
        var results: [HTTPFetchResult?]
    }

    private let state: LockedValue<State>

    init(urls: [String]) {
        state = LockedValue(State(urls: urls, results: Array(repeating: nil, count: urls.count)))
    }

    /// The next URL to fetch and its position, or nil when every URL has been handed out.
    func next() -> (Int, String)? {
        state.withLock { state in
            guard state.nextIndex < state.urls.count else { return nil }
            defer { state.nextIndex += 1 }
            return (state.nextIndex, state.urls[state.nextIndex])
        }
    }

    func record(_ result: HTTPFetchResult, at index: Int) {
        state.withLock { $0.results[index] = result }
    }

    /// Every result in input order; call once every fetch has been recorded.
    var results: [HTTPFetchResult] {
        state.withLock { $0.results.map { $0! } }
    }
}
