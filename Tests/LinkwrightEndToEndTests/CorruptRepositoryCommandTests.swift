import Foundation
import LinkwrightTestSupport
import Testing

/// The built binary on a repository with a truncated loose object, which made libgit2 1.5.1
/// spin forever (issue 14): it must stop within seconds, with exit 2, the object and a hint.
@Suite struct CorruptRepositoryCommandTests {
    let fixture: GitFixture

    /// The example configuration committed, then one of its domains edited and committed again;
    /// every object stays loose.
    init() throws {
        fixture = try GitFixture()
        for folder in ["environments", "domains", "policies"] {
            try FileManager.default.copyItem(
                at: RepositoryPaths.root.appendingPathComponent(folder),
                to: URL(fileURLWithPath: fixture.repository + "/" + folder))
        }
        try fixture.commit("The example configuration")
        let museo = try String(contentsOfFile: fixture.repository + "/domains/museo.yaml", encoding: .utf8)
        try fixture.commit("Touch museo", ["domains/museo.yaml": museo + "# reviewed\n"])
    }

    /// Long enough for a loaded CI machine, short enough that a regression fails instead of
    /// hanging the run; the guarantee itself is checked against 10 seconds below.
    static let timeout: TimeInterval = 30

    func linkwright(_ arguments: [String]) throws -> (result: ProcessResult, seconds: TimeInterval) {
        let start = Date()
        let result = try runLinkwright(
            arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"],
            timeout: Self.timeout)
        return (result, Date().timeIntervalSince(start))
    }

    static let hint =
        "  hint: the repository has a corrupt object: restore it from another clone, or clone again; run: git fsck\n"
    static let truncated = "the file is truncated (its compressed data ends early)"

    @Test(arguments: ["HEAD~1:domains/museo.yaml", "HEAD~1:domains", "HEAD~1"])
    func checkStopsAtOnceNamingTheObject(_ revision: String) throws {
        let id = try fixture.git("rev-parse", revision)
        let commit = try fixture.git("rev-parse", "--short", "HEAD~1")
        try fixture.truncateLooseObject(id)

        let (result, seconds) = try linkwright(["check", "--against", "HEAD~1"])

        #expect(!result.timedOut, "\(result)")
        #expect(seconds < 10, "took \(seconds) s")
        #expect(result.status == 2, "\(result)")
        let operation =
            switch revision {
            case "HEAD~1:domains/museo.yaml": "reading domains/museo.yaml at \(commit)"
            case "HEAD~1:domains": "reading tree \(id)"
            default: "resolving HEAD~1"
            }
        #expect(
            result.stderr == "error: git object \(id) is corrupt, found while \(operation): \(Self.truncated)\n"
                + Self.hint)
        #expect(result.stdout.isEmpty)
    }

    @Test func diffAndChangelogStopToo() throws {
        let blob = try fixture.git("rev-parse", "HEAD~1:domains/museo.yaml")
        try fixture.truncateLooseObject(blob)

        for arguments in [["diff", "HEAD~1", "HEAD"], ["changelog", "HEAD~1..HEAD"]] {
            let (result, _) = try linkwright(arguments)
            #expect(!result.timedOut, "\(arguments): \(result)")
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(
                result.stderr.hasPrefix("error: git object \(blob) is corrupt, found while reading domains/museo.yaml"))
            #expect(result.stderr.hasSuffix(Self.hint))
        }
    }

    /// No false alarm: the same history, healthy, loose and then packed.
    @Test func aHealthyRepositoryChecksAsBefore() throws {
        let loose = try linkwright(["check", "--against", "HEAD~1"]).result
        #expect(loose.status == 0, "\(loose)")
        try fixture.git("gc", "-q")
        let packed = try linkwright(["check", "--against", "HEAD~1"]).result
        #expect(packed.status == 0, "\(packed)")
        #expect(packed.stdout == loose.stdout)
    }

    /// The pack's index with fan-out entry `entry` raised to 0x7fffffff (git refuses it).
    private func raiseFanOut(_ entry: Int) throws -> String {
        try fixture.git("gc", "-q")
        let folder = fixture.repository + "/.git/objects/pack"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".idx") })
        let path = folder + "/" + name
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.replaceSubrange((8 + 4 * entry)..<(12 + 4 * entry), with: [0x7F, 0xFF, 0xFF, 0xFF])
        chmod(path, 0o644)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A last fan-out entry raised made libgit2 1.5 read past the index: SIGSEGV (exit 139). A
    /// middle one made objects vanish ("object not found"). Both are refused before libgit2
    /// reads the index: exit 2 naming the file and what is wrong with it.
    @Test(arguments: [(255, "its fan-out table counts 2147483647 objects"), (100, "fan-out entry 101 (")])
    func aCorruptPackIndexIsRefusedBeforeLibgit2ReadsIt(_ entry: Int, _ reason: String) throws {
        let path = try raiseFanOut(entry)
        for arguments in [["check", "--against", "HEAD~1"], ["diff", "HEAD~1", "HEAD"]] {
            let (result, _) = try linkwright(arguments)
            #expect(!result.timedOut, "\(arguments): \(result)")
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(
                result.stderr.hasPrefix("error: git pack file \(path) is corrupt: \(reason)"), "\(arguments): \(result)"
            )
            #expect(result.stderr.contains("run: git fsck"), "\(arguments): \(result)")
        }
    }

    /// A loose blob of 200 MiB compresses to 200 KB: its size is read from its first bytes and it
    /// is refused as too large without being inflated (it was inflated whole first: 446 MB).
    @Test func aHugeLooseBlobIsRefusedFromItsHeader() throws {
        try fixture.shell("head -c 209715200 /dev/zero > repo/domains/huge.yaml")
        try fixture.commit("a huge file")
        let binary = RepositoryPaths.products.appendingPathComponent("linkwright").path
        let measure = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
            print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            print(done.stderr, file=sys.stderr)
            """
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", measure, binary, "check", "--head", "HEAD"], in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"],
            timeout: Self.timeout)
        let fields = result.stdout.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(fields.first == 2, "\(result)")
        #expect(
            result.stderr.contains("domains/huge.yaml:1:1: error: file is over the limit of 1048576 bytes"), "\(result)"
        )
        let kilobytes = try #require(fields.last ?? nil)
        #expect(kilobytes < 150_000, "peak memory \(kilobytes) KB: the blob was inflated")
    }
}
