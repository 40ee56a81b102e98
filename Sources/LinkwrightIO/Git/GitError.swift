/// A git problem the user can act on. Each case says what went wrong (`message`), how to fix it
/// (`hint`) and, where one exists, the exact command to run (`command`).
public enum GitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No git repository contains `path`.
    case notARepository(path: String)
    /// The repository at `path` has no working tree, so there is no configuration folder in it.
    case bareRepository(path: String)
    /// git's `safe.directory` protection: the repository whose work tree is `path` belongs to
    /// another user, and git (libgit2 like the git CLI) refuses to read it.
    case notOwnedByCurrentUser(path: String)
    /// The repository is a shallow clone and the operation needs history it does not have.
    case shallowClone
    /// `revision` names nothing. `remoteBranch` is set when only a remote-tracking branch of that
    /// name exists (`origin/feature` for `feature`); `remote` when the revision is a plain name
    /// that fetching from that remote may bring.
    case unknownRevision(String, remoteBranch: String?, remote: String?)
    /// `revision` names an object that is not a commit (a tree or a file).
    case notACommit(String)
    /// The two commits share no history (unrelated histories), so they have no merge base.
    case noMergeBase(GitCommit, GitCommit)
    /// `git commit` (or the `git add` before it) refused, saying `output`: a hook, a signing key
    /// it could not use, an identity it does not know.
    case commitRefused(output: String)
    /// The paths given to `commit(paths:message:)` hold no change against HEAD.
    case nothingToCommit(paths: [String])
    /// The loose object `id` is damaged (`defect` says how), met while doing `operation`: the
    /// repository itself must be repaired.
    case corruptObject(id: String, defect: String, operation: String)
    /// A pack or its index at `path` is damaged (`defect` says how): checked before libgit2
    /// reads it, since libgit2 1.5 trusts an index's tables.
    case corruptPack(path: String, defect: String)
    /// Any other libgit2 failure, with libgit2's own explanation.
    case failed(operation: String, reason: String)

    /// What went wrong, in one sentence.
    public var message: String {
        switch self {
        case .notARepository(let path):
            "\(path) is not inside a git repository"
        case .bareRepository(let path):
            "\(path) is a bare git repository: it has no working tree to read a configuration folder from"
        case .notOwnedByCurrentUser(let path):
            "git refuses to read \(path): the repository belongs to another user (git's safe.directory protection)"
        case .shallowClone:
            "this repository is a shallow clone: the history needed to compare revisions is missing"
        case .unknownRevision(let revision, _, _):
            "unknown revision '\(revision)'"
        case .notACommit(let revision):
            "'\(revision)' does not name a commit"
        case .noMergeBase(let a, let b):
            "\(a.shortID) and \(b.shortID) share no history: there is no merge base"
        case .commitRefused(let output):
            "git commit refused: "
                + (output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    .joined(separator: " / "))
        case .nothingToCommit(let paths):
            "nothing to commit: \(paths.joined(separator: ", ")) \(paths.count == 1 ? "has" : "have") no changes against HEAD"
        case .corruptObject(let id, let defect, let operation):
            "git object \(id) is corrupt, found while \(operation): \(defect)"
        case .corruptPack(let path, let defect):
            "git pack file \(path) is corrupt: \(defect)"
        case .failed(let operation, let reason):
            "git: \(operation) failed: \(reason)"
        }
    }

    /// How to fix it, in one line.
    public var hint: String {
        switch self {
        case .notARepository:
            "run it inside a git checkout, or point it at a configuration folder inside one"
        case .bareRepository:
            "run it in a checkout of the repository"
        case .notOwnedByCurrentUser:
            "if you trust this repository, mark it safe for your user"
        case .shallowClone:
            "fetch the full history; in GitHub Actions, set fetch-depth: 0 on actions/checkout"
        case .unknownRevision(_, let remoteBranch?, _):
            "only the remote-tracking branch exists in this clone: use \(remoteBranch)"
        case .unknownRevision(_, nil, let remote?):
            "check the spelling, or fetch it if it exists on \(remote)"
        case .unknownRevision(_, nil, nil):
            "check the spelling: use a branch, tag, commit SHA or an expression such as HEAD~1"
        case .notACommit:
            "name a branch, tag or commit, such as main or v1.2.0"
        case .noMergeBase:
            "compare against a revision that shares history with this one"
        case .commitRefused:
            "the files are written and staged, not committed: do what git says, then run git commit yourself"
        case .nothingToCommit:
            "change the files first, or commit nothing"
        case .corruptObject:
            "the repository has a corrupt object: restore it from another clone, or clone again"
        case .corruptPack:
            "the repository has a corrupt pack: restore it from another clone, or clone again"
        case .failed:
            "check that git itself can read the repository"
        }
    }

    /// The exact command that fixes it, when there is one.
    public var command: String? {
        switch self {
        case .notOwnedByCurrentUser(let path):
            "git config --global --add safe.directory \(shellQuoted(path))"
        case .shallowClone:
            "git fetch --unshallow"
        case .unknownRevision(let revision, nil, let remote?):
            // `origin/x` is fetched as `x` from origin.
            "git fetch \(remote) \(shellQuoted(revision.hasPrefix(remote + "/") ? String(revision.dropFirst(remote.count + 1)) : revision))"
        case .commitRefused:
            "git commit"
        case .corruptObject, .corruptPack:
            "git fsck"
        case .failed:
            "git status"
        case .notARepository, .bareRepository, .unknownRevision, .notACommit, .noMergeBase, .nothingToCommit:
            nil
        }
    }

    public var description: String { message }
}

/// `text` as one shell word: unchanged when it holds only safe characters, single-quoted otherwise.
func shellQuoted(_ text: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+@:,=%")
    if !text.isEmpty && text.allSatisfy(safe.contains) { return text }
    return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
