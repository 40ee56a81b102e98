import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// The fetcher's value types, without a server.
@Suite struct HTTPValueTests {
    @Test func parsesCurlResolveSyntax() {
        let override = HTTPResolveOverride("museo.example:443:127.0.0.1")
        #expect(override == HTTPResolveOverride(host: "museo.example", port: 443, address: "127.0.0.1"))
        #expect(override?.description == "museo.example:443:127.0.0.1")
        #expect(HTTPResolveOverride("museo.example:8443:[::1]")?.address == "[::1]")
        #expect(HTTPResolveOverride("museo.example:443:::1")?.address == "::1")
        #expect(HTTPResolveOverride("museo.example:443:127.0.0.1,127.0.0.2")?.port == 443)
    }

    @Test(arguments: [
        "", "museo.example", "museo.example:443", ":443:127.0.0.1", "museo.example::127.0.0.1",
        "museo.example:0:127.0.0.1", "museo.example:65536:127.0.0.1", "museo.example:https:127.0.0.1",
        "museo.example:443:", "museo.example:443:localhost", "museo.example:443:127.0.0.1,",
        "[::1]:443:127.0.0.1",
    ])
    func rejectsMalformedResolveEntries(_ text: String) {
        #expect(HTTPResolveOverride(text) == nil)
    }

    @Test func looksUpHeadersCaseInsensitivelyKeepingEveryValue() {
        let headers = HTTPHeaders([
            .init(name: "Content-Type", value: "application/json"),
            .init(name: "vary", value: "Accept-Encoding"),
            .init(name: "VARY", value: "Origin"),
        ])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["Vary"] == "Accept-Encoding")
        #expect(headers.values(for: "vary") == ["Accept-Encoding", "Origin"])
        #expect(headers["Location"] == nil)
        #expect(headers.values(for: "Location").isEmpty)
    }

}
