import CGit2
import LinkwrightCore

/// The configuration folder as it was committed at one revision, read from git's object
/// database: no checkout, and uncommitted changes in the working tree are not seen.
///
/// Paths are relative to the configuration folder, as for every `SourceTree`. Only regular
/// files count as files; symbolic links and submodules are listed as refused.
public struct GitTreeSource: SourceTree {
    private let repository: GitRepository
    /// The configuration folder's tree ID at `commit`; nil when the folder is absent there.
    public let treeID: String?
    /// The revision this tree was read at.
    public let commit: GitCommit
    /// Blobs larger than this are refused from their header, without being inflated.
    public var readLimit = YAMLParser().maximumBytes
    /// The folders read so far (`entries(of:)`).
    private let folders = LockedValue<[String: [String: TreeEntry]]>([:])

    /// Whether the configuration folder exists at `commit`. When it does not (the configuration
    /// was added later), the tree reads as empty.
    public var exists: Bool { treeID != nil }

    /// The configuration folder of `repository` (its `configurationPath`) at `commit`.
    public init(repository: GitRepository, commit: GitCommit) throws {
        self.repository = repository
        self.commit = commit
        treeID = try repository.treeID(of: repository.configurationPath, at: commit)
    }

    public func entries(in folder: String) throws -> [SourceEntry] {
        try entries(of: folder).map { SourceEntry(name: $0.key, kind: $0.value.mode.sourceEntryKind) }
            .sorted { $0.name < $1.name }
    }

    public func contents(of path: String) throws -> [UInt8] {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard treeID != nil, let entry = try entries(of: folder)[name], entry.mode.isRegularFile else {
            throw SourceTreeError.missing(path)
        }
        return try repository.blobBytes(entry.id, path: path, at: commit.shortID, limit: readLimit)
    }

    /// The entries of `folder` by name, read from its tree once: looking each file up by path
    /// inflated the folder's tree again for every file, quadratic in a folder's files. A name a
    /// damaged tree lists twice counts once, as its first entry.
    private func entries(of folder: String) throws -> [String: TreeEntry] {
        guard let treeID else { return [:] }
        return try folders.withLock { known in
            if let found = known[folder] { return found }
            let read = try repository.withTree(try git_oid(hex: treeID)) { configurationTree -> [String: TreeEntry] in
                let subtreeID: git_oid
                if folder.isEmpty {
                    subtreeID = git_tree_id(configurationTree).pointee
                } else {
                    guard let entry = try repository.entry(at: folder, in: configurationTree),
                        entry.mode == GIT_FILEMODE_TREE
                    else { return [:] }
                    subtreeID = entry.id
                }
                return try repository.withTree(subtreeID) { tree in
                    var entries: [String: TreeEntry] = [:]
                    for index in 0..<git_tree_entrycount(tree) {
                        guard let entry = git_tree_entry_byindex(tree, index) else { continue }
                        let name = String(cString: git_tree_entry_name(entry))
                        if entries[name] == nil {
                            entries[name] = TreeEntry(
                                id: git_tree_entry_id(entry).pointee, mode: git_tree_entry_filemode(entry))
                        }
                    }
                    return entries
                }
            }
            known[folder] = read
            return read
        }
    }
}

private struct TreeEntry: Sendable {
    var id: git_oid
    var mode: git_filemode_t
}

extension git_filemode_t {
    var isRegularFile: Bool { self == GIT_FILEMODE_BLOB || self == GIT_FILEMODE_BLOB_EXECUTABLE }

    /// Symbolic links and submodules are refused, as the working tree refuses them.
    var sourceEntryKind: SourceEntry.Kind {
        if isRegularFile { return .file }
        if self == GIT_FILEMODE_TREE { return .folder }
        return .refused(self == GIT_FILEMODE_LINK ? "a symbolic link" : "a submodule")
    }
}
