import Foundation
import LinkwrightCore

/// The output folder of `build`, written as one transaction.
///
/// - A build holds an exclusive lock on the folder (`flock` on the folder itself), a check a
///   shared one, so two builds never interleave and a check never reads a build half done.
/// - New bytes are first written into a fresh staging folder inside the output folder; then a
///   journal listing every move and removal is put in place atomically, and only then are the
///   staged files renamed over their destinations. A build killed before the journal exists
///   changed nothing (its staging folder is removed by the next build); one killed after it is
///   completed by the next build before it does anything else, and `build --check` fails until
///   then. The folder therefore holds the old set, the new set, or a journal that turns it into
///   the new set.
/// - Every path is walked without following links (`FolderHandle`): a link inside the folder is
///   an error, never a way out of it.
/// - The manifest records each file's SHA-256. A file the build no longer produces is removed
///   only when the manifest lists it and its bytes are still the ones recorded; anything else
///   is left in place and reported.
/// - The folder trusts nothing it did not write itself: the journal, the manifest and each
///   staging folder's `owner` file are sealed (`FolderHandle.seal`) when a build writes them.
///   A journal or staging folder without the seal, such as one committed to the repository,
///   stops the build naming it; a manifest without it removes nothing.
public final class OutputFolder {
    public static let manifestName = ".linkwright-manifest"
    static let journalName = ".linkwright-journal"
    static let stagingPrefix = ".linkwright-staging-"
    static let temporarySuffix = ".linkwright-tmp"
    /// The sealed file a build creates first in its staging folder, so a staging folder left by
    /// a build killed before its journal can be told from one a repository carries.
    static let stagingOwner = "owner"
    static let foreignReason =
        "was not written by a build on this machine (a repository can carry one), so linkwright does not act on it"
    /// Files in the folder are linkwright's own small artifacts; a bigger one is not ours.
    static let readLimit = 16 << 20

    /// How the folder differs from a set of artifacts.
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        /// False once the journal is in place: the build must be run again to complete.
        public var changedNothing: Bool
        public var description: String { "\(path): \(reason)" }
    }

    /// The path as given, for messages.
    public let path: String
    /// Nil only when checking a folder that does not exist.
    private let handle: FolderHandle?
    /// Whether opening for writing completed a build that had been interrupted.
    public private(set) var completedInterruptedBuild = false

    /// Opens the folder at `url` and locks it: exclusively to write (creating the folder when it
    /// does not exist), shared to check. `whileWaiting` runs once if another build holds the
    /// lock, before waiting for it. Opening to write first completes or discards what an
    /// interrupted build left.
    public init(_ url: URL, forWriting: Bool, whileWaiting: () -> Void = {}) throws {
        path = url.path
        var status = stat()
        if lstat(path, &status) == 0 {
            let kind = FolderHandle.Kind(mode: status.st_mode)
            guard kind == .folder else {
                throw WriteError(
                    path: path, reason: "is \(kind.description), not a folder; give a folder with --out",
                    changedNothing: true)
            }
        } else if forWriting {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw WriteError(path: path, reason: "cannot create the folder", changedNothing: true)
            }
        } else {
            handle = nil
            return
        }
        let folderPath = path
        let handle = try Self.attempt { try FolderHandle(path: folderPath) }
        if try !Self.attempt({ try handle.lock(exclusive: forWriting, wait: false) }) {
            whileWaiting()
            _ = try Self.attempt { try handle.lock(exclusive: forWriting, wait: true) }
        }
        self.handle = handle
        if forWriting { try recover() }
    }

    /// Compares `artifacts` with the folder. `environments` limits which earlier files count as
    /// stale (a build of `--env staging` leaves production's files alone).
    public func plan(_ artifacts: [Artifact], environments: Set<String>) throws -> OutputPlan {
        var plan = OutputPlan()
        guard let handle else {
            plan.created = artifacts.map(\.path)
            return plan
        }
        // Each folder is opened once, for its artifacts and for the temporary files a killed
        // earlier version left beside them, then released (thousands of hosts are thousands of
        // folders, more than a process may hold open).
        var byFolder: [String: [(name: String, artifact: Artifact)]] = [:]
        for artifact in artifacts {
            let (folder, name) = try Self.split(artifact.path)
            byFolder[folder, default: []].append((name, artifact))
        }
        // Compared as each is read (`FolderHandle.holds`), so no file is held whole.
        var unchanged: [String: Bool] = [:]
        for (name, ours) in try Self.attempt({ try transactionState() }) {
            if ours {
                plan.leftovers.append(name)
            } else {
                plan.foreign.append(OutputPlan.KeptFile(path: name, reason: Self.foreignReason))
            }
        }
        for (folder, files) in byFolder.sorted(by: { $0.key < $1.key }) {
            guard let opened = try Self.attempt({ try handle.folder(at: folder) }) else { continue }
            for (name, artifact) in files {
                unchanged[artifact.path] = try Self.attempt { try opened.holds(name, bytes: artifact.bytes) }
            }
            for entry in try Self.attempt({ try opened.entries() })
            where entry.name.hasPrefix(".") && entry.name.hasSuffix(Self.temporarySuffix)
                && (entry.kind == .file || entry.kind == .symbolicLink)
            {
                plan.leftovers.append(folder.isEmpty ? entry.name : folder + "/" + entry.name)
            }
        }
        for artifact in artifacts {
            switch unchanged[artifact.path] {
            case nil: plan.created.append(artifact.path)
            case true?: plan.unchanged.append(artifact.path)
            case false?: plan.changed.append(artifact.path)
            }
        }
        let produced = Set(artifacts.map(\.path))
        let (entries, sealed) = try manifest()
        for entry in entries where !produced.contains(entry.path) && environments.contains(entry.environment) {
            switch try removability(of: entry, listedBySealedManifest: sealed) {
            case .gone: break
            case .removable: plan.stale.append(entry.path)
            case .kept(let reason): plan.kept.append(OutputPlan.KeptFile(path: entry.path, reason: reason))
            }
        }
        return plan
    }

    /// Writes the plan as one transaction (see the type's documentation) and records the
    /// manifest.
    public func apply(_ plan: OutputPlan, artifacts: [Artifact], environments: Set<String>) throws {
        guard let handle else { return }
        let byPath = Dictionary(artifacts.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        if let untrusted = plan.foreign.first {
            throw foreign(untrusted.path)
        }
        for leftover in plan.leftovers {
            let (folder, name) = try Self.split(leftover)
            try Self.attempt { try handle.folder(at: folder)?.removeTree(name) }
        }
        let stagingName = Self.stagingPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        var journal = BuildJournal(staging: stagingName)
        // Hashed on another core while the files are written: the journal and the manifest
        // need the digests only once every file is staged.
        let digests = ArtifactHashes(artifacts)
        do {
            guard let staging = try handle.folder(stagingName, create: true) else {
                throw FolderHandle.Failure(path: path, reason: "cannot create the staging folder")
            }
            try staging.createFile(Self.stagingOwner, bytes: [], flush: false)
            try staging.seal(Self.stagingOwner)
            // A file under a folder the output does not have yet is staged in that folder's
            // shape, and the folder moves in with one rename: a fresh `dist/` is switched with a
            // rename per environment, not one per file into folders made a second time.
            var absent = AbsentFolders(handle)
            var trees: [String: String] = [:]
            var stagedFolders = FolderCursor(staging)
            for (index, path) in (plan.created + plan.changed).enumerated() {
                let bytes = byPath[path]!.bytes
                let (folder, name) = try Self.split(path)
                guard index < plan.created.count, let (tree, inside) = try absent.outermost(along: folder) else {
                    try staging.createFile(String(index), bytes: bytes, flush: false)
                    journal.moves.append(.init(staged: String(index), path: path, hash: ""))
                    continue
                }
                let staged: String
                if let known = trees[tree] {
                    staged = known
                } else {
                    staged = "tree-\(journal.trees.count)"
                    trees[tree] = staged
                    journal.trees.append(.init(staged: staged, path: tree))
                }
                let within = inside.isEmpty ? staged : staged + "/" + inside
                guard let destination = try stagedFolders.open(within, create: true) else {
                    throw FolderHandle.Failure(path: staging.path + "/" + within, reason: "cannot create the folder")
                }
                try destination.createFile(name, bytes: bytes, flush: false)
            }
            for move in journal.moves.indices {
                journal.moves[move].hash = digests.hex(byPath[journal.moves[move].path]!.bytes)
            }
            let (recorded, sealed) = try manifest()
            let hashes = Dictionary(recorded.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
            journal.removals = plan.stale.compactMap { path in
                hashes[path].flatMap { $0 }.map { BuildJournal.Removal(path: path, hash: $0) }
            }
            // Another environment's lines are carried over; from a manifest no build here wrote,
            // without their hashes, so that sealing the new one cannot make them removable.
            let entries =
                recorded.filter { !environments.contains($0.environment) }
                .map { sealed ? $0 : ManifestEntry(path: $0.path, hash: nil) }
                + artifacts.map { ManifestEntry(path: $0.path, hash: digests.hex($0.bytes)) }
            let manifestBytes = Self.manifestText(entries)
            let unchangedManifest = try sealed && handle.holds(Self.manifestName, bytes: manifestBytes) == true
            if journal.moves.isEmpty && journal.removals.isEmpty && unchangedManifest {
                try handle.removeTree(stagingName)
                return
            }
            try staging.createFile("manifest", bytes: manifestBytes, flush: false)
            try staging.seal("manifest")
            journal.moves.append(.init(staged: "manifest", path: Self.manifestName, hash: SHA256.hex(manifestBytes)))
            // One flush for every staged file (an fsync each costs seconds for thousands of
            // hosts): the journal must never name a file whose bytes are not yet on disk.
            systemSync()
            // Written in the staging folder and renamed into place: a build killed between the
            // two leaves nothing beside the artifacts but the staging folder, which the next
            // build removes (a temporary journal beside them outlived such a build).
            try staging.createFile("journal", bytes: journal.encoded())
            try staging.seal("journal")
            try staging.rename("journal", to: Self.journalName, in: handle)
            handle.sync()
        } catch let failure as FolderHandle.Failure {
            try? handle.removeTree(stagingName)
            throw WriteError(path: failure.path, reason: failure.reason, changedNothing: true)
        }
        try complete(journal)
    }

    // MARK: - The journal

    /// Completes a build that was killed after its journal was written, and removes the staging
    /// folders of builds killed before.
    private func recover() throws {
        guard let handle else { return }
        let state = try Self.attempt { try transactionState() }
        if let untrusted = state.first(where: { !$0.ours }) {
            throw foreign(untrusted.name)
        }
        if let bytes = try Self.attempt({ try handle.read(Self.journalName, limit: Self.readLimit) }) {
            guard let journal = BuildJournal(decoding: bytes) else {
                throw WriteError(
                    path: path + "/" + Self.journalName,
                    reason: "is not a journal linkwright can complete; remove it and any \(Self.stagingPrefix)* folder",
                    changedNothing: true)
            }
            try complete(journal)
            completedInterruptedBuild = true
        }
        for entry in try Self.attempt({ try handle.entries() }) where entry.name.hasPrefix(Self.stagingPrefix) {
            try Self.attempt { try handle.removeTree(entry.name) }
        }
    }

    /// The journal and staging folders in the folder, each with whether a build on this machine
    /// wrote it: a sealed journal; a staging folder that holds a sealed `owner`, or nothing but
    /// an empty `owner` (a build killed before sealing it; removing that loses nothing).
    private func transactionState() throws -> [(name: String, ours: Bool)] {
        guard let handle else { return [] }
        return try handle.entries().compactMap { entry in
            if entry.name == Self.journalName { return (entry.name, try handle.isSealed(entry.name)) }
            guard entry.name.hasPrefix(Self.stagingPrefix) else { return nil }
            guard entry.kind == .folder, let staging = try handle.folder(entry.name) else { return (entry.name, false) }
            let names = try staging.entries().map(\.name)
            let emptyOwner = try staging.holds(Self.stagingOwner, bytes: []) ?? true
            if names.allSatisfy({ $0 == Self.stagingOwner }) && emptyOwner { return (entry.name, true) }
            return (entry.name, try staging.isSealed(Self.stagingOwner))
        }
    }

    private func foreign(_ name: String) -> WriteError {
        WriteError(
            path: path + "/" + name, reason: Self.foreignReason + "; look at it, remove it, and run the build again",
            changedNothing: true)
    }

    /// Carries out a journal's moves and removals; every step can be repeated, so a run that
    /// stops halfway is completed by the next.
    private func complete(_ journal: BuildJournal) throws {
        guard let handle else { return }
        do {
            let staging = try handle.folder(journal.staging)
            var destinations = FolderCursor(handle)
            for tree in journal.trees {
                let (folder, name) = try Self.split(tree.path)
                guard let staging, try staging.kind(of: tree.staged) == .folder,
                    let destination = try destinations.open(folder, create: true)
                else { continue }
                try Self.moveTree(tree.staged, from: staging, to: name, in: destination)
            }
            for move in journal.moves {
                let (folder, name) = try Self.split(move.path)
                guard let staging, try staging.kind(of: move.staged) == .file,
                    let destination = try destinations.open(folder, create: true)
                else { continue }
                try staging.rename(move.staged, to: name, in: destination)
            }
            for removal in journal.removals {
                let (folder, name) = try Self.split(removal.path)
                guard let parent = try handle.folder(at: folder), try parent.kind(of: name) == .file,
                    let bytes = try parent.read(name, limit: Self.readLimit), SHA256.hex(bytes) == removal.hash
                else { continue }
                try parent.removeFile(name)
                try removeEmptyFolders(along: folder)
            }
            try handle.removeFile(Self.journalName)
            handle.sync()
            try handle.removeTree(journal.staging)
        } catch let failure as FolderHandle.Failure {
            throw Self.interrupted(path: failure.path, reason: failure.reason)
        } catch let error as WriteError {
            throw Self.interrupted(path: error.path, reason: error.reason)
        }
    }

    /// Moves the staged folder `name` to `destinationName` in `destination`: with one rename
    /// when nothing is there, entry by entry into a folder that is (one made since the plan, or
    /// by a completion cut short), so a journal is completed whatever the moves before it did.
    private static func moveTree(
        _ name: String, from source: FolderHandle, to destinationName: String, in destination: FolderHandle
    ) throws {
        switch try destination.kind(of: destinationName) {
        case nil:
            try source.rename(name, to: destinationName, in: destination)
        case .folder?:
            guard let inner = try source.folder(name), let target = try destination.folder(destinationName) else {
                return
            }
            for entry in try inner.entries() {
                if entry.kind == .folder {
                    try moveTree(entry.name, from: inner, to: entry.name, in: target)
                } else {
                    try inner.rename(entry.name, to: entry.name, in: target)
                }
            }
        case let kind?:
            throw FolderHandle.Failure(
                path: destination.path + "/" + destinationName, reason: "is \(kind.description), not a folder")
        }
    }

    private static func interrupted(path: String, reason: String) -> WriteError {
        WriteError(
            path: path,
            reason: reason + "; the build stopped while switching files: run `linkwright build` again to complete it",
            changedNothing: false)
    }

    private func removeEmptyFolders(along folder: String) throws {
        guard let handle else { return }
        var parts = folder.split(separator: "/").map(String.init)
        while let last = parts.last {
            parts.removeLast()
            guard let parent = try handle.folder(at: parts.joined(separator: "/")), parent.removeFolderIfEmpty(last)
            else { return }
        }
    }

    // MARK: - Manifest

    struct ManifestEntry {
        var path: String
        /// Nil for lines written by versions of linkwright that recorded no hash.
        var hash: String?
        var environment: String { String(path.prefix { $0 != "/" }) }
    }

    /// The manifest's entries, and whether a build on this machine wrote it (sealed): only then
    /// may an entry remove a file.
    private func manifest() throws -> (entries: [ManifestEntry], sealed: Bool) {
        guard let handle, let bytes = try Self.attempt({ try handle.read(Self.manifestName, limit: Self.readLimit) })
        else { return ([], true) }
        let sealed = try Self.attempt { try handle.isSealed(Self.manifestName) }
        let entries: [ManifestEntry] = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap {
            line in
            guard !line.hasPrefix("#"), !line.isEmpty else { return nil }
            // `sha256sum` form: 64 hex digits, two spaces, the path.
            let hash = line.prefix(64)
            if line.count > 66, hash.allSatisfy(\.isHexDigit), line.dropFirst(64).hasPrefix("  ") {
                return ManifestEntry(path: String(line.dropFirst(66)), hash: String(hash))
            }
            return ManifestEntry(path: String(line), hash: nil)
        }
        return (entries, sealed)
    }

    static func manifestText(_ entries: [ManifestEntry]) -> [UInt8] {
        let lines = entries.sorted { $0.path < $1.path }.map { ($0.hash.map { $0 + "  " } ?? "") + $0.path + "\n" }
        return Array(
            ("# Files written by `linkwright build` and their SHA-256 (`sha256sum -c` from this folder checks them).\n"
                + "# A build removes a file it no longer produces only while its content is still as recorded.\n"
                + lines.joined()).utf8)
    }

    /// What may happen to a file the manifest lists and the build no longer produces.
    private enum Removability {
        case gone, removable
        /// Left in place; the reason completes "it …".
        case kept(String)
    }

    private func removability(of entry: ManifestEntry, listedBySealedManifest sealed: Bool) throws -> Removability {
        guard let handle else { return .gone }
        guard let (folder, name) = try? Self.split(entry.path) else { return .kept("is not a path linkwright writes") }
        let parent: FolderHandle?
        do {
            parent = try handle.folder(at: folder)
        } catch {
            return .kept("is reached through a symbolic link or a file")
        }
        guard let parent, let kind = try Self.attempt({ try parent.kind(of: name) }) else { return .gone }
        guard kind == .file else { return .kept("is \(kind.description)") }
        guard let hash = entry.hash else { return .kept("was recorded without a content hash by an older linkwright") }
        let bytes = try Self.attempt { try parent.read(name, limit: Self.readLimit) } ?? []
        guard SHA256.hex(bytes) == hash else { return .kept("was edited since linkwright wrote it") }
        guard sealed else {
            return .kept(
                "is listed by a manifest no build on this machine wrote (a repository can carry one); remove it yourself if it is yours to remove"
            )
        }
        return .removable
    }

    // MARK: - Paths

    /// The folder and file name of an artifact path. Paths are built from validated names;
    /// this is the second lock on the door.
    static func split(_ path: String) throws -> (folder: String, name: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), let name = parts.last,
            !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw WriteError(path: path, reason: "refusing to write outside the output folder", changedNothing: true)
        }
        return (parts.dropLast().joined(separator: "/"), String(name))
    }

    /// Runs a file-system step, turning its failure into a `WriteError` that changed nothing.
    private static func attempt<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as FolderHandle.Failure {
            throw WriteError(path: failure.path, reason: failure.reason, changedNothing: true)
        }
    }
}

/// What a build switches once every new file is staged: moves from the staging folder and
/// removals of stale files, each with the SHA-256 it expects. One operation per line, the path
/// last (artifact paths hold no control characters).
struct BuildJournal: Equatable {
    struct Move: Equatable {
        var staged: String
        var path: String
        var hash: String
    }

    struct Removal: Equatable {
        var path: String
        var hash: String
    }

    /// A staged folder that becomes the folder at `path`, which the output did not have; its
    /// files' hashes are in the manifest staged beside it.
    struct Tree: Equatable {
        var staged: String
        var path: String
    }

    var staging: String
    var trees: [Tree] = []
    var moves: [Move] = []
    var removals: [Removal] = []

    init(staging: String) { self.staging = staging }

    func encoded() -> [UInt8] {
        var text = "linkwright-journal 1\nstaging \(staging)\n"
        for tree in trees { text += "tree \(tree.staged) \(tree.path)\n" }
        for move in moves { text += "move \(move.staged) \(move.hash) \(move.path)\n" }
        for removal in removals { text += "remove \(removal.hash) \(removal.path)\n" }
        return Array((text + "end\n").utf8)
    }

    /// Nil unless the text is a complete journal (its last line is `end`) naming a staging folder
    /// of ours.
    init?(decoding bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines[0] == "linkwright-journal 1", lines[1].hasPrefix("staging "),
            lines[lines.count - 2] == "end", lines[lines.count - 1].isEmpty
        else { return nil }
        staging = String(lines[1].dropFirst("staging ".count))
        guard staging.hasPrefix(OutputFolder.stagingPrefix), !staging.contains("/") else { return nil }
        for line in lines[2..<(lines.count - 2)] {
            let fields = line.split(separator: " ", maxSplits: line.hasPrefix("move ") ? 3 : 2)
            switch (fields.first, fields.count) {
            case ("move"?, 4):
                moves.append(Move(staged: String(fields[1]), path: String(fields[3]), hash: String(fields[2])))
            case ("tree"?, 3):
                trees.append(Tree(staged: String(fields[1]), path: String(fields[2])))
            case ("remove"?, 3):
                removals.append(Removal(path: String(fields[2]), hash: String(fields[1])))
            default:
                return nil
            }
        }
    }
}

/// SHA-256 of artifacts' bytes, computed once per buffer on a thread of its own, so that hashing
/// overlaps writing: every host of a domain shares one rendered buffer (`ArtifactRenderer`), so
/// thousands of files cost a few hundred digests. The artifacts outlive this value, so a buffer's
/// address cannot be reused for other bytes.
private final class ArtifactHashes: @unchecked Sendable {
    private struct Buffer: Hashable {
        let address: UInt
        let count: Int

        init(_ bytes: [UInt8]) {
            (address, count) = bytes.withUnsafeBufferPointer { (UInt(bitPattern: $0.baseAddress), $0.count) }
        }
    }

    /// Written by the hashing thread before it signals `hashed`, read only after waiting for it.
    private var known: [Buffer: String] = [:]
    private let hashed = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts hashing the bytes of `artifacts`, each buffer once.
    init(_ artifacts: [Artifact]) {
        var buffers: [Buffer: [UInt8]] = [:]
        for artifact in artifacts { buffers[Buffer(artifact.bytes)] = artifact.bytes }
        let thread = Thread { [self, buffers] in
            known = buffers.mapValues(SHA256.hex)
            hashed.signal()
        }
        thread.start()
    }

    /// The digest of `bytes`; the first call waits for the hashing thread.
    func hex(_ bytes: [UInt8]) -> String {
        if !waited {
            hashed.wait()
            waited = true
        }
        return known[Buffer(bytes)] ?? SHA256.hex(bytes)
    }
}

/// Opens the folders below `root` that files in path order go to: the last one is reused, so a
/// host's files walk to its folder once, and each top-level folder is opened once (holding
/// every folder open could exceed the descriptors a process may have).
private struct FolderCursor {
    let root: FolderHandle
    private var last: (path: String, handle: FolderHandle)?
    private var tops: [String: FolderHandle] = [:]

    init(_ root: FolderHandle) { self.root = root }

    mutating func open(_ folder: String, create: Bool) throws -> FolderHandle? {
        if let last, last.path == folder { return last.handle }
        let opened: FolderHandle?
        if let slash = folder.firstIndex(of: "/") {
            let name = String(folder[..<slash])
            guard let top = try tops[name] ?? root.folder(name, create: create) else { return nil }
            tops[name] = top
            opened = try top.folder(at: String(folder[folder.index(after: slash)...]), create: create)
        } else {
            opened = try root.folder(at: folder, create: create)
        }
        if let opened { last = (folder, opened) }
        return opened
    }
}

/// Which folders along artifact paths the output does not have, each looked up once: nothing
/// below an absent folder is looked up, so a fresh output costs a lookup per environment.
private struct AbsentFolders {
    let root: FolderHandle
    /// Whether anything (a folder, or a link or file in its place) is at each path looked up.
    private var present: [Substring: Bool] = [:]

    init(_ root: FolderHandle) { self.root = root }

    /// The outermost absent folder along `folder` and the rest of `folder` below it; nil when
    /// every folder along it is there.
    mutating func outermost(along folder: String) throws -> (tree: String, inside: String)? {
        var end = folder.startIndex
        while end < folder.endIndex {
            let start = end == folder.startIndex ? end : folder.index(after: end)
            end = folder[start...].firstIndex(of: "/") ?? folder.endIndex
            let path = folder[..<end]
            let isPresent: Bool
            if let known = present[path] {
                isPresent = known
            } else {
                let parent =
                    start == folder.startIndex
                    ? root : try root.folder(at: String(folder[..<folder.index(before: start)]))
                isPresent = try parent?.kind(of: String(folder[start..<end])) != nil
                present[path] = isPresent
            }
            if !isPresent {
                let inside = end == folder.endIndex ? "" : String(folder[folder.index(after: end)...])
                return (String(path), inside)
            }
        }
        return nil
    }
}
