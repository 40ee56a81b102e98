import CGit2
import LinkwrightCore

extension GitRepository {
    /// The blob at `path` (relative to the work tree) in `commit`, with its object ID so callers
    /// can cache what they make of it; nil when no regular file is there.
    public func file(at path: String, in commit: GitCommit) throws -> (blobID: String, bytes: [UInt8])? {
        try withTree(of: commit) { root in
            guard var entry = try entry(at: path, in: root), entry.mode.isRegularFile else { return nil }
            var blob: OpaquePointer?
            try check(git_blob_lookup(&blob, handle, &entry.id), "reading \(path) at \(commit.shortID)")
            defer { git_blob_free(blob) }
            let size = Int(git_blob_rawsize(blob))
            let bytes =
                size > 0 ? git_blob_rawcontent(blob).map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } : nil
            return (entry.id.hex, bytes ?? [])
        }
    }
}

extension GitRepository {
    /// The bytes of the blob `id`, found at `path` in `place` (a revision or the index), read
    /// through the guarded object database. The object header gives the size without
    /// inflating: a huge blob in a hostile commit is refused before it is held in memory.
    func blobBytes(_ id: git_oid, path: String, at place: String, limit: Int) throws -> [UInt8] {
        var id = id
        var odb: OpaquePointer?
        try LibGit2.check(git_repository_odb(&odb, handle), "opening the object database")
        defer { git_odb_free(odb) }
        var storedSize = 0
        var type = GIT_OBJECT_ANY
        try check(git_odb_read_header(&storedSize, &type, odb, &id), "reading \(path) at \(place)")
        guard storedSize <= limit else { throw SourceTreeError.tooLarge(path, limit: limit) }
        var blob: OpaquePointer?
        try check(git_blob_lookup(&blob, handle, &id), "reading \(path) at \(place)")
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let bytes = git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }
}
