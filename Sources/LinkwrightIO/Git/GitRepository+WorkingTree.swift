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
    /// HEAD through the user's own `git commit`, so their hooks run, `commit.gpgsign` signs and
    /// the environment (`GIT_AUTHOR_DATE`, an identity) counts, as for any commit of theirs. A
    /// path missing from the working tree is recorded as deleted.
    ///
    /// As `git commit -- <paths>`, the commit holds exactly these changes: other changes the
    /// user has staged stay staged and out of it. When git refuses (a hook, a signing key, no
    /// identity), `GitError.commitRefused` says what it said, and `paths` are left staged.
    @discardableResult
    public func commit(paths: [String], message: String) throws -> GitCommit {
        let changed = try paths.filter { try status(of: $0) != .clean }
        guard !changed.isEmpty else { throw GitError.nothingToCommit(paths: paths) }
        let added = try GitCommand.run(["add", "-A", "--"] + changed, in: workTreeRoot)
        guard added.status == 0 else { throw GitError.commitRefused(output: added.standardError) }
        let committed = try GitCommand.run(
            ["commit", "-q", "-F", "-", "--"] + changed, in: workTreeRoot, input: message)
        guard committed.status == 0 else {
            throw GitError.commitRefused(output: committed.standardError + committed.standardOutput)
        }
        guard let head = try headCommit() else {
            throw GitError.failed(operation: "reading the new commit", reason: "HEAD is unborn")
        }
        defer { git_commit_free(head) }
        return try GitCommit(head)
    }

    /// The `git_commit*` HEAD points at, or nil before the first commit.
    private func headCommit() throws -> OpaquePointer? {
        if git_repository_head_unborn(handle) == 1 { return nil }
        var head: OpaquePointer?
        try check(git_revparse_single(&head, handle, "HEAD^{commit}"), "reading HEAD")
        return head
    }
}
