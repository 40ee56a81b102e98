import CGit2

extension GitRepository {
    /// The blob at `path` (relative to the work tree) in `commit`, with its object ID so callers
    /// can cache what they make of it; nil when no regular file is there.
    public func file(at path: String, in commit: GitCommit) throws -> (blobID: String, bytes: [UInt8])? {
        try withTree(of: commit) { root in
            guard var entry = try entry(at: path, in: root),
                entry.mode == GIT_FILEMODE_BLOB || entry.mode == GIT_FILEMODE_BLOB_EXECUTABLE
            else { return nil }
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
