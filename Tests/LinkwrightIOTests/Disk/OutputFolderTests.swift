import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore
@testable import LinkwrightIO

/// `build` stages the files of a folder the output does not have yet in that folder's shape and
/// switches the folder with one rename (`BuildJournal.Tree`); these check that the set it leaves
/// is the same as file by file, and that a journal of such folders is completed.
@Suite struct OutputFolderTests {
    private static func artifact(_ path: String, _ text: String) -> Artifact {
        Artifact(path: path, kind: .aasa, environment: String(path.prefix { $0 != "/" }), bytes: Array(text.utf8))
    }

    /// Every regular file below `url` and its text, by relative path, without the manifest.
    private static func files(_ url: URL) -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        while let path = enumerator?.nextObject() as? String {
            let full = url.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full.path, isDirectory: &isFolder), !isFolder.boolValue,
                path != OutputFolder.manifestName
            else { continue }
            found[path] = (try? String(contentsOf: full, encoding: .utf8)) ?? "?"
        }
        return found
    }

    private static func texts(_ artifacts: [Artifact]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: artifacts.map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) })
    }

    private static func write(_ artifacts: [Artifact], to url: URL) throws -> OutputPlan {
        let environments = Set(artifacts.map(\.environment))
        let update = try OutputFolder(url, forWriting: true).update(environments: environments)
        try update.add(artifacts)
        return try update.finish()
    }

    /// A fresh output, a new environment beside an old one, a new host in an environment and a
    /// new file in a host's folder: each ends as written, with nothing staged left behind.
    @Test func filesOfAbsentFoldersArriveAsIfWrittenOneByOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dist = folder.url.appendingPathComponent("dist")
        let first = [
            Self.artifact("production/a.example/.well-known/apple-app-site-association", "a"),
            Self.artifact("production/a.example/.well-known/assetlinks.json", "a2"),
            Self.artifact("production/ios/App.entitlements", "e"),
        ]
        #expect(try Self.write(first, to: dist).created.count == 3)
        #expect(Self.files(dist) == Self.texts(first))
        let second =
            first.map { Self.artifact($0.path, "changed " + $0.path) } + [
                Self.artifact("production/b.example/.well-known/apple-app-site-association", "b"),
                Self.artifact("production/ios/Other.entitlements", "o"),
                Self.artifact("staging/a.example/.well-known/apple-app-site-association", "s"),
            ]
        let plan = try Self.write(second, to: dist)
        #expect(plan.created.count == 3 && plan.changed.count == 3)
        #expect(Self.files(dist) == Self.texts(second))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dist.path).sorted() == [
                OutputFolder.manifestName, "production", "staging",
            ])
        let checking = try OutputFolder(dist, forWriting: false).update(environments: ["production", "staging"])
        try checking.add(second)
        let check = try checking.finish()
        #expect(check.unchanged.count == second.count && check.created.isEmpty && check.changed.isEmpty)
    }

    /// `build` adds a domain's files as soon as the domain is compiled, in whatever order the
    /// domains finish: the plan (what reports list) and the manifest are the same as for the
    /// files added in one batch, environments in the order their first files came.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theOrderOfBatchesDoesNotShow(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = ["production", "staging", "development"].flatMap { environment in
            ["a", "b", "c", "d"].flatMap { host in
                ["apple-app-site-association", "assetlinks.json"].map {
                    Self.artifact("\(environment)/\(host).example/.well-known/\($0)", "\(environment) \(host) \($0)")
                }
            } + [Self.artifact("\(environment)/ios/App.entitlements", environment)]
        }
        func build(_ dist: URL, batches: [[Artifact]]) throws -> (OutputPlan, String) {
            let update = try OutputFolder(dist, forWriting: true).update(environments: Set(files.map(\.environment)))
            for batch in batches { try update.add(batch) }
            let plan = try update.finish()
            return (
                plan, try String(contentsOf: dist.appendingPathComponent(OutputFolder.manifestName), encoding: .utf8)
            )
        }
        // Batches of one host's files, shuffled within each environment; environments in order.
        var random = SplitMix64(seed: seed)
        var batches: [[Artifact]] = []
        for environment in ["production", "staging", "development"] {
            var hosts = Dictionary(grouping: files.filter { $0.environment == environment }) {
                $0.path.split(separator: "/")[1]
            }.values.map { $0 }.sorted { $0[0].path < $1[0].path }
            for index in hosts.indices.reversed() { hosts.swapAt(index, Int(random.next() % UInt64(index + 1))) }
            batches += hosts
        }
        let whole = folder.url.appendingPathComponent("whole")
        let inBatches = folder.url.appendingPathComponent("batches")
        let expected = try build(whole, batches: [files])
        let found = try build(inBatches, batches: batches)
        #expect(found.0 == expected.0)
        #expect(found.0.created == files.map(\.path))
        #expect(found.1 == expected.1)
        // Over a built folder, with one file of each environment changed: the same again.
        let changed = files.enumerated().map { $0.offset % 9 == 0 ? Self.artifact($0.element.path, "new") : $0.element }
        let changedBatches = batches.map { batch in batch.map { file in changed.first { $0.path == file.path }! } }
        let expectedChanges = try build(whole, batches: [changed])
        let foundChanges = try build(inBatches, batches: changedBatches)
        #expect(foundChanges.0 == expectedChanges.0)
        #expect(!foundChanges.0.changed.isEmpty && !foundChanges.0.unchanged.isEmpty)
        #expect(foundChanges.1 == expectedChanges.1)
    }

    /// A build killed while switching staged folders, after which someone made one of the
    /// destination folders: the next build moves what is staged into it entry by entry, keeping
    /// what is there, and takes the other folder in whole.
    @Test func aJournalOfStagedFoldersIsCompletedIntoAFolderMadeSince() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dist = folder.url.appendingPathComponent("dist")
        _ = try folder.write("dist/production/a.example/.well-known/security.txt", "mine\n")
        _ = try folder.write("dist/.linkwright-staging-k/tree-0/a.example/.well-known/assetlinks.json", "a\n")
        _ = try folder.write("dist/.linkwright-staging-k/tree-0/ios/App.entitlements", "e\n")
        _ = try folder.write("dist/.linkwright-staging-k/tree-1/b.example/.well-known/assetlinks.json", "b\n")
        let handle = try FolderHandle(path: dist.path)
        let staging = try #require(try handle.folder(".linkwright-staging-k"))
        try staging.createFile(OutputFolder.stagingOwner, bytes: [])
        try staging.seal(OutputFolder.stagingOwner)
        var journal = BuildJournal(staging: ".linkwright-staging-k")
        journal.trees = [.init(staged: "tree-0", path: "production"), .init(staged: "tree-1", path: "staging")]
        #expect(BuildJournal(decoding: journal.encoded()) == journal)
        try handle.createFile(OutputFolder.journalName, bytes: journal.encoded())
        try handle.seal(OutputFolder.journalName)
        let output = try OutputFolder(dist, forWriting: true)
        #expect(output.completedInterruptedBuild)
        #expect(
            Self.files(dist) == [
                "production/a.example/.well-known/security.txt": "mine\n",
                "production/a.example/.well-known/assetlinks.json": "a\n",
                "production/ios/App.entitlements": "e\n",
                "staging/b.example/.well-known/assetlinks.json": "b\n",
            ])
    }

    /// A build that made the output folder and then failed removes it again; a build that
    /// waited meanwhile for the folder's lock must not write into the removed folder: it opens
    /// the path again, makes the folder anew, and its files arrive.
    @Test func aBuildWaitingOnAFolderAnotherRemovedWritesIntoANewOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dist = folder.url.appendingPathComponent("dist")
        var failing: OutputFolder.Update? = try OutputFolder(dist, forWriting: true).update(environments: ["production"]
        )
        try failing?.add([Self.artifact("production/a.example/.well-known/apple-app-site-association", "a")])
        let waiting = DispatchSemaphore(value: 0)
        let written = LockedValue<Result<OutputPlan, any Error>?>(nil)
        let artifacts = [Self.artifact("production/b.example/.well-known/apple-app-site-association", "b")]
        let thread = Thread {
            let result = Result<OutputPlan, any Error> {
                let update = try OutputFolder(dist, forWriting: true) { waiting.signal() }
                    .update(environments: ["production"])
                try update.add(artifacts)
                return try update.finish()
            }
            written.withLock { $0 = result }
        }
        thread.start()
        #expect(waiting.wait(timeout: .now() + 60) == .success)
        failing?.discard()
        #expect(!FileManager.default.fileExists(atPath: dist.path))
        failing = nil  // releases the lock
        while written.withLock({ $0 == nil }) { usleep(10_000) }
        #expect(try written.withLock { try $0?.get().created.count } == 1)
        #expect(Self.files(dist) == Self.texts(artifacts))
    }
}
