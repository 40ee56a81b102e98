import Foundation
import LinkwrightCore

/// Writes a set of files under one folder, all or nothing: every file is first written to a
/// fresh temporary file next to its destination (a random name created with `O_EXCL`, so no
/// link planted in advance can redirect it), flushed, and every destination is checked to be
/// replaceable (a folder is not) before the first is renamed into place. Folders on the way are
/// walked without following links, so a link committed in place of a folder makes the write
/// fail instead of landing elsewhere. Temporary files a killed earlier write left in a folder
/// are removed by the next write into it.
///
/// Several files are switched under a journal: before the first rename, `.linkwright-write-journal`
/// at the root names each temporary file, its SHA-256 and its destination, sealed
/// (`FolderHandle.seal`) so a journal a repository carries is never acted on. A write killed
/// between its renames is completed by the next write under the same root, before anything
/// else: every file of a set ends in place, or none does.
public enum AtomicFiles {
    static let journalName = ".linkwright-write-journal"

    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        /// The files (as given) already in place when the failure came: empty unless a rename
        /// failed after every check passed, which only the file system itself can cause.
        public var written: [String] = []
        public var description: String { "cannot write \(path): \(reason)" }
        /// "nothing was written", or which files were.
        public var outcome: String {
            written.isEmpty ? "nothing was written" : "written before the failure: \(written.joined(separator: ", "))"
        }
    }

    /// Writes `files`, given as `/`-separated paths relative to `root`.
    public static func write(_ files: [(path: String, bytes: [UInt8])], under root: URL) throws {
        var staged: [(folder: FolderHandle, temporary: String, name: String, path: String)] = []
        var digests: [String] = []
        var written: [String] = []
        var journal: FolderHandle?
        // A failed rename (only the file system can cause one after the checks) leaves the files
        // written so far in place, said in the error, and nothing for a later write to complete.
        func discard() {
            for file in staged.dropFirst(written.count) { try? file.folder.removeFile(file.temporary) }
            try? journal?.removeFile(journalName)
        }
        do {
            let top = try FolderHandle(path: root.path)
            // Before the sweep below, which would remove the temporary files it completes.
            try completeInterruptedWrite(in: top)
            var swept: Set<String> = []
            for file in files {
                let parts = file.path.split(separator: "/").map(String.init)
                guard let name = parts.last,
                    let folder = try top.folder(at: parts.dropLast().joined(separator: "/"), create: true)
                else { throw FolderHandle.Failure(path: file.path, reason: "not a file path") }
                if swept.insert(folder.path).inserted { try removeLeftovers(in: folder) }
                staged.append((folder, try folder.stage(file.bytes, for: name), name, file.path))
                digests.append(SHA256.hex(file.bytes))
            }
            // Every destination is checked before the first is replaced: a later one that cannot
            // be replaced left the earlier ones switched.
            for file in staged where try file.folder.kind(of: file.name) == .folder {
                throw FolderHandle.Failure(
                    path: file.folder.child(file.name), reason: "is a folder; remove it or rename it")
            }
            let journaled = staged.count > 1
            if journaled {
                var text = "linkwright-write-journal 1\n"
                for (file, digest) in zip(staged, digests) { text += "move \(file.temporary) \(digest) \(file.path)\n" }
                let temporary = try top.stage(Array((text + "end\n").utf8), for: journalName)
                try top.seal(temporary)
                try top.rename(temporary, to: journalName, in: top)
                top.sync()
                journal = top
            }
            for file in staged {
                try file.folder.rename(file.temporary, to: file.name, in: file.folder)
                written.append(file.path)
            }
            for file in staged { file.folder.sync() }
            if journaled {
                try top.removeFile(journalName)
                top.sync()
            }
        } catch let failure as FolderHandle.Failure {
            discard()
            throw WriteError(path: failure.path, reason: failure.reason, written: written)
        }
    }

    /// Writes one file at a path the user gave.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        try write([(url.lastPathComponent, bytes)], under: url.deletingLastPathComponent())
    }

    /// Completes the renames of a write killed between them (see the type's documentation): each
    /// temporary file the journal names is put in place when it is still there with the bytes
    /// recorded. A journal without the seal, or one that does not read as ours, stops the write
    /// naming it, with nothing changed.
    static func completeInterruptedWrite(in top: FolderHandle) throws {
        guard try top.kind(of: journalName) != nil else { return }
        let shown = top.child(journalName)
        guard try top.isSealed(journalName), let bytes = try top.read(journalName, limit: 1 << 20) else {
            throw FolderHandle.Failure(
                path: shown,
                reason: "was not written by linkwright on this machine (a repository can carry one), so it is not "
                    + "acted on; look at it, remove it, and run again")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var moves: [(folder: String, temporary: String, digest: String, name: String)] = []
        for line in lines.dropFirst().dropLast(2) {
            let fields = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard fields.count == 4, fields[0] == "move" else { break }
            let parts = fields[3].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let name = parts.last ?? ""
            guard fields[1].hasPrefix("." + name.prefix(100) + "."), fields[1].hasSuffix(".linkwright-tmp") else {
                break
            }
            moves.append((parts.dropLast().joined(separator: "/"), fields[1], fields[2], name))
        }
        guard lines.first == "linkwright-write-journal 1", lines.count >= 4, lines[lines.count - 2] == "end",
            lines.last == "", moves.count == lines.count - 3
        else {
            throw FolderHandle.Failure(path: shown, reason: "is not a write journal linkwright can complete; remove it")
        }
        for move in moves {
            guard let folder = try top.folder(at: move.folder), try folder.kind(of: move.temporary) == .file,
                let staged = try folder.read(move.temporary, limit: 1 << 30), SHA256.hex(staged) == move.digest
            else { continue }
            try folder.rename(move.temporary, to: move.name, in: folder)
            folder.sync()
        }
        try top.removeFile(journalName)
        top.sync()
    }

    /// Removes the temporary files (`.<name>.<random>.linkwright-tmp`) a write killed before its
    /// renames left in `folder`: no such file outlives the next write into the same folder.
    private static func removeLeftovers(in folder: FolderHandle) throws {
        for entry in try folder.entries()
        where entry.name.hasPrefix(".") && entry.name.hasSuffix(".linkwright-tmp")
            && (entry.kind == .file || entry.kind == .symbolicLink)
        {
            try folder.removeFile(entry.name)
        }
    }
}
