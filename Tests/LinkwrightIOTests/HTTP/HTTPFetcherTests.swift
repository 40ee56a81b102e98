import Foundation
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// The fetcher against a real nginx with real TLS. Each test starts its own server on free ports.
@Suite struct HTTPFetcherTests {
    typealias Scenario = OriginScenario

    @Test func fetchesBothFilesFromACorrectOrigin() throws {
        try withNginx(serving: Scenario.sites) { server in
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let aasaURL = server.url(Scenario.origin, "/.well-known/apple-app-site-association")
            let aasa = try fetcher.fetch(aasaURL).get()
            #expect(aasa.status == 200)
            #expect(aasa.contentType == "application/json")
            #expect(aasa.mediaType == "application/json")
            #expect(aasa.body == Array(Scenario.aasa.utf8))
            #expect(!aasa.isBodyTruncated)
            #expect(aasa.redirectLocation == nil)
            #expect(aasa.url == aasaURL)
            #expect(aasa.effectiveURL == aasaURL)
            #expect(aasa.headers["content-length"] == String(Scenario.aasa.utf8.count))
            #expect(aasa.headers["SERVER"]?.hasPrefix("nginx") == true)
            #expect(aasa.timings.tlsHandshake > .zero)
            #expect(aasa.timings.tlsHandshake <= aasa.timings.firstByte)
            #expect(aasa.timings.firstByte <= aasa.timings.total)

            let assetLinks = try fetcher.fetch(server.url(Scenario.origin, "/.well-known/assetlinks.json")).get()
            #expect(assetLinks.status == 200)
            #expect(assetLinks.contentType == "application/json")
            #expect(assetLinks.body == Array(Scenario.assetLinks.utf8))

            #expect(
                try server.requests() == [
                    "GET /.well-known/apple-app-site-association linkwright",
                    "GET /.well-known/assetlinks.json linkwright",
                ])
        }
    }

    @Test func reportsRedirectsWithoutFollowingThem() throws {
        try withNginx(serving: Scenario.sites) { server in
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let moved = try fetcher.fetch(server.url(Scenario.origin, "/moved/apple-app-site-association")).get()
            let target = server.url(Scenario.origin, "/.well-known/apple-app-site-association")
            #expect(moved.status == 301)
            #expect(moved.headers["Location"] == target)
            #expect(moved.redirectLocation == target)
            #expect(moved.contentType == "text/html")
            #expect(String(decoding: moved.body, as: UTF8.self).contains("301 Moved Permanently"))
            #expect(moved.effectiveURL == server.url(Scenario.origin, "/moved/apple-app-site-association"))

            let found = try fetcher.fetch(server.url(Scenario.origin, "/found/assetlinks.json")).get()
            #expect(found.status == 302)
            #expect(found.redirectLocation == server.url(Scenario.origin, "/.well-known/assetlinks.json"))

            // Only the redirecting paths were requested: the targets, which serve 200, were not.
            #expect(
                try server.requests() == [
                    "GET /moved/apple-app-site-association linkwright",
                    "GET /found/assetlinks.json linkwright",
                ])
        }
    }

    @Test func reportsTheContentTypeAsServed() throws {
        try withNginx(serving: Scenario.sites) { server in
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let html = try fetcher.fetch(server.url(Scenario.origin, "/html/apple-app-site-association")).get()
            #expect(html.status == 200)
            #expect(html.contentType == "text/html")
            #expect(html.body == Array(Scenario.aasa.utf8))

            let octets = try fetcher.fetch(server.url(Scenario.origin, "/octet-stream/apple-app-site-association"))
                .get()
            #expect(octets.contentType == "application/octet-stream")
            #expect(octets.mediaType == "application/octet-stream")

            let withCharset = try fetcher.fetch(server.url(Scenario.origin, "/charset/assetlinks.json")).get()
            #expect(withCharset.contentType == "Application/JSON; charset=utf-8")
            #expect(withCharset.mediaType == "application/json")
        }
    }

    @Test func returnsA404AndInvalidJSONAsResponses() throws {
        try withNginx(serving: Scenario.sites) { server in
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let missing = try fetcher.fetch(server.url(Scenario.origin, "/.well-known/missing")).get()
            #expect(missing.status == 404)
            #expect(missing.contentType == "text/html")
            #expect(missing.redirectLocation == nil)

            let invalid = try fetcher.fetch(server.url(Scenario.origin, "/invalid-json/assetlinks.json")).get()
            #expect(invalid.status == 200)
            #expect(invalid.contentType == "application/json")
            #expect(invalid.body == Array(Scenario.invalidJSON.utf8))
        }
    }

    @Test func cutsAnOversizeBodyAtTheCap() throws {
        try withNginx(serving: Scenario.sites) { server in
            let cap = HTTPFetchOptions.defaultMaximumBodySize
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let oversize = try fetcher.fetch(server.url(Scenario.origin, "/oversize/apple-app-site-association")).get()
            #expect(oversize.status == 200)
            #expect(oversize.isBodyTruncated)
            #expect(oversize.body == Array(Scenario.oversize.prefix(cap)))
            #expect(oversize.headers["Content-Length"] == "200000")

            let atCap = try fetcher.fetch(server.url(Scenario.origin, "/at-cap/apple-app-site-association")).get()
            #expect(!atCap.isBodyTruncated)
            #expect(atCap.body.count == cap)

            let small = HTTPFetcher(options: server.fetchOptions(maximumBodySize: 10))
            let cut = try small.fetch(server.url(Scenario.origin, "/.well-known/apple-app-site-association")).get()
            #expect(cut.isBodyTruncated)
            #expect(cut.body == Array(Scenario.aasa.utf8.prefix(10)))
        }
    }

    @Test func timesOutOnASlowResponse() throws {
        try withNginx(serving: Scenario.sites) { server in
            let fetcher = HTTPFetcher(options: server.fetchOptions(totalTimeout: .milliseconds(300)))
            let start = ContinuousClock.now
            let failure = try #require(
                fetcher.fetch(server.url(Scenario.origin, "/slow/apple-app-site-association")).error)
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(failure.kind == .timeout)
            #expect(failure.curlCode == 28)
            #expect(failure.message.hasPrefix("the server did not answer in time (curl error 28: Operation timed out"))
        }
    }

    @Test func rejectsACertificateFromAnUntrustedAuthority() throws {
        try withNginx(serving: Scenario.sites) { server in
            let url = server.url(Scenario.untrusted, "/.well-known/apple-app-site-association")
            let failure = try #require(HTTPFetcher(options: server.fetchOptions()).fetch(url).error)
            #expect(failure.kind == .untrustedCertificate)
            #expect(failure.curlCode == 60)
            #expect(failure.url == url)
            #expect(failure.description == url + ": " + failure.message)
            #expect(
                failure.message
                    == "the server's certificate is not trusted (curl error 60: SSL certificate problem: "
                    + "unable to get local issuer certificate)")
            #expect(try server.requests().isEmpty)
        }
    }

    @Test func rejectsACertificateForAnotherHost() throws {
        try withNginx(serving: Scenario.sites) { server in
            // mismatch.example reaches museo.example's server, whose certificate names only museo.example.
            var options = server.fetchOptions()
            options.resolveOverrides.append(
                HTTPResolveOverride(
                    host: "mismatch.example", port: server.port(of: Scenario.origin), address: "127.0.0.1"))
            let url =
                "https://mismatch.example:\(server.port(of: Scenario.origin))/.well-known/apple-app-site-association"
            let failure = try #require(HTTPFetcher(options: options).fetch(url).error)
            #expect(failure.kind == .hostnameMismatch)
            #expect(failure.curlCode == 60)
            #expect(
                failure.message
                    == "the server's certificate is not valid for this host name (curl error 60: SSL: no alternative "
                    + "certificate subject name matches target host name 'mismatch.example')")
        }
    }

    @Test func verificationCannotBeSkipped() throws {
        try withNginx(serving: Scenario.sites) { server in
            let aasa = server.url(Scenario.origin, "/.well-known/apple-app-site-association")
            // The system's trust store does not know the test authority.
            let systemTrust = HTTPFetcher(options: HTTPFetchOptions(resolveOverrides: server.resolveOverrides))
            #expect(systemTrust.fetch(aasa).error?.kind == .untrustedCertificate)

            // A bundle replaces the system's trust: only its authority is trusted.
            let otherBundle = HTTPFetcher(
                options: HTTPFetchOptions(
                    caBundlePath: server.certificates.untrustedAuthority.certificate.path,
                    resolveOverrides: server.resolveOverrides))
            #expect(otherBundle.fetch(aasa).error?.kind == .untrustedCertificate)
            #expect(
                otherBundle.fetch(server.url(Scenario.untrusted, "/.well-known/apple-app-site-association")).value?
                    .status == 200)

            let missingBundle = HTTPFetcher(
                options: HTTPFetchOptions(
                    caBundlePath: server.folder.url.path + "/missing.pem", resolveOverrides: server.resolveOverrides))
            let unreadable = try #require(missingBundle.fetch(aasa).error)
            #expect(unreadable.kind == .unreadableCABundle)
            #expect(unreadable.curlCode == 77)

            // Plain HTTP is refused before anything is sent, and a plain-HTTP server fails the handshake.
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let plainURL = "http://\(Scenario.plaintext):\(server.port(of: Scenario.plaintext))/"
            let plain = try #require(fetcher.fetch(plainURL).error)
            #expect(plain.kind == .invalidURL)
            #expect(plain.curlCode == 1)
            let handshake = try #require(
                fetcher.fetch(server.url(Scenario.plaintext, "/.well-known/apple-app-site-association")).error)
            #expect(handshake.kind == .tlsHandshake)
            #expect(handshake.curlCode == 35)
            // The one GET came from the fetch that trusted the untrusted site's authority. The TLS
            // hello sent to the plain-HTTP site is not HTTP: nginx answers 400 and logs no request
            // line ("- - -"), which is also why libcurl reports a wrong TLS version.
            #expect(
                try server.requests() == ["GET /.well-known/apple-app-site-association linkwright", "- - -"])
        }
    }

    @Test func readsTheCDNsDiagnosticHeaders() throws {
        try withNginx(serving: Scenario.sites) { server in
            let url = server.url(Scenario.cdn, "/a/v1/museo.example")
            let stale = try HTTPFetcher(options: server.fetchOptions()).fetch(url).get()
            #expect(stale.status == 200)
            #expect(stale.body == Array(Scenario.staleAASA.utf8))
            #expect(stale.headers["apple-failure-reason"] == "SWCERR00301 Timeout")
            #expect(stale.headers["Apple-Failure-Details"] == #"{"cause":"context deadline exceeded"}"#)
            #expect(stale.headers["Apple-From"] == "https://museo.example/.well-known/apple-app-site-association")
            #expect(stale.headers["age"] == "86400")
            #expect(stale.headers["Cache-Control"] == "max-age=3600")
            #expect(stale.headers.values(for: "vary") == ["Accept-Encoding", "Origin"])
            #expect(stale.headers["Vary"] == "Accept-Encoding")
        }
    }

    @Test func reportsAServerThatClosesWithoutAnswering() throws {
        try withNginx(serving: Scenario.sites) { server in
            let url = server.url(Scenario.origin, "/closed/apple-app-site-association")
            let failure = try #require(HTTPFetcher(options: server.fetchOptions()).fetch(url).error)
            #expect(failure.kind == .protocolError)
            #expect(failure.curlCode == 52)
            #expect(failure.message == "the server's reply is not valid HTTP (curl error 52: Empty reply from server)")
        }
    }

    @Test func reportsAHostThatDoesNotResolve() throws {
        // A 64-character label is not a valid DNS name: the resolver fails without asking the network.
        let host = String(repeating: "a", count: 64) + ".example"
        let failure = try #require(HTTPFetcher().fetch("https://\(host)/.well-known/apple-app-site-association").error)
        #expect(failure.kind == .dnsFailure)
        #expect(failure.curlCode == 6)
        #expect(failure.message == "the host name does not resolve (curl error 6: Could not resolve host: \(host))")
    }

    @Test func fetchAllReturnsResultsInInputOrder() throws {
        try withNginx(serving: Scenario.sites) { server in
            let origin = { (path: String) in server.url(Scenario.origin, path) }
            // The first fetch takes a second; the others finish long before it.
            let urls = [
                origin("/paced/apple-app-site-association"),
                origin("/.well-known/apple-app-site-association"),
                origin("/.well-known/missing"),
                server.url(Scenario.untrusted, "/.well-known/apple-app-site-association"),
                origin("/moved/apple-app-site-association"),
                origin("/.well-known/assetlinks.json"),
                origin("/closed/apple-app-site-association"),
                origin("/oversize/apple-app-site-association"),
            ]
            let results = HTTPFetcher(options: server.fetchOptions()).fetchAll(urls)

            #expect(results.map { $0.value?.url ?? $0.error?.url } == urls)
            #expect(results.map { $0.value?.status } == [200, 200, 404, nil, 301, 200, nil, 200])
            #expect(
                results.map { $0.error?.kind } == [nil, nil, nil, .untrustedCertificate, nil, nil, .protocolError, nil])
            #expect(results[0].value?.body == Scenario.paced)
            // One host is asked one thing at a time, in input order, though the first takes a
            // second (the untrusted host's handshake fails, so nginx logs nothing for it).
            let prefix = server.url(Scenario.origin, "").count
            // libcurl asks once more, on a new connection, when a reused one closes without an
            // answer: the server may have closed it as idle just before the request.
            let expected = urls.enumerated().flatMap { index, url in
                Array(repeating: "GET \(url.dropFirst(prefix)) linkwright", count: index == 3 ? 0 : index == 6 ? 2 : 1)
            }
            let requests = try server.requests()
            #expect(requests == expected)
        }
    }

    @Test func fetchAllOpensAtMostTheCapOfConnectionsAtOnce() throws {
        let site = TestSite(
            ["*.fleet.test"], routes: [.file("/paced", Scenario.paced, contentType: "text/plain", bytesPerSecond: 1000)]
        )
        try withNginx(serving: [site]) { server in
            let urls = (1...8).map { "https://host\($0).fleet.test/paced" }
            var options = server.fetchOptions()
            options.connectTo = [server.connectEverythingTo("*.fleet.test")]
            options.maximumConnections = 4
            let start = ContinuousClock.now
            let results = HTTPFetcher(options: options).fetchAll(urls)
            let elapsed = ContinuousClock.now - start
            #expect(results.allSatisfy { $0.value?.body == Scenario.paced })
            // Each fetch takes a second: 8 hosts 4 at a time take two, all at once one, one by one eight.
            #expect(elapsed >= .milliseconds(1_950))
            #expect(elapsed < .milliseconds(3_900))
        }
    }

    /// Politeness: each host gets one connection, which carries all of its requests, and hosts do
    /// not wait for one another.
    @Test func fetchAllUsesOneConnectionPerHost() throws {
        let site = TestSite(
            ["*.fleet.test"],
            routes: [
                .file("/.well-known/apple-app-site-association", Scenario.aasa, contentType: "application/json"),
                .file("/.well-known/assetlinks.json", Scenario.assetLinks, contentType: "application/json"),
            ])
        try withNginx(serving: [site]) { server in
            let hosts = (1...12).map { "host\($0).fleet.test" }
            let urls = hosts.flatMap { host in
                ["apple-app-site-association", "assetlinks.json", "apple-app-site-association"].map {
                    "https://\(host)/.well-known/\($0)"
                }
            }
            var options = server.fetchOptions()
            options.connectTo = [server.connectEverythingTo("*.fleet.test")]
            options.maximumConnections = 5
            let results = HTTPFetcher(options: options).fetchAll(urls)
            #expect(results.map { $0.value?.status } == Array(repeating: 200, count: urls.count))
            let requests = try server.requestsByConnection()
            #expect(requests.count == urls.count)
            let connectionsByHost = Dictionary(grouping: requests, by: \.host).mapValues { Set($0.map(\.connection)) }
            #expect(Set(connectionsByHost.keys) == Set(hosts))
            // In the order nginx served them, so that a failure shows when a second connection opened.
            let served = requests.map { "\($0.host) #\($0.connection)" }
            #expect(connectionsByHost.values.allSatisfy { $0.count == 1 }, "\(served)")
            // Each host its own connection: no connection carried two hosts.
            #expect(Set(connectionsByHost.values.flatMap { $0 }).count == hosts.count)
        }
    }

    /// A busy host (429 or 503 with Retry-After) is asked again after the wait it names.
    @Test func fetchAllAsksAgainAfterRetryAfter() throws {
        // nginx's limit_req answers 503 to a second request within 500 ms of the first.
        let site = TestSite(
            ["busy.example"],
            directives: """
                location /.well-known/ {
                    limit_req zone=busy nodelay;
                    add_header Retry-After 1 always;
                    types { }
                    default_type application/json;
                }
                """,
            documents: [
                "/.well-known/apple-app-site-association": Array(Scenario.aasa.utf8),
                "/.well-known/assetlinks.json": Array(Scenario.assetLinks.utf8),
            ])
        try withNginx(serving: [site], httpDirectives: "limit_req_zone $server_name zone=busy:1m rate=2r/s;") {
            server in
            let urls = [
                server.url("busy.example", "/.well-known/apple-app-site-association"),
                server.url("busy.example", "/.well-known/assetlinks.json"),
            ]
            let start = ContinuousClock.now
            let results = HTTPFetcher(options: server.fetchOptions()).fetchAll(urls)
            let elapsed = ContinuousClock.now - start
            #expect(results.map { $0.value?.status } == [200, 200])
            #expect(results[1].value?.body == Array(Scenario.assetLinks.utf8))
            let requests = try server.requests()
            #expect(
                requests == [
                    "GET /.well-known/apple-app-site-association linkwright",
                    "GET /.well-known/assetlinks.json linkwright", "GET /.well-known/assetlinks.json linkwright",
                ])
            #expect(elapsed >= .seconds(1))
            #expect(elapsed < .seconds(3))

            // Retrying off: the 503 is the answer (after a pause that lets the first request through).
            usleep(600_000)
            var once = server.fetchOptions()
            once.retryPolicy.maximumRetries = 0
            let refused = HTTPFetcher(options: once).fetchAll(urls)
            #expect(refused.map { $0.value?.status } == [200, 503])
            #expect(refused[1].value?.headers["Retry-After"] == "1")
        }
    }

    /// A server that answers 503 with `Retry-After: 30` to every try, trickling each answer, held
    /// one file for minutes (4 tries of 9 s and 3 waits of 30 s). The deadline bounds a file from
    /// its first try: a retry whose wait ends past it is not made, and a try gets only what is
    /// left of it, however slowly the body comes; a host's files can share one deadline.
    @Test func aStallingServerHoldsAFileNoLongerThanItsDeadline() throws {
        let site = TestSite(
            ["stall.example"],
            directives: """
                location = /.well-known/apple-app-site-association {
                    limit_rate 100;
                    add_header Retry-After 30 always;
                    return 503 "\(String(repeating: "busy ", count: 10))";
                }
                location = /.well-known/assetlinks.json {
                    limit_rate 100;
                    add_header Retry-After 1 always;
                    return 503 "\(String(repeating: "busy ", count: 300))";
                }
                """)
        try withNginx(serving: [site]) { server in
            var options = server.fetchOptions(totalTimeout: .seconds(10))
            options.deadline = .seconds(4)
            let fetcher = HTTPFetcher(options: options)
            // About 250 bytes at 100 a second (nginx paces headers too): the answer stands, its
            // 30 s wait is past the deadline.
            var start = ContinuousClock.now
            let refused = fetcher.fetch(server.url("stall.example", "/.well-known/apple-app-site-association"))
            #expect(refused.value?.status == 503, "\(refused)")
            #expect(ContinuousClock.now - start < .seconds(5))
            // 1,700 bytes at 100 a second, a 1 s wait asked each time: the try is cut at the deadline.
            start = ContinuousClock.now
            let trickled = fetcher.fetch(server.url("stall.example", "/.well-known/assetlinks.json"))
            let elapsed = ContinuousClock.now - start
            guard case .failure(let failure) = trickled else {
                Issue.record("the trickled answer was waited for whole: \(trickled)")
                return
            }
            #expect(failure.kind == .timeout, "\(failure)")
            #expect(elapsed >= .seconds(3) && elapsed < .seconds(6), "\(elapsed)")
            // The host's two files sharing one deadline (as verify fetches a host's origin files):
            // the second gets what the first left, so the host takes 4 s, not 2.5 s and then 4.
            let both = [
                server.url("stall.example", "/.well-known/apple-app-site-association"),
                server.url("stall.example", "/.well-known/assetlinks.json"),
            ]
            start = ContinuousClock.now
            var statuses: [Int?] = [nil, nil]
            fetcher.fetchEach(both, deadlineGroups: [0, 0]) { index, result in statuses[index] = result.value?.status }
            let host = ContinuousClock.now - start
            #expect(statuses == [503, nil])
            #expect(host >= .seconds(3) && host < .seconds(5), "\(host)")
        }
    }

    /// Results are handed over as they end, each once: a slow host holds back no other.
    @Test func fetchEachHandsOverEachResultAsItEnds() throws {
        try withNginx(serving: Scenario.sites) { server in
            let urls = [
                server.url(Scenario.origin, "/paced/apple-app-site-association"),
                server.url(Scenario.cdn, "/a/v1/museo.example"),
                server.url(Scenario.untrusted, "/.well-known/apple-app-site-association"),
            ]
            var received: [Int] = []
            HTTPFetcher(options: server.fetchOptions()).fetchEach(urls) { index, result in
                #expect((result.value?.url ?? result.error?.url) == urls[index])
                received.append(index)
            }
            #expect(received.count == 3)
            #expect(Set(received) == [0, 1, 2])
            #expect(received.last == 0)
        }
    }

    @Test func fetchAllOfNothingIsNothing() {
        #expect(HTTPFetcher().fetchAll([]).isEmpty)
    }
}
