import Foundation

/// Writes a set of files under one folder, all or nothing: every file is first written to a
/// fresh temporary file next to its destination (a random name created with `O_EXCL`, so no
/// link planted in advance can redirect it), flushed, and every destination is checked to be
/// replaceable (a folder is not) before the first is renamed into place. Folders on the way are
/// walked without following links, so a link committed in place of a folder makes the write
/// fail instead of landing elsewhere. Temporary files a killed earlier write left in a folder
/// are removed by the next write into it.
public enum AtomicFiles {
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
        var written: [String] = []
        func discard() { for file in staged.dropFirst(written.count) { try? file.folder.removeFile(file.temporary) } }
        do {
            let top = try FolderHandle(path: root.path)
            var swept: Set<String> = []
            for file in files {
                let parts = file.path.split(separator: "/").map(String.init)
                guard let name = parts.last,
                    let folder = try top.folder(at: parts.dropLast().joined(separator: "/"), create: true)
                else { throw FolderHandle.Failure(path: file.path, reason: "not a file path") }
                if swept.insert(folder.path).inserted { try removeLeftovers(in: folder) }
                staged.append((folder, try folder.stage(file.bytes, for: name), name, file.path))
            }
            // Every destination is checked before the first is replaced: a later one that cannot
            // be replaced left the earlier ones switched.
            for file in staged where try file.folder.kind(of: file.name) == .folder {
                throw FolderHandle.Failure(
                    path: file.folder.child(file.name), reason: "is a folder; remove it or rename it")
            }
            for file in staged {
                try file.folder.rename(file.temporary, to: file.name, in: file.folder)
                written.append(file.path)
            }
            for file in staged { file.folder.sync() }
        } catch let failure as FolderHandle.Failure {
            discard()
            throw WriteError(path: failure.path, reason: failure.reason, written: written)
        }
    }

    /// Writes one file at a path the user gave.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        try write([(url.lastPathComponent, bytes)], under: url.deletingLastPathComponent())
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
