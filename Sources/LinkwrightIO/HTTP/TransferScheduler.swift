/// Which URL of a batch to start next, so that a fleet is fetched quickly and politely: at most
/// `maximumTransfers` at once over every host, one at a time per host until the host's connection
/// is known to multiplex (HTTP/2), and a host's next URL right after its previous one, while its
/// connection is still open. Only URLs that can start at once are handed out, so nothing queues
/// inside libcurl (where its timeout would already run) and memory stays bounded by the cap.
///
/// Pure bookkeeping, no network or clock: `MultiTransfer` drives it.
struct TransferScheduler {
    /// One host's URLs (by index into the batch) and what is under way on it.
    private struct HostQueue {
        var pending: [Int] = []
        var nextPending = 0
        var inFlight = 0
        /// Its connection carried more than one stream at once: further URLs may share it.
        var multiplexes = false
        /// URLs waiting to be asked again: the host asked for a pause, so nothing else starts on it.
        var waiting = 0
        var isReady = false

        var hasPending: Bool { nextPending < pending.count }
    }

    /// Streams at most on one multiplexed connection, far under the 100 that HTTP/2 servers
    /// commonly allow (RFC 9113 §6.5.2 recommends advertising no fewer than 100).
    static let streamsPerConnection = 16

    let maximumTransfers: Int
    private var hosts: [HostQueue] = []
    private var hostOfURL: [Int] = []
    /// Hosts that may start a transfer now: `preferred` (a stack, the hosts whose connection has
    /// just been freed) before `queued` (first come, first served).
    private var preferred: [Int] = []
    private var queued: [Int] = []
    private var nextQueued = 0
    private(set) var inFlight = 0

    /// `hostKeys[i]` names the connection URL `i` needs (scheme, host and port).
    init(hostKeys: [String], maximumTransfers: Int) {
        self.maximumTransfers = max(1, maximumTransfers)
        var hostIndex: [String: Int] = [:]
        hostOfURL.reserveCapacity(hostKeys.count)
        for (url, key) in hostKeys.enumerated() {
            let host: Int
            if let known = hostIndex[key] {
                host = known
            } else {
                host = hosts.count
                hostIndex[key] = host
                hosts.append(HostQueue())
            }
            hosts[host].pending.append(url)
            hostOfURL.append(host)
        }
        for host in hosts.indices { makeReadyIfAble(host, preferred: false) }
    }

    /// The next URL to start now, or nil when the cap is reached or no host may start one.
    mutating func next() -> Int? {
        guard inFlight < maximumTransfers else { return nil }
        while let host = popReady() {
            hosts[host].isReady = false
            guard canStart(host) else { continue }
            let url = hosts[host].pending[hosts[host].nextPending]
            hosts[host].nextPending += 1
            hosts[host].inFlight += 1
            inFlight += 1
            // A multiplexing host may take another stream, after the hosts already waiting.
            makeReadyIfAble(host, preferred: false)
            return url
        }
        return nil
    }

    /// URL `url` ended; `multiplexed` says its connection is HTTP/2 or later. With `retrying` it
    /// will be asked again through `retry(_:)`, and its host starts nothing until then.
    mutating func finished(_ url: Int, multiplexed: Bool, retrying: Bool) {
        let host = hostOfURL[url]
        hosts[host].inFlight -= 1
        inFlight -= 1
        hosts[host].multiplexes = hosts[host].multiplexes || multiplexed
        if retrying { hosts[host].waiting += 1 }
        makeReadyIfAble(host, preferred: true)
    }

    /// URL `url`, which `finished(_:multiplexed:retrying:)` set aside, is due again: it goes first on its host.
    mutating func retry(_ url: Int) {
        let host = hostOfURL[url]
        hosts[host].waiting -= 1
        hosts[host].nextPending -= 1
        hosts[host].pending[hosts[host].nextPending] = url
        makeReadyIfAble(host, preferred: true)
    }

    /// Whether `url`'s host has nothing left to start once `url` is under way: no URL pending and
    /// none waiting for a retry. Its connection then serves no one after `url`, so `MultiTransfer`
    /// closes it rather than leave it idle under the connection cap, where libcurl would close the
    /// oldest idle connection to make room, which may be one a host between two URLs is about to
    /// reuse.
    func isLastOfItsHost(_ url: Int) -> Bool {
        let queue = hosts[hostOfURL[url]]
        return !queue.hasPending && queue.waiting == 0
    }

    /// Every URL has ended for good.
    var isDone: Bool { inFlight == 0 && hosts.allSatisfy { !$0.hasPending && $0.waiting == 0 } }

    private func canStart(_ host: Int) -> Bool {
        let queue = hosts[host]
        guard queue.hasPending, queue.waiting == 0 else { return false }
        return queue.inFlight == 0 || (queue.multiplexes && queue.inFlight < Self.streamsPerConnection)
    }

    private mutating func makeReadyIfAble(_ host: Int, preferred isPreferred: Bool) {
        guard !hosts[host].isReady, canStart(host) else { return }
        hosts[host].isReady = true
        if isPreferred { preferred.append(host) } else { queued.append(host) }
    }

    private mutating func popReady() -> Int? {
        if let host = preferred.popLast() { return host }
        guard nextQueued < queued.count else { return nil }
        defer {
            nextQueued += 1
            // Drop the consumed front now and then, so the queue stays as long as what it holds.
            if nextQueued > 1024 && nextQueued * 2 > queued.count {
                queued.removeFirst(nextQueued)
                nextQueued = 0
            }
        }
        return queued[nextQueued]
    }
}
