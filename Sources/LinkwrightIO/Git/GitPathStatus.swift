/// Whether a file in the working tree holds work that is not committed.
public enum GitPathStatus: Sendable, Equatable {
    /// Identical in the working tree, the index and HEAD; also a path that exists in none of them.
    case clean
    /// Changed, staged, deleted or in conflict: editing it would mix with uncommitted work.
    case modified
    /// Present only in the working tree and not ignored.
    case untracked
    /// Present only in the working tree and matched by `.gitignore`.
    case ignored
}
