import Foundation
import LinkwrightTestSupport
import Testing

/// Inputs a pull request from anyone can put in front of CI: every command refuses them with a
/// clear error (exit 2) instead of accepting them or working without bound.
@Suite struct HostileInputTests {
    let aasa = "dist/production/museo.example/.well-known/apple-app-site-association"

    private func linkwright(_ arguments: [String], input: Data? = nil) throws -> ProcessResult {
        try runLinkwright(arguments, in: RepositoryPaths.root, input: input)
    }

    @Test func hostsOnTheCommandLineGetTheConfigurationsChecks() throws {
        let cases: [([String], String)] = [
            (["match", "--aasa", aasa, "--host", "xn--abc.example", "/x"], "label \"xn--abc\" is not a valid"),
            (["verify", "--host", "museo\u{3002}example"], "\"museo\u{3002}example\" separates labels with U+3002"),
            (
                ["import", "--aasa", aasa, "--host", "mu\u{202E}seo.example", "--env", "x", "--dry-run"],
                "label \"mu\\u{202E}seo\" has the invisible or text-reordering character U+202E"
            ),
        ]
        for (arguments, message) in cases {
            let result = try linkwright(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result)")
            #expect(result.stderr.contains("error: --host: \(message)"), "\(arguments[0]): \(result)")
        }
    }

    @Test func matchComparesHostsInTheirASCIIForm() throws {
        for (host, url) in [
            ("müseo.example", "https://xn--mseo-0ra.example/x"), ("xn--mseo-0ra.example", "https://müseo.example/x"),
        ] {
            let result = try linkwright(["match", "--aasa", aasa, "--host", host, url])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func aHugeSparseFileIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sparse = folder.url.appendingPathComponent("apple-app-site-association").path
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        // 3 GB that take no disk: read whole, this took 6.3 GB of memory and 43 s.
        #expect(truncate(sparse, 3 << 30) == 0)
        for command in [["match", "--aasa", sparse, "/x"], ["explain", "--aasa", sparse, "https://museo.example/x"]] {
            let result = try linkwright(command)
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr.hasPrefix(
                    "error: \(sparse) is 3221225472 bytes: too large for an association file, whose limit is 4194304 bytes\n"
                ),
                "\(result)")
        }
    }

    @Test func filesThatAreNotRegularAreRefusedWithoutWaiting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.url.appendingPathComponent("aasa.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened without O_NONBLOCK, a FIFO with no writer would hold this command forever.
        for (path, kind) in [(fifo, "a FIFO"), (folder.url.path, "a folder"), ("/dev/zero", "a character device")] {
            let result = try linkwright([
                "import", "--aasa", path, "--host", "museo.example", "--env", "x", "--dry-run",
            ])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("error: \(path) is \(kind), not a regular file"), "\(result)")
        }
    }

    @Test func anOverlongStandardInputLineIsSkippedWithoutBeingHeld() throws {
        let long = "https://museo.example/" + String(repeating: "x", count: 3 << 20)
        let input = "/tickets/a\n\(long)\n/tickets/b\n"
        let result = try linkwright(
            ["match", "--aasa", aasa, "--app", "A1B2C3D4E5.com.example.museo", "--host", "museo.example"],
            input: Data(input.utf8))
        #expect(result.status == 2)
        #expect(result.stderr == "error: standard input line 2 is longer than 1048576 bytes; it was skipped\n")
        #expect(
            result.stdout.split(separator: "\n").map { $0.split(separator: "\t")[2] } == ["/tickets/a", "/tickets/b"])
    }
}
