import Foundation

/// Writes a set of files under one folder, each all or nothing: every file is first written to a
/// fresh temporary file next to its destination (a random name created with `O_EXCL`, so no
/// link planted in advance can redirect it), flushed, and only when every one is written are
/// they renamed into place. Folders on the way are walked without following links, so a link
/// committed in place of a folder makes the write fail instead of landing elsewhere.
public enum AtomicFiles {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `files`, given as `/`-separated paths relative to `root`.
    public static func write(_ files: [(path: String, bytes: [UInt8])], under root: URL) throws {
        var staged: [(folder: FolderHandle, temporary: String, name: String)] = []
        func discard() { for file in staged { try? file.folder.removeFile(file.temporary) } }
        do {
            let top = try FolderHandle(path: root.path)
            for file in files {
                let parts = file.path.split(separator: "/").map(String.init)
                guard let name = parts.last,
                    let folder = try top.folder(at: parts.dropLast().joined(separator: "/"), create: true)
                else { throw FolderHandle.Failure(path: file.path, reason: "not a file path") }
                staged.append((folder, try folder.stage(file.bytes, for: name), name))
            }
            for file in staged { try file.folder.rename(file.temporary, to: file.name, in: file.folder) }
            for file in staged { file.folder.sync() }
        } catch let failure as FolderHandle.Failure {
            discard()
            throw WriteError(path: failure.path, reason: failure.reason)
        }
    }

    /// Writes one file at a path the user gave.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        try write([(url.lastPathComponent, bytes)], under: url.deletingLastPathComponent())
    }
}
