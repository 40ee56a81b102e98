import CCurl
import Foundation

/// The `--resolve` and `--connect-to` lists as libcurl takes them, built once per batch and
/// shared by its transfers, which only read them.
final class CurlLists {
    private(set) var resolve: UnsafeMutablePointer<curl_slist>?
    /// Whether any `--connect-to` entry was given.
    let hasConnectTo: Bool
    /// The first entry for each host and port an entry names (nil: any), by position.
    private var firstEntry: [ConnectKey: Int] = [:]
    /// A one-entry list per entry that is first for its key.
    private var lists: [Int: UnsafeMutablePointer<curl_slist>] = [:]

    private struct ConnectKey: Hashable {
        var host: String?
        var port: Int?
    }

    /// Nil when libcurl runs out of memory building them.
    init?(_ options: HTTPFetchOptions) {
        hasConnectTo = !options.connectTo.isEmpty
        for entry in options.resolveOverrides {
            // On failure curl_slist_append returns NULL and leaves the list as it was.
            guard let appended = curl_slist_append(resolve, entry.description) else { return nil }
            resolve = appended
        }
        for (position, entry) in options.connectTo.enumerated() {
            let key = ConnectKey(host: entry.host?.lowercased(), port: entry.port)
            guard firstEntry[key] == nil else { continue }
            firstEntry[key] = position
            guard let list = curl_slist_append(nil, entry.description) else { return nil }
            lists[position] = list
        }
    }

    deinit {
        curl_slist_free_all(resolve)
        for list in lists.values { curl_slist_free_all(list) }
    }

    /// The `--connect-to` entry libcurl would pick for `url` (the first that matches its host
    /// and port, an empty field matching any), alone in a list: libcurl searches the list it is
    /// given for every transfer, which costs hosts × entries; here it is four lookups.
    func connectTo(for url: String) -> UnsafeMutablePointer<curl_slist>? {
        guard hasConnectTo, let components = URLComponents(string: url), let host = components.host?.lowercased()
        else { return nil }
        let named = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = components.port ?? 443
        let candidates = [
            ConnectKey(host: named, port: port), ConnectKey(host: named, port: nil),
            ConnectKey(host: nil, port: port), ConnectKey(host: nil, port: nil),
        ]
        return candidates.compactMap { firstEntry[$0] }.min().flatMap { lists[$0] }
    }
}

/// A batch of GETs on one libcurl multi handle, on the calling thread: many transfers at once over
/// few connections, as `TransferScheduler` hands them out, with 429 and 503 asked again as
/// `HTTPRetryPolicy` says.
///
/// The multi handle keeps connections open between transfers and multiplexes HTTP/2
/// (`CURLMOPT_PIPELINING`), never opens more than one connection per host (the scheduler, and
/// `CURLMOPT_MAX_HOST_CONNECTIONS`) and at most `maximumConnections` in all
/// (`CURLMOPT_MAX_TOTAL_CONNECTIONS`, closing the oldest idle one to make room), as documented at
/// curl.se/libcurl/c/curl_multi_setopt.html. A host's last URL closes its connection when it
/// ends (`CURLOPT_FORBID_REUSE`), so the only idle connections are those of hosts with URLs left,
/// and the cap never closes one of those to open another's.
struct MultiTransfer {
    let urls: [String]
    let options: HTTPFetchOptions
    /// Which deadline each URL counts against (`HTTPFetcher.fetchEach`); nil: each its own.
    var deadlineGroups: [Int]? = nil

    /// Hands each URL's result to `receive` as soon as it is final.
    func run(_ receive: (Int, HTTPFetchResult) -> Void) {
        guard !urls.isEmpty else { return }
        guard LibCurl.initialization == CURLE_OK else {
            return everyURL(.other, LibCurl.initialization, detail: "libcurl cannot be initialised", receive)
        }
        guard let multi = curl_multi_init() else {
            return everyURL(.other, CURLE_FAILED_INIT, detail: "libcurl cannot create a multi handle", receive)
        }
        defer { curl_multi_cleanup(multi) }
        let connections = max(1, options.maximumConnections)
        var settings: [(CURLMoption, Int, String)] = [
            (CURLMOPT_PIPELINING, ccurl_pipe_multiplex(), "multiplexing"),
            (CURLMOPT_MAX_TOTAL_CONNECTIONS, connections, "the connection cap"),
            (CURLMOPT_MAXCONNECTS, connections, "the connection cache size"),
        ]
        // libcurl counts a host's connections by where they go, so with `connectTo` every host
        // sent to one test server would share a single connection. The scheduler keeps one
        // connection per host name either way; libcurl's own limit backs it up without `connectTo`.
        if options.connectTo.isEmpty {
            settings.append((CURLMOPT_MAX_HOST_CONNECTIONS, 1, "one connection per host"))
        }
        for (option, value, name) in settings where ccurl_multi_setopt_long(multi, option, value) != CURLM_OK {
            return everyURL(.other, CURLE_FAILED_INIT, detail: "cannot set \(name)", receive)
        }
        guard let lists = CurlLists(options) else {
            return everyURL(.other, CURLE_OUT_OF_MEMORY, detail: "out of memory", receive)
        }
        var batch = Batch(
            multi: multi, urls: urls, options: options, lists: lists,
            scheduler: TransferScheduler(hostKeys: urls.map(Self.connectionKey), maximumTransfers: connections),
            deadlineGroups: deadlineGroups ?? Array(urls.indices))
        withExtendedLifetime(lists) { batch.run(receive) }
    }

    /// What a URL needs a connection to: its host and port, as libcurl matches connections.
    static func connectionKey(_ url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        return "\(host.lowercased()):\(components.port ?? 443)"
    }

    private func everyURL(
        _ kind: HTTPFetchFailure.Kind, _ code: CURLcode, detail: String, _ receive: (Int, HTTPFetchResult) -> Void
    ) {
        for (index, url) in urls.enumerated() {
            receive(index, .failure(CurlTransfer.failure(url, kind, code, detail: detail)))
        }
    }

    /// The state of one run of the loop.
    private struct Batch {
        let multi: UnsafeMutableRawPointer
        let urls: [String]
        let options: HTTPFetchOptions
        let lists: CurlLists
        var scheduler: TransferScheduler
        /// Which URLs have had their result handed over.
        var isEnded: [Bool]
        var active: [UnsafeMutableRawPointer: (index: Int, transfer: CurlTransfer)] = [:]
        var retriesSoFar: [Int]
        /// Which deadline each URL counts against.
        let deadlineGroups: [Int]
        /// When each deadline group's first try started: every try and wait of its URLs ends by
        /// then plus the deadline.
        var firstStarted: [Int: ContinuousClock.Instant] = [:]
        /// URLs waiting to be asked again, and when.
        var due: [(at: ContinuousClock.Instant, index: Int)] = []

        init(
            multi: UnsafeMutableRawPointer, urls: [String], options: HTTPFetchOptions, lists: CurlLists,
            scheduler: TransferScheduler, deadlineGroups: [Int]
        ) {
            self.deadlineGroups = deadlineGroups
            self.multi = multi
            self.urls = urls
            self.options = options
            self.lists = lists
            self.scheduler = scheduler
            isEnded = Array(repeating: false, count: urls.count)
            retriesSoFar = Array(repeating: 0, count: urls.count)
        }

        /// What is left of the deadline URL `index` counts against.
        func remaining(_ index: Int, now: ContinuousClock.Instant) -> Duration {
            guard let started = firstStarted[deadlineGroups[index]] else { return options.deadline }
            return options.deadline - (now - started)
        }

        mutating func run(_ receive: (Int, HTTPFetchResult) -> Void) {
            var failure: CURLMcode = CURLM_OK
            while failure == CURLM_OK {
                requeueDueRetries()
                startWhatCan(receive)
                if scheduler.isDone { break }
                var running: Int32 = 0
                failure = curl_multi_perform(multi, &running)
                guard failure == CURLM_OK else { break }
                collectFinished(receive)
                startWhatCan(receive)
                if scheduler.isDone { break }
                failure = curl_multi_poll(multi, nil, 0, pollTimeout(), nil)
            }
            // Only a broken multi handle (out of memory, say) leaves URLs without a result.
            for (handle, _) in active { curl_multi_remove_handle(multi, handle) }
            active.removeAll()
            let detail = String(cString: curl_multi_strerror(failure))
            for (index, url) in urls.enumerated() where !isEnded[index] {
                receive(index, .failure(CurlTransfer.failure(url, .other, CURLE_FAILED_INIT, detail: detail)))
            }
        }

        private mutating func startWhatCan(_ receive: (Int, HTTPFetchResult) -> Void) {
            while let index = scheduler.next() {
                let closesConnection = scheduler.isLastOfItsHost(index)
                let now = ContinuousClock.now
                if firstStarted[deadlineGroups[index]] == nil { firstStarted[deadlineGroups[index]] = now }
                var tryOptions = options
                tryOptions.totalTimeout = min(options.totalTimeout, remaining(index, now: now))
                switch CurlTransfer.make(
                    url: urls[index], options: tryOptions, lists: lists, closesConnection: closesConnection)
                {
                case .success(let transfer):
                    guard curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
                        let detail = "libcurl cannot start the transfer"
                        end(
                            index,
                            .failure(CurlTransfer.failure(urls[index], .other, CURLE_FAILED_INIT, detail: detail)),
                            receive)
                        continue
                    }
                    active[transfer.handle] = (index, transfer)
                case .failure(let failure):
                    end(index, .failure(failure), receive)
                }
            }
        }

        private mutating func collectFinished(_ receive: (Int, HTTPFetchResult) -> Void) {
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                // The message is only valid until the handle is removed: read it first.
                let code = ccurl_message_result(message)
                guard let (index, transfer) = active.removeValue(forKey: handle) else { continue }
                curl_multi_remove_handle(multi, handle)
                let result = transfer.result(code)
                let multiplexed = transfer.isMultiplexed
                if case .success(let response) = result,
                    let wait = options.retryPolicy.wait(
                        after: response, retriesSoFar: retriesSoFar[index], now: Date()),
                    wait < remaining(index, now: ContinuousClock.now)
                {
                    retriesSoFar[index] += 1
                    due.append((ContinuousClock.now + wait, index))
                    scheduler.finished(index, multiplexed: multiplexed, retrying: true)
                } else {
                    end(index, result, receive, multiplexed: multiplexed)
                }
            }
        }

        private mutating func end(
            _ index: Int, _ result: HTTPFetchResult, _ receive: (Int, HTTPFetchResult) -> Void,
            multiplexed: Bool = false
        ) {
            isEnded[index] = true
            scheduler.finished(index, multiplexed: multiplexed, retrying: false)
            receive(index, result)
        }

        private mutating func requeueDueRetries() {
            guard !due.isEmpty else { return }
            let now = ContinuousClock.now
            for entry in due where entry.at <= now { scheduler.retry(entry.index) }
            due.removeAll { $0.at <= now }
        }

        /// Until libcurl has something to do, at most a second, and no later than the next retry.
        private func pollTimeout() -> Int32 {
            guard let soonest = due.map(\.at).min() else { return 1000 }
            let (seconds, attoseconds) = max(.zero, soonest - ContinuousClock.now).components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
            return Int32(min(1000, milliseconds))
        }
    }
}
