import CGit2

extension GitRepository {
    /// The URL of the remote `origin` as configured (`https://github.com/o/r.git`,
    /// `git@github.com:o/r.git`), or `nil` when there is none: what release notes link to.
    public func originURL() -> String? {
        var remote: OpaquePointer?
        guard git_remote_lookup(&remote, handle, "origin") == 0, let remote else { return nil }
        defer { git_remote_free(remote) }
        return git_remote_url(remote).map { String(cString: $0) }
    }
}
