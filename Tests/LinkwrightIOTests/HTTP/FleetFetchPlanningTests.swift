import Foundation
import Testing

@testable import LinkwrightIO

/// The pure parts of fleet fetching: `--connect-to` values, `Retry-After`, and the order in which
/// the scheduler starts transfers.
@Suite struct FleetFetchPlanningTests {
    /// The entry a transfer is given is the one libcurl would pick from the whole list (the first
    /// whose host and port match, an empty field matching any), found by lookup: libcurl's own
    /// search of 25,000 entries for each of 10,000 hosts' files took 115 s.
    @Test func eachTransferGetsTheFirstMatchingConnectToEntryAlone() throws {
        var generator = SystemRandomNumberGenerator()
        let hosts = (0..<10_000).map { "h\($0).example" }
        var entries: [HTTPConnectTo] = (0..<25_000).map { index in
            // Every host written in capitals (libcurl compares host names without case), a few
            // entries for any host, and only after the named ones.
            let named = hosts[Int.random(in: 0..<hosts.count, using: &generator)].uppercased()
            return HTTPConnectTo(
                host: index >= 20_000 && index % 7 == 0 ? nil : named,
                port: index % 3 == 0 ? nil : [443, 8443].randomElement(using: &generator),
                connectHost: "10.0.\(index / 256 % 256).\(index % 256)", connectPort: nil)
        }
        entries.insert(HTTPConnectTo(host: "h1.example", port: 443, connectHost: "first", connectPort: nil), at: 9)
        var options = HTTPFetchOptions()
        options.connectTo = entries
        let lists = try #require(CurlLists(options))
        let clock = ContinuousClock()
        var chosen: [String?] = []
        let elapsed = clock.measure {
            for host in hosts {
                for port in [443, 8443] {
                    let list = lists.connectTo(for: "https://\(host):\(port)/.well-known/assetlinks.json")
                    chosen.append(list.map { String(cString: $0.pointee.data) })
                }
            }
        }
        #expect(elapsed < .seconds(5), "\(elapsed) for 20,000 transfers")
        // Checked against libcurl's reading, entry by entry, for a sample of the transfers.
        for position in [2, 3] + (0..<200).map({ _ in Int.random(in: 0..<chosen.count, using: &generator) }) {
            let (host, port) = (hosts[position / 2], position % 2 == 0 ? 443 : 8443)
            let expected = entries.first { entry in
                (entry.host == nil || entry.host!.lowercased() == host) && (entry.port == nil || entry.port == port)
            }
            #expect(chosen[position] == expected?.description, "\(host):\(port)")
        }
        #expect(chosen[2] == "h1.example:443:first:")
    }

    @Test(arguments: [
        ("::127.0.0.1:8443", HTTPConnectTo(host: nil, port: nil, connectHost: "127.0.0.1", connectPort: 8443)),
        (
            "shop.example:443:10.0.0.7:",
            HTTPConnectTo(host: "shop.example", port: 443, connectHost: "10.0.0.7", connectPort: nil)
        ),
        (":443::8443", HTTPConnectTo(host: nil, port: 443, connectHost: nil, connectPort: 8443)),
        ("::[::1]:8443", HTTPConnectTo(host: nil, port: nil, connectHost: "[::1]", connectPort: 8443)),
        (
            "[2001:db8::1]:443:edge.example:443",
            HTTPConnectTo(host: "[2001:db8::1]", port: 443, connectHost: "edge.example", connectPort: 443)
        ),
    ])
    func readsCurlsConnectToForm(_ text: String, _ expected: HTTPConnectTo) throws {
        let entry = try HTTPConnectTo(text)
        #expect(entry == expected)
        #expect(entry.description == text)
    }

    @Test(arguments: [
        (
            "127.0.0.1:8443",
            "has 2 fields, not the 4 of HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an IPv6 address goes in [brackets])"
        ),
        (
            "::::1:8443",
            "has 6 fields, not the 4 of HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an IPv6 address goes in [brackets])"
        ),
        ("::127.0.0.1:0", "port 0 is not a number in 1...65535"),
        ("::127.0.0.1:+80", "port +80 is not a number in 1...65535"),
        (":https:127.0.0.1:8443", "port https is not a number in 1...65535"),
        ("::127.0.0.1:70000", "port 70000 is not a number in 1...65535"),
        ("::[::1:8443", "the [ of an IPv6 address is never closed"),
        ("::[::1]x:8443", "a bracketed IPv6 address must be followed by a colon"),
        ("::[127.0.0.1]:8443", "[127.0.0.1] is not an IPv6 address in brackets"),
        ("::local host:8443", "local host is not a host name or an IP address"),
        ("shop.example:443::", "connects nowhere else: give CONNECT-TO-HOST, CONNECT-TO-PORT or both"),
    ])
    func refusesAnythingElseSayingWhy(_ text: String, _ reason: String) {
        let error = #expect(throws: HTTPConnectTo.ParseError.self) { try HTTPConnectTo(text) }
        #expect(error?.description == reason)
    }

    static let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func readsRetryAfterInSecondsAndInEveryHTTPDateForm() {
        #expect(HTTPRetryPolicy.retryAfter("1", now: Self.now) == .seconds(1))
        #expect(HTTPRetryPolicy.retryAfter(" 120 ", now: Self.now) == .seconds(120))
        #expect(HTTPRetryPolicy.retryAfter("99999999999999999999999", now: Self.now) == .seconds(Int.max))
        // RFC 9110 §5.6.7's three forms of the same instant, 10 seconds after `now`.
        for date in ["Sun, 06 Nov 1994 08:49:47 GMT", "Sunday, 06-Nov-94 08:49:47 GMT", "Sun Nov  6 08:49:47 1994"] {
            #expect(HTTPRetryPolicy.retryAfter(date, now: Self.now) == .seconds(10), "\(date)")
        }
        #expect(HTTPRetryPolicy.retryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now: Self.now) == .zero)
        #expect(HTTPRetryPolicy.retryAfter("soon", now: Self.now) == nil)
        #expect(HTTPRetryPolicy.retryAfter("-5", now: Self.now) == nil)
        #expect(HTTPRetryPolicy.retryAfter("", now: Self.now) == nil)
    }

    private func response(_ status: Int, retryAfter: String? = nil) -> HTTPResponse {
        HTTPResponse(
            url: "https://a.example/", effectiveURL: "https://a.example/", status: status,
            headers: HTTPHeaders(retryAfter.map { [HTTPHeaders.Field(name: "Retry-After", value: $0)] } ?? []),
            body: [], isBodyTruncated: false, redirectLocation: nil,
            timings: HTTPTimings(nameLookup: .zero, connect: .zero, tlsHandshake: .zero, firstByte: .zero, total: .zero)
        )
    }

    @Test func retriesOnly429And503AFewTimesWithinTheLongestWait() {
        let policy = HTTPRetryPolicy()
        #expect(policy.wait(after: response(503, retryAfter: "2"), retriesSoFar: 0, now: Self.now) == .seconds(2))
        #expect(policy.wait(after: response(429, retryAfter: "30"), retriesSoFar: 2, now: Self.now) == .seconds(30))
        // Longer than the longest wait: the answer stands rather than stall the round.
        #expect(policy.wait(after: response(429, retryAfter: "31"), retriesSoFar: 0, now: Self.now) == nil)
        // No usable Retry-After: 1 s, 2 s, 4 s.
        #expect(policy.wait(after: response(503), retriesSoFar: 0, now: Self.now) == .seconds(1))
        #expect(policy.wait(after: response(503, retryAfter: "later"), retriesSoFar: 1, now: Self.now) == .seconds(2))
        #expect(policy.wait(after: response(503), retriesSoFar: 2, now: Self.now) == .seconds(4))
        #expect(policy.wait(after: response(503), retriesSoFar: 3, now: Self.now) == nil)
        for status in [200, 404, 500, 502, 504] {
            #expect(policy.wait(after: response(status, retryAfter: "1"), retriesSoFar: 0, now: Self.now) == nil)
        }
        #expect(
            HTTPRetryPolicy(maximumRetries: 9, firstBackoff: .seconds(10), longestWait: .seconds(30))
                .wait(after: response(503), retriesSoFar: 5, now: Self.now) == .seconds(30))
    }

    /// Drains the scheduler, ending each transfer as soon as it starts, and returns the start order.
    private func startOrder(_ keys: [String], cap: Int) -> [Int] {
        var scheduler = TransferScheduler(hostKeys: keys, maximumTransfers: cap)
        var order: [Int] = []
        while let url = scheduler.next() {
            order.append(url)
            scheduler.finished(url, multiplexed: false, retrying: false)
        }
        #expect(scheduler.isDone)
        return order
    }

    @Test func startsOneTransferPerHostUpToTheCapAndAHostsNextOnItsFreedConnection() {
        var scheduler = TransferScheduler(hostKeys: ["a", "a", "b", "c", "c", "d"], maximumTransfers: 2)
        #expect(scheduler.next() == 0)
        // a is busy: b, not a's second URL.
        #expect(scheduler.next() == 2)
        #expect(scheduler.next() == nil)
        // a's connection is free again: its next URL goes before c's first.
        scheduler.finished(0, multiplexed: false, retrying: false)
        #expect(scheduler.next() == 1)
        #expect(scheduler.next() == nil)
        scheduler.finished(2, multiplexed: false, retrying: false)
        #expect(scheduler.next() == 3)
        scheduler.finished(1, multiplexed: false, retrying: false)
        #expect(scheduler.next() == 5)
        scheduler.finished(3, multiplexed: false, retrying: false)
        #expect(scheduler.next() == 4)
        #expect(!scheduler.isDone)
        scheduler.finished(4, multiplexed: false, retrying: false)
        scheduler.finished(5, multiplexed: false, retrying: false)
        #expect(scheduler.isDone)
        #expect(startOrder(["a", "b", "a", "b", "c"], cap: 1) == [0, 2, 1, 3, 4])
    }

    @Test func aMultiplexingHostTakesSeveralStreamsWithinTheCap() {
        var scheduler = TransferScheduler(hostKeys: Array(repeating: "cdn", count: 40) + ["b"], maximumTransfers: 30)
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == 40)
        #expect(scheduler.next() == nil)
        scheduler.finished(0, multiplexed: true, retrying: false)
        var started: [Int] = []
        while let url = scheduler.next() { started.append(url) }
        #expect(started == Array(1...TransferScheduler.streamsPerConnection))
        #expect(scheduler.inFlight == TransferScheduler.streamsPerConnection + 1)
    }

    @Test func aHostAskedToWaitStartsNothingUntilItsRetryIsDue() {
        var scheduler = TransferScheduler(hostKeys: ["a", "a", "b"], maximumTransfers: 4)
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == 2)
        scheduler.finished(0, multiplexed: false, retrying: true)
        #expect(scheduler.next() == nil)
        #expect(!scheduler.isDone)
        scheduler.retry(0)
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == nil)
        scheduler.finished(0, multiplexed: false, retrying: false)
        #expect(scheduler.next() == 1)
    }

    @Test func aHostsLastURLIsKnownAsItStartsAndNotWhileARetryWaits() {
        var scheduler = TransferScheduler(hostKeys: ["a", "b", "a"], maximumTransfers: 4)
        #expect(scheduler.next() == 0)
        #expect(!scheduler.isLastOfItsHost(0))
        #expect(scheduler.next() == 1)
        #expect(scheduler.isLastOfItsHost(1))
        scheduler.finished(0, multiplexed: false, retrying: false)
        #expect(scheduler.next() == 2)
        #expect(scheduler.isLastOfItsHost(2))
        // b's URL is to be asked again: while it waits, b still has a URL to start.
        scheduler.finished(1, multiplexed: false, retrying: true)
        #expect(!scheduler.isLastOfItsHost(1))
        scheduler.retry(1)
        #expect(scheduler.next() == 1)
        #expect(scheduler.isLastOfItsHost(1))
    }

    @Test func keysConnectionsByHostAndPort() {
        #expect(MultiTransfer.connectionKey("https://Shop.Example/.well-known/x") == "shop.example:443")
        #expect(MultiTransfer.connectionKey("https://shop.example:8443/") == "shop.example:8443")
        #expect(MultiTransfer.connectionKey("not a url") == "not a url")
    }
}
