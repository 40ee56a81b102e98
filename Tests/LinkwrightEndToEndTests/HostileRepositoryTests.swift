import Foundation
import LinkwrightTestSupport
import Testing

/// The attacks of a hostile pull request on the machine that checks it: links, FIFOs and
/// forged files committed into the configuration must never make linkwright read, print,
/// write or delete anything outside what the command promises.
@Suite struct HostileRepositoryTests {
    /// A secret outside the repository that a committed link points at.
    static let secret = "https://ci-bot:ghp_0123456789abcdefSECRET@github.com"

    /// Runs the binary under `timeout`, so a command that blocks fails the test instead of
    /// hanging the suite.
    private func linkwright(_ arguments: [String], in folder: URL, seconds: Int = 60) throws -> ProcessResult {
        try runProcess(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["\(seconds)", RepositoryPaths.products.appendingPathComponent("linkwright").path] + arguments,
            in: folder)
    }

    @Test func aLinkedConfigurationFileIsReportedWithoutBeingRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let secretFile = try folder.write("outside/credentials", Self.secret + "\n")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("domains/creds.yaml").path,
            withDestinationPath: secretFile.path)
        for arguments in [["lint"], ["lint", "--format", "json"], ["build", "--check"]] {
            let result = try linkwright(arguments, in: folder.url)
            #expect(result.status == 2, "\(arguments) \(result)")
            #expect(!(result.stdout + result.stderr).contains("ghp_"), "\(arguments) \(result)")
            #expect((result.stdout + result.stderr).contains("NOT_A_REGULAR_FILE"), "\(arguments) \(result)")
        }
        let text = try linkwright(["lint"], in: folder.url)
        #expect(
            text.stderr.contains(
                "domains/creds.yaml:1:1: error: domains/creds.yaml is a symbolic link; configuration is read only from regular files inside the configuration folder [NOT_A_REGULAR_FILE]"
            ), "\(text)")
    }

    @Test func aLinkedConfigurationFolderIsReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        _ = try folder.write("elsewhere/passwd.yaml", "root:x:0:0:root:/root:/bin/bash\n")
        let policies = folder.url.appendingPathComponent("policies")
        try FileManager.default.removeItem(at: policies)
        try FileManager.default.createSymbolicLink(
            atPath: policies.path, withDestinationPath: folder.url.appendingPathComponent("elsewhere").path)
        let result = try linkwright(["lint"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("policies is a symbolic link"), "\(result)")
        #expect(!result.stderr.contains("root:x"), "\(result)")
    }

    @Test func aFIFOInTheConfigurationDoesNotBlock() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        #expect(mkfifo(folder.url.appendingPathComponent("domains/pipe.yaml").path, 0o644) == 0)
        let result = try linkwright(["lint"], in: folder.url, seconds: 20)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("domains/pipe.yaml is a FIFO"), "\(result)")
    }

    /// A link committed on a branch is reported the same way by every view of that commit:
    /// the working tree, `check --head`, and `check --against`.
    @Test func aCommittedLinkIsReportedAlikeByEveryView() throws {
        let fixture = try GitFixture()
        let repository = URL(fileURLWithPath: fixture.repository)
        let example = RepositoryPaths.root
        try fixture.shell(
            "cp -R '\(example.path)/environments' '\(example.path)/domains' '\(example.path)/policies' repo/")
        try fixture.commit("example")
        try fixture.git("checkout", "-q", "-b", "feature")
        try (Self.secret + "\n").write(toFile: fixture.folder + "/credentials", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.repository + "/domains/creds.yaml", withDestinationPath: fixture.folder + "/credentials")
        try fixture.commit("a link to a secret")
        for arguments in [
            ["lint"], ["check", "--against", "main"], ["check", "--head", "HEAD"],
            ["check", "--against", "main", "--format", "json"], ["diff", "main", "feature"],
        ] {
            let result = try linkwright(arguments, in: repository)
            #expect(result.status == 2, "\(arguments) \(result)")
            #expect(!(result.stdout + result.stderr).contains("ghp_"), "\(arguments) \(result)")
            #expect(
                (result.stdout + result.stderr).contains("domains/creds.yaml is a symbolic link"),
                "\(arguments) \(result)")
        }
    }
}
