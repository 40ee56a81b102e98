import Foundation
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// The harness itself: nginx stops whatever the test does, and a missing nginx fails loudly.
@Suite struct NginxTestServerTests {
    struct ExpectedFailure: Error {}

    @Test func stopsNginxEvenWhenTheTestThrows() throws {
        var processID: Int32 = 0
        var folder: URL?
        var port = 0
        #expect(throws: ExpectedFailure.self) {
            try withNginx(serving: OriginScenario.sites) { server in
                processID = server.processID
                folder = server.folder.url
                port = server.port(of: OriginScenario.origin)
                #expect(kill(processID, 0) == 0)
                throw ExpectedFailure()
            }
        }
        #expect(processID > 0)
        #expect(kill(processID, 0) == -1 && errno == ESRCH)
        #expect(folder.map { FileManager.default.fileExists(atPath: $0.path) } == false)

        // Nothing listens on its port any more.
        let options = HTTPFetchOptions(
            resolveOverrides: [HTTPResolveOverride(host: OriginScenario.origin, port: port, address: "127.0.0.1")])
        let failure = try #require(
            HTTPFetcher(options: options).fetch("https://\(OriginScenario.origin):\(port)/").error)
        #expect(failure.kind == .connectionRefused)
        #expect(failure.curlCode == 7)
    }

    @Test func tellsHowToInstallAMissingNginx() {
        let error = #expect(throws: HarnessError.self) {
            try NginxTestServer.locateNginx(searchPath: "/nonexistent", extraFolders: [])
        }
        #expect(
            error?.description
                == "nginx is not installed (looked in /nonexistent). The HTTP tests need a real nginx: "
                + "run scripts/install-deps.sh --for-tests, which installs nginx-light and openssl.")
    }

    @Test func findsTheInstalledNginx() throws {
        // Fails, rather than skips, on a machine without nginx: CI must have it.
        let nginx = try NginxTestServer.locateNginx()
        #expect(FileManager.default.isExecutableFile(atPath: nginx))
    }
}
