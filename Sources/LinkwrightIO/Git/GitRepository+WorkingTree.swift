import CGit2
import Foundation

extension GitRepository {
    /// `path` (relative to the configuration folder) relative to `workTreeRoot`, as `status(of:)`
    /// and `commit(paths:message:)` take it.
    public func workTreePath(forConfigurationPath path: String) -> String {
        configurationPath.isEmpty ? path : configurationPath + "/" + path
    }

    /// The status of one file, `path` relative to `workTreeRoot`, against the index and HEAD.
    public func status(of path: String) throws -> GitPathStatus {
        var flags: UInt32 = 0
        let code = git_status_file(&flags, handle, path)
        if code == GIT_ENOTFOUND.rawValue { return .clean }
        try check(code, "reading the status of \(path)")
        switch flags {
        case GIT_STATUS_CURRENT.rawValue: return .clean
        case GIT_STATUS_WT_NEW.rawValue: return .untracked
        case GIT_STATUS_IGNORED.rawValue: return .ignored
        default: return .modified
        }
    }

    /// Records the working-tree state of `paths` (relative to `workTreeRoot`) as a new commit on
    /// HEAD, authored and committed by the configured `user.name` and `user.email`. A path missing
    /// from the working tree is recorded as deleted.
    ///
    /// Like `git commit -- <paths>`, the commit holds exactly these changes: other changes the
    /// user has staged stay staged and out of it. The index is updated for `paths` so that
    /// `git status` shows them clean afterwards.
    @discardableResult
    public func commit(paths: [String], message: String) throws -> GitCommit {
        let signature = try defaultSignature()
        defer { git_signature_free(signature) }
        let parent = try headCommit()
        defer { git_commit_free(parent) }

        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "opening the index")
        defer { git_index_free(index) }
        // The commit's tree is built in a separate index that starts from HEAD, so that nothing
        // else staged in the repository's index slips in.
        var commitIndex: OpaquePointer?
        try check(git_index_new(&commitIndex), "creating an index")
        defer { git_index_free(commitIndex) }
        if let parent {
            var parentTree: OpaquePointer?
            try check(git_commit_tree(&parentTree, parent), "reading HEAD's tree")
            defer { git_tree_free(parentTree) }
            try check(git_index_read_tree(commitIndex, parentTree), "reading HEAD's tree")
        }
        for path in paths {
            if existsInWorkTree(path) {
                try check(git_index_add_bypath(index, path), "staging \(path)")
            } else {
                try check(git_index_remove_bypath(index, path), "staging the deletion of \(path)")
            }
            if let staged = git_index_get_bypath(index, path, 0) {
                try check(git_index_add(commitIndex, staged), "staging \(path)")
            } else {
                try check(git_index_remove_bypath(commitIndex, path), "staging the deletion of \(path)")
            }
        }

        var treeID = git_oid()
        try check(git_index_write_tree_to(&treeID, commitIndex, handle), "writing the tree")
        let unchanged =
            parent.map { git_oid_equal(&treeID, git_commit_tree_id($0)) == 1 }
            ?? (git_index_entrycount(commitIndex) == 0)
        if unchanged { throw GitError.nothingToCommit(paths: paths) }
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, handle, &treeID), "reading the new tree")
        defer { git_tree_free(tree) }

        // git's default cleanup: trailing whitespace and blank lines go, a final newline comes.
        var cleanMessage = git_buf()
        defer { git_buf_dispose(&cleanMessage) }
        try check(git_message_prettify(&cleanMessage, message, 0, 0x23), "formatting the message")
        var parents: [OpaquePointer?] = parent.map { [$0] } ?? []
        var commitID = git_oid()
        try check(
            git_commit_create(
                &commitID, handle, "HEAD", signature, signature, nil, cleanMessage.ptr, tree, parents.count, &parents),
            "committing")
        try check(git_index_write(index), "writing the index")
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, handle, &commitID), "reading the new commit")
        defer { git_commit_free(commit) }
        guard let commit else { throw GitError.failed(operation: "reading the new commit", reason: "not found") }
        return try GitCommit(commit)
    }

    /// The configured identity, now; `GitError.missingIdentity` names whichever key is not set.
    private func defaultSignature() throws -> UnsafeMutablePointer<git_signature> {
        var config: OpaquePointer?
        try check(git_repository_config_snapshot(&config, handle), "reading the configuration")
        defer { git_config_free(config) }
        let missing = ["user.name", "user.email"].filter { key in
            var value: UnsafePointer<CChar>?
            return git_config_get_string(&value, config, key) < 0 || value.map { String(cString: $0).isEmpty } ?? true
        }
        if !missing.isEmpty { throw GitError.missingIdentity(missing: missing) }
        var signature: UnsafeMutablePointer<git_signature>?
        try check(git_signature_default(&signature, handle), "reading user.name and user.email")
        guard let signature else { throw GitError.missingIdentity(missing: ["user.name", "user.email"]) }
        return signature
    }

    /// The `git_commit*` HEAD points at, or nil before the first commit.
    private func headCommit() throws -> OpaquePointer? {
        if git_repository_head_unborn(handle) == 1 { return nil }
        var head: OpaquePointer?
        try check(git_revparse_single(&head, handle, "HEAD^{commit}"), "reading HEAD")
        return head
    }

    /// Whether anything, even a dangling symbolic link, sits at `path` in the working tree.
    private func existsInWorkTree(_ path: String) -> Bool {
        var info = stat()
        return lstat(workTreeRoot + "/" + path, &info) == 0
    }
}
