import Foundation
import LinkwrightCLI
import LinkwrightTestSupport
import Testing

/// scripts/action/install.sh, the action's first step, against a local release server: it
/// installs the release binary for the runner only when the release's SHA256SUMS vouches for it.
@Suite struct ActionInstallTests {
    let github: FakeGitHub
    let runner: TemporaryFolder
    let version = LinkwrightCLI.version
    /// The release asset a runner of this machine's architecture downloads.
    let asset: String
    let runnerArch: String

    init() throws {
        github = try FakeGitHub()
        runner = try TemporaryFolder()
        var machine = utsname()
        uname(&machine)
        let architecture = withUnsafeBytes(of: machine.machine) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        runnerArch = architecture == "aarch64" || architecture == "arm64" ? "ARM64" : "X64"
        asset = "linkwright-\(version)-linux-\(runnerArch == "ARM64" ? "aarch64" : "x86_64")"
    }

    /// Runs install.sh as a runner runs the action's step.
    private func install(path: String? = nil) throws -> ProcessResult {
        try runner.write("output", "")
        try runner.write("path", "")
        var environment = [
            "GITHUB_ACTION_PATH": RepositoryPaths.root.path, "RUNNER_OS": "Linux", "RUNNER_ARCH": runnerArch,
            "RUNNER_TEMP": runner.url.path, "GITHUB_OUTPUT": runner.url.appendingPathComponent("output").path,
            "GITHUB_PATH": runner.url.appendingPathComponent("path").path, "VERSION": "",
            "DOWNLOAD_URL": github.downloadURL,
        ]
        if let path { environment["PATH"] = path }
        return try runProcess(
            URL(fileURLWithPath: "/bin/bash"),
            [RepositoryPaths.root.appendingPathComponent("scripts/action/install.sh").path],
            environment: environment)
    }

    @Test func itInstallsTheReleaseBinaryOfThePinnedVersionOnceItsChecksumMatches() throws {
        try github.publish(asset)
        let result = try install()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("linkwright \(version)"), "\(result)")
        let output = try runner.read("output")
        let binary = try #require(
            output.split(separator: "\n").first { $0.hasPrefix("linkwright=") }.map { String($0.dropFirst(11)) })
        #expect(binary == runner.url.path + "/linkwright-\(version)/\(asset)/bin/linkwright")
        #expect(try runner.read("path") == runner.url.path + "/linkwright-\(version)/\(asset)/bin\n")
        let ran = try runProcess(URL(fileURLWithPath: binary), ["--version"])
        #expect(ran.stdout == "linkwright \(version)\n", "\(ran)")
        #expect(
            try github.requests() == [
                "GET /releases/download/v\(version)/\(asset).tar.gz", "GET /releases/download/v\(version)/SHA256SUMS",
            ])
    }

    @Test func aBinaryWhoseChecksumDiffersFromTheReleasesIsRefused() throws {
        try github.publish(asset, checksum: String(repeating: "0", count: 64))
        let result = try install()
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("::error title=linkwright::\(asset).tar.gz has SHA-256 "), "\(result)")
        #expect(result.stdout.contains("refusing to run it"), "\(result)")
        #expect(try runner.read("output").isEmpty)
        #expect(try runner.read("path").isEmpty)
        #expect(!runner.exists("linkwright-\(version)"))
    }

    @Test func aReleaseWhoseSumsListNoChecksumForTheBinaryIsRefused() throws {
        try github.publish(asset, checksum: String(repeating: "0", count: 64))
        try "\(String(repeating: "1", count: 64))  linkwright-\(version)-other.tar.gz\n".write(
            to: github.folder.url.appendingPathComponent("releases/v\(version)/SHA256SUMS"), atomically: true,
            encoding: .utf8)
        let result = try install()
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("lists no checksum for \(asset).tar.gz"), "\(result)")
        #expect(try runner.read("path").isEmpty)
    }

    /// No release to download and no toolchain to build one: the step says both, and fails.
    /// (Swift is not in /usr/bin or /bin on Linux toolchains; on macOS /usr/bin/swift exists.)
    @Test(
        .enabled(
            if: !FileManager.default.isExecutableFile(atPath: "/usr/bin/swift"),
            "/usr/bin/swift exists here, so the toolchain cannot be hidden"))
    func withoutAReleaseOrAToolchainTheStepSaysWhatToDo() throws {
        let result = try install(path: "/usr/bin:/bin")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("could not download \(asset).tar.gz and SHA256SUMS"), "\(result)")
        #expect(result.stdout.contains("there is no Swift toolchain on this runner"), "\(result)")
        #expect(try runner.read("path").isEmpty)
    }
}
