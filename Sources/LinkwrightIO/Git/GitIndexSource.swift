import CGit2
import LinkwrightCore

/// The configuration folder as it is staged: the paths and blob IDs of the index's entries,
/// read through the same guarded object database as revisions. What `git commit` would record,
/// without writing a tree object into the repository; edits that are not staged are not seen.
///
/// Paths are relative to the configuration folder, as for every `SourceTree`. Only regular
/// files count as files; symbolic links, submodules and files with unresolved merge conflicts
/// are listed as refused.
public struct GitIndexSource: SourceTree {
    /// One path of the index under the configuration folder.
    struct Entry {
        var id: git_oid
        var mode: git_filemode_t
        /// The path has conflict stages (1–3) instead of one staged version.
        var conflicted: Bool
    }

    private let repository: GitRepository
    /// Paths relative to the configuration folder.
    private let entries: [String: Entry]
    /// Blobs larger than this are refused from their header, without being inflated.
    public var readLimit = YAMLParser().maximumBytes

    /// Whether anything is staged under the configuration folder.
    public var exists: Bool { !entries.isEmpty }

    /// The staged configuration folder of `repository` (its `configurationPath`).
    public init(repository: GitRepository) throws {
        self.repository = repository
        entries = try repository.indexEntries(under: repository.configurationPath)
    }

    public func entries(in folder: String) throws -> [SourceEntry] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        var found: [String: SourceEntry.Kind] = [:]
        for (path, entry) in entries where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            if let slash = rest.firstIndex(of: "/") {
                found[String(rest[..<slash])] = .folder
            } else {
                found[String(rest)] =
                    entry.conflicted ? .refused("a file with unresolved merge conflicts") : entry.mode.sourceEntryKind
            }
        }
        return found.map { SourceEntry(name: $0.key, kind: $0.value) }.sorted { $0.name < $1.name }
    }

    public func contents(of path: String) throws -> [UInt8] {
        guard let entry = entries[path], !entry.conflicted, entry.mode.isRegularFile else {
            throw SourceTreeError.missing(path)
        }
        return try repository.blobBytes(entry.id, path: path, at: "the index", limit: readLimit)
    }
}

extension GitRepository {
    /// The index's entries under `folder` (relative to `workTreeRoot`, "" for every entry), by
    /// path relative to it. Entries added with `git add --intent-to-add` are left out, as
    /// `git commit` leaves them out of the tree it writes.
    func indexEntries(under folder: String) throws -> [String: GitIndexSource.Entry] {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "opening the index")
        defer { git_index_free(index) }
        let prefix = folder.isEmpty ? "" : folder + "/"
        var entries: [String: GitIndexSource.Entry] = [:]
        for position in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, position)?.pointee, let cPath = entry.path else { continue }
            if UInt32(entry.flags_extended) & GIT_INDEX_ENTRY_INTENT_TO_ADD.rawValue != 0 { continue }
            let path = String(cString: cPath)
            guard path.hasPrefix(prefix) else { continue }
            let relative = String(path.dropFirst(prefix.count))
            var staged = entry
            let conflicted = git_index_entry_stage(&staged) > 0
            entries[relative] = GitIndexSource.Entry(
                id: entry.id, mode: git_filemode_t(rawValue: entry.mode),
                conflicted: conflicted || entries[relative]?.conflicted == true)
        }
        return entries
    }

    /// The staged bytes of the regular file at `path` (relative to `workTreeRoot`), or nil when
    /// no regular file is staged there; a blob over `limit` bytes is refused from its header.
    public func stagedFile(at path: String, limit: Int) throws -> [UInt8]? {
        guard let entry = try indexEntries(under: "")[path], !entry.conflicted, entry.mode.isRegularFile else {
            return nil
        }
        return try blobBytes(entry.id, path: path, at: "the index", limit: limit)
    }

    /// Whether the index has `path` (relative to `workTreeRoot`): git tracks it.
    public func isTracked(_ path: String) throws -> Bool {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "opening the index")
        defer { git_index_free(index) }
        return git_index_get_bypath(index, path, 0) != nil
    }

    /// Whether `revision` names a branch that has no commit yet: `HEAD` (or the branch it points
    /// at) in a repository before its first commit. Comparing with it is comparing with nothing.
    public func isUnbornBranch(_ revision: String) -> Bool {
        guard git_repository_head_unborn(handle) == 1 else { return false }
        if revision == "HEAD" || revision == "@" { return true }
        var head: OpaquePointer?
        guard git_reference_lookup(&head, handle, "HEAD") == 0 else { return false }
        defer { git_reference_free(head) }
        guard let target = git_reference_symbolic_target(head).map({ String(cString: $0) }) else { return false }
        return revision == target || "refs/heads/" + revision == target
    }
}
