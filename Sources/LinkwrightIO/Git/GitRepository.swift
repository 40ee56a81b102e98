import CGit2
import Foundation

/// A git repository, opened from the configuration folder it contains, that reads any revision
/// without checking it out.
///
/// Not `Sendable`: a libgit2 repository handle and the objects read through it must stay on one
/// thread. Open one `GitRepository` per thread instead.
public final class GitRepository {
    /// The `git_repository*`, freed with the repository.
    let handle: OpaquePointer
    /// Absolute path of the top folder of the working tree, without a trailing slash.
    public let workTreeRoot: String
    /// The configuration folder relative to `workTreeRoot`, "" when they are the same folder.
    /// Monorepos keep the configuration in a subfolder; the same path is read at every revision.
    public let configurationPath: String
    /// The loose objects the guarded object database refused, reported by the failing call.
    private let corruptObjects: CorruptObjectLog

    /// Opens the repository whose working tree contains `configurationFolder`, searching parent
    /// folders as git does.
    ///
    /// Owner validation stays on: libgit2, like git, refuses a repository that belongs to another
    /// user, because its configuration could make git run that user's programs or read their
    /// files. Switching the check off process-wide would hide that decision from the user, so the
    /// refusal becomes `GitError.notOwnedByCurrentUser` with the command that records their consent.
    public init(configurationFolder: String) throws {
        try LibGit2.initialize()
        guard let folder = Self.canonicalPath(configurationFolder) else {
            throw GitError.failed(operation: "opening \(configurationFolder)", reason: String(cString: strerror(errno)))
        }
        var opened: OpaquePointer?
        let code = git_repository_open_ext(&opened, folder, 0, nil)
        guard code >= 0, let repository = opened else {
            let failure = LibGit2.lastError(code: code)
            // libgit2 1.5.1 reports the owner check as GIT_EOWNER when some safe.directory is
            // configured, and as a missing `safe.directory` config value when none is.
            if failure.is(GIT_EOWNER)
                || failure.is(GIT_ENOTFOUND, in: GIT_ERROR_CONFIG) && failure.message.contains("safe.directory")
            {
                throw GitError.notOwnedByCurrentUser(path: Self.enclosingWorkTree(of: folder) ?? folder)
            }
            if failure.is(GIT_ENOTFOUND) { throw GitError.notARepository(path: configurationFolder) }
            throw GitError.failed(
                operation: "opening the repository at \(configurationFolder)", reason: failure.message)
        }
        guard let workDirectory = git_repository_workdir(repository) else {
            let gitDirectory = Self.withoutTrailingSlash(String(cString: git_repository_path(repository)))
            git_repository_free(repository)
            throw GitError.bareRepository(path: gitDirectory)
        }
        let root = Self.withoutTrailingSlash(String(cString: workDirectory))
        let relative: String
        if folder == root {
            relative = ""
        } else if folder.hasPrefix(root + "/") {
            relative = String(folder.dropFirst(root.count + 1))
        } else {
            git_repository_free(repository)
            throw GitError.failed(
                operation: "locating \(configurationFolder) in the repository",
                reason: "it lies outside the working tree \(root)")
        }
        // Repositories come from untrusted contributors: libgit2 must not inflate loose objects.
        do {
            corruptObjects = try GuardedObjectDatabase.install(on: repository)
        } catch {
            git_repository_free(repository)
            throw error
        }
        handle = repository
        workTreeRoot = root
        configurationPath = relative
    }

    deinit { git_repository_free(handle) }

    /// The top folder of the working tree that holds `folder`, found as git finds it (searching
    /// parent folders), without a trailing slash; nil outside a repository, in a bare one, or
    /// where libgit2 refuses to open it (another user's repository). Reads no object.
    public static func workTreeRoot(containing folder: String) -> String? {
        guard (try? LibGit2.initialize()) != nil, let folder = canonicalPath(folder) else { return nil }
        var opened: OpaquePointer?
        guard git_repository_open_ext(&opened, folder, 0, nil) >= 0, let repository = opened else { return nil }
        defer { git_repository_free(repository) }
        return git_repository_workdir(repository).map { withoutTrailingSlash(String(cString: $0)) }
    }

    /// Whether this is a shallow clone, whose history stops at the depth it was fetched with.
    public var isShallow: Bool { git_repository_is_shallow(handle) == 1 }

    /// The commit `revision` names: a branch (`main`), remote-tracking branch (`origin/main`),
    /// tag (annotated tags are followed to their commit), full or abbreviated SHA, or an
    /// expression git understands (`HEAD~3`, `main@{upstream}`, `v1.0^`).
    ///
    /// Throws `GitError.unknownRevision` (with a suggestion), `.notACommit`, or `.shallowClone`
    /// when the revision lies beyond a shallow clone's history.
    public func resolve(_ revision: String) throws -> GitCommit {
        var object: OpaquePointer?
        let code = git_revparse_single(&object, handle, revision)
        guard code >= 0, let object else {
            let failure = LibGit2.lastError(code: code)
            // `HEAD~1` in a shallow clone fails on the missing parent object, not on the name.
            guard !failure.isMissingObject, failure.is(GIT_ENOTFOUND) || failure.is(GIT_EINVALIDSPEC) else {
                throw historyError(failure, "resolving \(revision)")
            }
            // An abbreviated ID whose object is corrupt also ends as "not found".
            throw corruption(during: "resolving \(revision)") ?? unknownRevision(revision)
        }
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        guard git_object_peel(&commit, object, GIT_OBJECT_COMMIT) >= 0, let commit else {
            throw corruption(during: "resolving \(revision)") ?? GitError.notACommit(revision)
        }
        defer { git_object_free(commit) }
        return try GitCommit(commit)
    }

    /// The best common ancestor of `a` and `b`, where a branch forked: what `diff` compares a
    /// feature branch against. Throws `GitError.shallowClone` in a shallow clone and
    /// `.noMergeBase` for unrelated histories.
    public func mergeBase(_ a: GitCommit, _ b: GitCommit) throws -> GitCommit {
        try requireFullHistory()
        var base = git_oid()
        var aID = try git_oid(hex: a.id)
        var bID = try git_oid(hex: b.id)
        let code = git_merge_base(&base, handle, &aID, &bID)
        if code == GIT_ENOTFOUND.rawValue { throw GitError.noMergeBase(a, b) }
        try check(code, "finding the merge base of \(a.shortID) and \(b.shortID)")
        return try commit(base)
    }

    /// The commits reachable from `head` but not from `base` (git's `base..head`), newest first
    /// and never a parent before its child, as `git log` lists them.
    /// With `firstParentOnly`, merges count as one commit and the merged branches' commits are
    /// skipped. Throws `GitError.shallowClone` in a shallow clone.
    public func commits(from base: GitCommit, to head: GitCommit, firstParentOnly: Bool = false) throws -> [GitCommit] {
        try requireFullHistory()
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, handle), "walking history")
        defer { git_revwalk_free(walk) }
        try check(
            git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue), "sorting history")
        var headID = try git_oid(hex: head.id)
        var baseID = try git_oid(hex: base.id)
        try check(git_revwalk_push(walk, &headID), "walking from \(head.shortID)")
        try check(git_revwalk_hide(walk, &baseID), "stopping at \(base.shortID)")
        if firstParentOnly {
            try check(git_revwalk_simplify_first_parent(walk), "following first parents")
        }
        var commits: [GitCommit] = []
        var id = git_oid()
        while true {
            let code = git_revwalk_next(&id, walk)
            if code == GIT_ITEROVER.rawValue { break }
            try check(code, "walking history")
            commits.append(try commit(id))
        }
        return commits
    }

    /// Every tag that marks a commit, sorted by name. Tags of trees or files are left out.
    public func tags() throws -> [GitTag] {
        var names = git_strarray()
        try check(git_tag_list(&names, handle), "listing tags")
        defer { git_strarray_dispose(&names) }
        var tags: [GitTag] = []
        for index in 0..<names.count {
            guard let cName = names.strings[index] else { continue }
            if let tag = try tag(named: String(cString: cName)) { tags.append(tag) }
        }
        return tags.sorted { $0.name < $1.name }
    }

    /// The git tree ID of `folder` (relative to `workTreeRoot`, "" for the top) at `commit`, or
    /// nil when the folder does not exist there. Equal IDs mean equal contents, so results
    /// computed from a folder can be cached by this ID.
    public func treeID(of folder: String, at commit: GitCommit) throws -> String? {
        try withTree(of: commit) { root in
            if folder.isEmpty { return git_tree_id(root).pointee.hex }
            guard let entry = try entry(at: folder, in: root), entry.mode == GIT_FILEMODE_TREE else { return nil }
            return entry.id.hex
        }
    }

    /// Throws `GitError.shallowClone` before an operation that walks history a shallow clone lacks.
    private func requireFullHistory() throws {
        if isShallow { throw GitError.shallowClone }
    }

    /// Runs `body` with the root `git_tree*` of `commit`.
    func withTree<Result>(of commit: GitCommit, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        var commitID = try git_oid(hex: commit.id)
        var commitObject: OpaquePointer?
        let code = git_commit_lookup(&commitObject, handle, &commitID)
        guard code >= 0, let commitObject else {
            throw historyError(LibGit2.lastError(code: code), "reading commit \(commit.shortID)")
        }
        defer { git_commit_free(commitObject) }
        var tree: OpaquePointer?
        try check(git_commit_tree(&tree, commitObject), "reading the tree of \(commit.shortID)")
        defer { git_tree_free(tree) }
        guard let tree else {
            throw GitError.failed(operation: "reading the tree of \(commit.shortID)", reason: "no tree")
        }
        return try body(tree)
    }

    /// Runs `body` with the `git_tree*` whose ID is `id`.
    func withTree<Result>(_ id: git_oid, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        var id = id
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, handle, &id), "reading tree \(id.hex)")
        defer { git_tree_free(tree) }
        guard let tree else { throw GitError.failed(operation: "reading tree \(id.hex)", reason: "no tree") }
        return try body(tree)
    }

    /// The object ID and file mode of whatever sits at `path` under `tree`, or nil when nothing does.
    func entry(at path: String, in tree: OpaquePointer) throws -> (id: git_oid, mode: git_filemode_t)? {
        var entry: OpaquePointer?
        let code = git_tree_entry_bypath(&entry, tree, path)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "looking up \(path)")
        defer { git_tree_entry_free(entry) }
        guard let entry else { return nil }
        return (git_tree_entry_id(entry).pointee, git_tree_entry_filemode(entry))
    }

    /// The `GitCommit` whose ID is `id`.
    private func commit(_ id: git_oid) throws -> GitCommit {
        var id = id
        var commit: OpaquePointer?
        let code = git_commit_lookup(&commit, handle, &id)
        guard code >= 0, let commit else {
            throw historyError(LibGit2.lastError(code: code), "reading commit \(id.hex)")
        }
        defer { git_commit_free(commit) }
        return try GitCommit(commit)
    }

    /// The tag called `name`, or nil when it marks a tree or a file rather than a commit.
    private func tag(named name: String) throws -> GitTag? {
        // The object the reference points at: a tag object for an annotated tag, else the commit.
        var target: OpaquePointer?
        let targetCode = git_revparse_single(&target, handle, "refs/tags/" + name)
        guard targetCode >= 0, let target else {
            throw historyError(LibGit2.lastError(code: targetCode), "reading tag \(name)")
        }
        defer { git_object_free(target) }
        var peeled: OpaquePointer?
        let code = git_object_peel(&peeled, target, GIT_OBJECT_COMMIT)
        if code == GIT_EINVALIDSPEC.rawValue { return nil }
        guard code >= 0, let peeled else { throw historyError(LibGit2.lastError(code: code), "reading tag \(name)") }
        defer { git_object_free(peeled) }
        let isAnnotated = git_object_type(target) == GIT_OBJECT_TAG
        let tagger = isAnnotated ? git_tag_tagger(target) : nil
        let time = tagger?.pointee.when.time ?? git_commit_time(peeled)
        return GitTag(
            name: name,
            commit: try GitCommit(peeled),
            isAnnotated: isAnnotated,
            time: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// `GitError.unknownRevision` with the most useful suggestion this repository allows.
    private func unknownRevision(_ revision: String) -> GitError {
        let remotes = remoteNames()
        if let remoteBranch = remotes.map({ "\($0)/\(revision)" }).first(where: {
            referenceExists("refs/remotes/" + $0)
        }) {
            return .unknownRevision(revision, remoteBranch: remoteBranch, remote: nil)
        }
        // Only a plain name can be fetched; `HEAD~9` or `main@{upstream}` cannot.
        var isPlainName: Int32 = 0
        guard git_reference_name_is_valid(&isPlainName, "refs/heads/" + revision) == 0, isPlainName == 1 else {
            return .unknownRevision(revision, remoteBranch: nil, remote: nil)
        }
        let remote = remotes.first { revision.hasPrefix($0 + "/") } ?? remotes.first
        return .unknownRevision(revision, remoteBranch: nil, remote: remote)
    }

    /// The names of the configured remotes, `origin` first.
    private func remoteNames() -> [String] {
        var names = git_strarray()
        guard git_remote_list(&names, handle) == 0 else { return [] }
        defer { git_strarray_dispose(&names) }
        let remotes = (0..<names.count).compactMap { names.strings[$0].map { String(cString: $0) } }
        return remotes.filter { $0 == "origin" } + remotes.filter { $0 != "origin" }.sorted()
    }

    private func referenceExists(_ name: String) -> Bool {
        var reference: OpaquePointer?
        guard git_reference_lookup(&reference, handle, name) == 0 else { return false }
        git_reference_free(reference)
        return true
    }

    /// A failure while reading history: a missing object in a shallow clone means the clone is too shallow.
    private func historyError(_ failure: LibGit2.Failure, _ operation: String) -> GitError {
        if let corruption = corruption(during: operation) { return corruption }
        return isShallow && failure.isMissingObject
            ? .shallowClone : .failed(operation: operation, reason: failure.message)
    }

    /// Throws when `code` reports an error: `GitError.corruptObject` when the call failed on a
    /// loose object the guard refused, otherwise `.failed` with libgit2's explanation.
    func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
        guard code < 0 else { return }
        let operation = operation()
        throw corruption(during: operation)
            ?? .failed(operation: operation, reason: LibGit2.lastError(code: code).message)
    }

    /// `GitError.corruptObject` for the loose object the guard refused since the last report, if any.
    private func corruption(during operation: String) -> GitError? {
        corruptObjects.take().map { .corruptObject(id: $0.id, defect: "\($0.defect)", operation: operation) }
    }

    /// libgit2 ends folder paths with a slash; the tool prints and joins them without one.
    private static func withoutTrailingSlash(_ path: String) -> String {
        path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The nearest folder at or above `folder` that holds a `.git` entry: the work tree git would
    /// name in its safe.directory advice.
    private static func enclosingWorkTree(of folder: String) -> String? {
        var candidate = URL(fileURLWithPath: folder)
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) {
                return candidate.path
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return nil }
            candidate = parent
        }
    }
}
