import Foundation
import LinkwrightCLI
import LinkwrightTestSupport

/// GitHub's release downloads and its REST API of pull request comments, as
/// Fixtures/action/fake-github.py serves them on 127.0.0.1: what the action's scripts talk to.
/// The state is files in `folder` (see the script), so a test sets what GitHub holds or answers
/// and reads what the scripts did.
final class FakeGitHub {
    let folder: TemporaryFolder
    let port: Int
    let token = "test-token"
    private let server: Process

    init(comments: [[String: Any]] = []) throws {
        folder = try TemporaryFolder()
        try folder.write("token", token)
        try folder.write("requests.log", "")
        try folder.write(
            "comments.json", String(decoding: try JSONSerialization.data(withJSONObject: comments), as: UTF8.self))
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3",
            RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Fixtures/action/fake-github.py")
                .path,
            folder.url.path,
        ]
        try server.run()
        let deadline = Date().addingTimeInterval(20)
        while !folder.exists("port") {
            guard Date() < deadline, server.isRunning else {
                kill(server.processIdentifier, SIGKILL)
                throw HarnessError("fake-github.py did not start")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        port = Int(try folder.read("port"))!
    }

    deinit {
        // SIGKILL: the server inherits the signal mask of the test's thread, which may block
        // SIGTERM (as NginxTestServer found).
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        folder.remove()
    }

    var apiURL: String { "http://127.0.0.1:\(port)" }
    var downloadURL: String { "http://127.0.0.1:\(port)/releases/download" }

    /// Publishes the built linkwright as the release asset `asset` (`linkwright-VERSION-OS-ARCH`)
    /// of this version, packed as release.sh packs it, with SHA256SUMS listing `checksum` for it
    /// (nil: its real checksum).
    func publish(_ asset: String, checksum: String? = nil) throws {
        let release = folder.url.appendingPathComponent("releases/v\(LinkwrightCLI.version)")
        let staging = folder.url.appendingPathComponent("staging/\(asset)/bin")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RepositoryPaths.products.appendingPathComponent("linkwright"),
            to: staging.appendingPathComponent("linkwright"))
        // macOS has shasum where GNU systems have sha256sum; both print the same line.
        let pack =
            "tar -C ../../staging -czf \(asset).tar.gz \(asset)"
            + " && { sha256sum \(asset).tar.gz 2>/dev/null || shasum -a 256 \(asset).tar.gz; } > SHA256SUMS"
        let tar = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", pack], in: release)
        guard tar.status == 0 else { throw HarnessError("could not pack \(asset): \(tar)") }
        if let checksum {
            try "\(checksum)  \(asset).tar.gz\n".write(
                to: release.appendingPathComponent("SHA256SUMS"), atomically: true, encoding: .utf8)
        }
    }

    /// Every API call answers `status` from now on.
    func answer(_ status: Int) throws {
        try folder.write("answer", String(status))
    }

    /// The pull request's comments as they stand.
    func comments() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try folder.read("comments.json").utf8)) as? [[String: Any]] ?? []
    }

    /// The requests served, `METHOD path` each.
    func requests() throws -> [String] {
        try folder.read("requests.log").split(separator: "\n").map(String.init)
    }
}
