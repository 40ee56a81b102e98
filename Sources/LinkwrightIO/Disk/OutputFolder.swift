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
    let handle: FolderHandle?
    /// Whether opening for writing completed a build that had been interrupted.
    public private(set) var completedInterruptedBuild = false
    /// Whether the folder is locked for a build that writes (or shared, for a check).
    let forWriting: Bool

    /// The folders opening for writing made, innermost first: a build that fails before its
    /// switch removes them again while they are empty (`Update.discard`).
    let madeFolders: [String]

    /// Opens the folder at `url` and locks it: exclusively to write (creating the folder when it
    /// does not exist), shared to check. `whileWaiting` runs once if another build holds the
    /// lock, before waiting for it. Opening to write first completes or discards what an
    /// interrupted build left.
    public init(_ url: URL, forWriting: Bool, whileWaiting: () -> Void = {}) throws {
        path = url.path
        self.forWriting = forWriting
        var waited = false
        var reopened = 0
        while true {
            var status = stat()
            var made: [String] = []
            if lstat(path, &status) == 0 {
                let kind = FolderHandle.Kind(mode: status.st_mode)
                guard kind == .folder else {
                    throw WriteError(
                        path: path, reason: "is \(kind.description), not a folder; give a folder with --out",
                        changedNothing: true)
                }
            } else if forWriting {
                made = Self.absentFolders(along: path)
                do {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                } catch {
                    throw WriteError(path: path, reason: "cannot create the folder", changedNothing: true)
                }
            } else {
                handle = nil
                madeFolders = []
                return
            }
            let folderPath = path
            let handle = try Self.attempt { try FolderHandle(path: folderPath) }
            if try !Self.attempt({ try handle.lock(exclusive: forWriting, wait: false) }) {
                if !waited { whileWaiting() }
                waited = true
                _ = try Self.attempt { try handle.lock(exclusive: forWriting, wait: true) }
            }
            // A build that made the folder and failed removed it while this one waited: the
            // lock is on a folder no path leads to any more, so open the path again.
            guard handle.isStill(at: path) else {
                reopened += 1
                guard reopened < 3 else {
                    throw WriteError(
                        path: path, reason: "was removed or replaced while this build waited for it; run it again",
                        changedNothing: true)
                }
                continue
            }
            self.handle = handle
            madeFolders = made
            break
        }
        if forWriting { try recover() }
    }

    /// `path` and each folder above it that does not exist, innermost first.
    private static func absentFolders(along path: String) -> [String] {
        var absent: [String] = []
        var folder = URL(fileURLWithPath: path).standardized.path
        var status = stat()
        while folder != "/" && !folder.isEmpty && lstat(folder, &status) != 0 {
            absent.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        return absent
    }

    /// Removes the folders opening made, while they are empty.
    func removeMadeFolders() {
        for folder in madeFolders where rmdir(folder) != 0 { return }
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
    func transactionState() throws -> [(name: String, ours: Bool)] {
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

    func foreign(_ name: String) -> WriteError {
        WriteError(
            path: path + "/" + name, reason: Self.foreignReason + "; look at it, remove it, and run the build again",
            changedNothing: true)
    }

    /// Carries out a journal's moves and removals; every step can be repeated, so a run that
    /// stops halfway is completed by the next.
    func complete(_ journal: BuildJournal) throws {
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
    func manifest() throws -> (entries: [ManifestEntry], sealed: Bool) {
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
    enum Removability {
        case gone, removable
        /// Left in place; the reason completes "it …".
        case kept(String)
    }

    func removability(of entry: ManifestEntry, listedBySealedManifest sealed: Bool) throws -> Removability {
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
    static func attempt<T>(_ body: () throws -> T) throws -> T {
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

/// Opens the folders below `root` that files in path order go to: the last one is reused, so a
/// host's files walk to its folder once, and each top-level folder is opened once (holding
/// every folder open could exceed the descriptors a process may have).
struct FolderCursor {
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
