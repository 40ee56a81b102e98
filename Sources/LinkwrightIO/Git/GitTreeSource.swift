import CGit2
import LinkwrightCore

/// The configuration folder as it was committed at one revision, read from git's object
/// database: no checkout, and uncommitted changes in the working tree are not seen.
///
/// Paths are relative to the configuration folder, as for every `SourceTree`. Only regular
/// files count as files; symbolic links and submodules are left out.
public struct GitTreeSource: SourceTree {
    private let repository: GitRepository
    /// The configuration folder's tree ID at `commit`; nil when the folder is absent there.
    public let treeID: String?
    /// The revision this tree was read at.
    public let commit: GitCommit

    /// Whether the configuration folder exists at `commit`. When it does not (the configuration
    /// was added later), the tree reads as empty.
    public var exists: Bool { treeID != nil }

    /// The configuration folder of `repository` (its `configurationPath`) at `commit`.
    public init(repository: GitRepository, commit: GitCommit) throws {
        self.repository = repository
        self.commit = commit
        treeID = try repository.treeID(of: repository.configurationPath, at: commit)
    }

    public func fileNames(in folder: String) throws -> [String] {
        guard let treeID else { return [] }
        return try repository.withTree(try git_oid(hex: treeID)) { configurationTree in
            let subtreeID: git_oid
            if folder.isEmpty {
                subtreeID = git_tree_id(configurationTree).pointee
            } else {
                guard let entry = try repository.entry(at: folder, in: configurationTree),
                    entry.mode == GIT_FILEMODE_TREE
                else { return [] }
                subtreeID = entry.id
            }
            return try repository.withTree(subtreeID) { tree in
                (0..<git_tree_entrycount(tree)).compactMap { index -> String? in
                    guard let entry = git_tree_entry_byindex(tree, index),
                        Self.isRegularFile(git_tree_entry_filemode(entry))
                    else { return nil }
                    return String(cString: git_tree_entry_name(entry))
                }.sorted()
            }
        }
    }

    public func contents(of path: String) throws -> [UInt8] {
        guard let treeID else { throw SourceTreeError.missing(path) }
        return try repository.withTree(try git_oid(hex: treeID)) { configurationTree in
            guard var entry = try repository.entry(at: path, in: configurationTree), Self.isRegularFile(entry.mode)
            else {
                throw SourceTreeError.missing(path)
            }
            var blob: OpaquePointer?
            try repository.check(
                git_blob_lookup(&blob, repository.handle, &entry.id), "reading \(path) at \(commit.shortID)")
            defer { git_blob_free(blob) }
            let size = Int(git_blob_rawsize(blob))
            guard size > 0, let bytes = git_blob_rawcontent(blob) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: size))
        }
    }

    private static func isRegularFile(_ mode: git_filemode_t) -> Bool {
        mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE
    }
}
