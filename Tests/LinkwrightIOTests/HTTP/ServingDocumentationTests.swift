import Foundation
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// docs/serving.md's nginx configuration, served by a real nginx, does what the page says.
@Suite struct ServingDocumentationTests {
    @Test func theDocumentedServerBlockServesBothFilesWithoutRedirects() throws {
        let host = "entradas.museo.example"
        let wellKnown = RepositoryPaths.root.appendingPathComponent("dist/production/\(host)/.well-known")
        let aasa = try [UInt8](Data(contentsOf: wellKnown.appendingPathComponent("apple-app-site-association")))
        let assetLinks = try [UInt8](Data(contentsOf: wellKnown.appendingPathComponent("assetlinks.json")))
        let site = TestSite(
            [host], directives: try documentedServerDirectives(),
            documents: [
                "/.well-known/apple-app-site-association": aasa,
                "/.well-known/assetlinks.json": assetLinks,
            ])

        try withNginx(serving: [site]) { server in
            let fetcher = HTTPFetcher(options: server.fetchOptions())
            let served = try fetcher.fetch(server.url(host, "/.well-known/apple-app-site-association")).get()
            #expect(served.status == 200)
            #expect(served.contentType == "application/json")
            #expect(served.body == aasa)
            let statements = try fetcher.fetch(server.url(host, "/.well-known/assetlinks.json")).get()
            #expect(statements.status == 200)
            #expect(statements.contentType == "application/json")
            #expect(statements.body == assetLinks)

            let page = try fetcher.fetch(server.url(host, "/exhibits/42")).get()
            #expect(page.status == 301)
            #expect(page.redirectLocation == "https://www.museo.example/exhibits/42")
        }
    }

    /// The first nginx block of docs/serving.md without the lines the harness writes itself
    /// (the public port, certificate paths, server name and root).
    private func documentedServerDirectives() throws -> String {
        let page = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/serving.md"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "```nginx"),
            let end = lines[start...].dropFirst().firstIndex(of: "```")
        else { throw HarnessError("docs/serving.md has no nginx block") }
        let block = lines[(start + 1)..<end]
        #expect(block.first == "server {" && block.last == "}", "the block is one server block")
        let ownedByTheHarness = ["listen ", "ssl_certificate", "server_name ", "root "]
        return block.dropFirst().dropLast()
            .filter { line in !ownedByTheHarness.contains { line.trimmingCharacters(in: .whitespaces).hasPrefix($0) } }
            .joined(separator: "\n")
    }
}
