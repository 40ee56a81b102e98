/// What a build does to its output folder, file by file (paths relative to the folder): worked
/// out before anything is written, so `build --check` and `build` report the same plan.
public struct OutputPlan: Equatable, Sendable {
    public var created: [String] = []
    public var changed: [String] = []
    public var unchanged: [String] = []
    /// Files an earlier build wrote for environments in scope that this build no longer
    /// produces, unchanged since: `apply` removes them.
    public var stale: [String] = []
    /// Files an earlier build wrote that are no longer produced but are not removed: edited
    /// since, recorded without a hash, or no longer a plain file.
    public var kept: [KeptFile] = []
    /// What an interrupted build left behind: a journal, staging folders, temporary files.
    public var leftovers: [String] = []
    /// A journal or staging folder no build on this machine wrote (a repository can carry one):
    /// never acted on; `build` stops naming it, `build --check` reports it.
    public var foreign: [KeptFile] = []

    public init() {}

    public var isUpToDate: Bool {
        created.isEmpty && changed.isEmpty && stale.isEmpty && leftovers.isEmpty && foreign.isEmpty
    }

    public struct KeptFile: Equatable, Sendable {
        public var path: String
        public var reason: String

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }
}
