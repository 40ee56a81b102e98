/// Everything kept while compiled revisions are read and compared, with one owner: what
/// revisions share (each configuration file's reading, `ConfigLoader.Readings`; each domain's
/// compilation per environment, with one instance of each association file,
/// `DomainCompilations`; those files as evaluators compile them,
/// `EnvironmentEvaluator.CompiledFiles`; the rule lists the structural diff reads of them,
/// `SharedRuleLists`; the rules of the decision lists made last, `DecisionListLineage`)
/// and, per revision, its evaluators, decision lists, route labels and rule sequences. A
/// revision itself (`PolicySnapshot`) is a plain value; the command comparing
/// revisions makes one cache and passes it, and each revision's work stays here until
/// `release`: a changelog's walk holds the revisions it is comparing, not every one it compared.
/// A fresh cache starts empty (tests, `LINKWRIGHT_CACHES=off`).
public final class RevisionCache: Sendable {
    let readings = ConfigLoader.Readings()
    let compilations = DomainCompilations()
    let compiledFiles = LockedValue(EnvironmentEvaluator.CompiledFiles())
    let ruleLists = SharedRuleLists()
    /// The rules of the decision lists made last, which the next revision's are edits of.
    let listLineage = DecisionListLineage()
    /// The work of each revision not yet released, by `CachedRevision.id`.
    private let work = LockedValue(Revisions())

    private struct Revisions {
        var next = 0
        var held: [Int: RevisionWork] = [:]
    }

    public init() {}

    /// Loads and compiles `files` as a revision of this cache; `nil` with the errors when they
    /// do not compile. Files read and association files compiled for its other revisions are
    /// taken from it.
    public func make(_ files: [SourceFile]) -> (revision: CachedRevision?, diagnostics: [Diagnostic]) {
        let (snapshot, diagnostics) = PolicySnapshot.make(files, readings: readings, compilations: compilations)
        return (snapshot.map(revision), diagnostics)
    }

    /// `snapshot` as a revision of this cache, whose evaluators, decision lists and rule
    /// sequences are made once, on first use, until `release`.
    public func revision(_ snapshot: PolicySnapshot) -> CachedRevision {
        let work = RevisionWork(snapshot)
        let id = self.work.withLock { revisions in
            defer { revisions.next += 1 }
            revisions.held[revisions.next] = work
            return revisions.next
        }
        return CachedRevision(snapshot: snapshot, id: id, cache: self, work: work)
    }

    /// Drops what was made for `revision` (`CachedRevision.release`).
    fileprivate func release(_ revision: CachedRevision) {
        precondition(revision.cache === self, "a revision is released by the cache that made it")
        let work = self.work.withLock { $0.held.removeValue(forKey: revision.id) } ?? revision.work
        let read = work.forget()
        compiledFiles.withLock { $0.release(read) }
    }

    /// Forgets the files read so far but `files`: a changelog reads the revisions it compares
    /// at once, and their snapshots hold what they need; the next revisions it reads are edits
    /// of the last one's `files`, whose values they then share (`DomainCompilations`).
    public func forgetReadings(keeping files: [SourceFile]) { readings.forget(keeping: files) }

    /// How many revisions hold work not yet released, and how many compiled association files
    /// their evaluators keep: what a long run must keep bounded.
    public var held: (revisions: Int, compiledFiles: Int) {
        (work.withLock { $0.held.count }, compiledFiles.withLock { $0.count })
    }
}

/// A compiled revision as one `RevisionCache` holds it: the plain value and the work made from
/// it, shared by every copy until the cache releases it.
public struct CachedRevision: ComparedRevision {
    public let snapshot: PolicySnapshot
    /// Its key in the cache that made it.
    fileprivate let id: Int
    /// The cache that made it, which keeps its work until `release`.
    fileprivate let cache: RevisionCache
    fileprivate let work: RevisionWork

    /// Has its cache drop what was made for it (in every copy of it), done comparing it: a walk
    /// over many revisions keeps the work of those it is comparing. The compiled files its
    /// evaluators read stay while another revision's evaluators read them. A released revision
    /// still answers, making its work again.
    public func release() { cache.release(self) }

    /// The evaluator of the environment named `name`, as `release` reads Android's dynamic rules,
    /// made once: a changelog compares each revision with the one before and the one after it,
    /// and those comparisons, on several cores, share it: a second thread asking for it waits
    /// for it rather than making it again. `nil` for an unknown name.
    public func evaluator(_ name: String, androidRelease release: AndroidRelease) -> EnvironmentEvaluator? {
        let key = RevisionWork.EvaluatorKey(environment: name, release: release)
        let once = work.evaluators.withLock { kept in
            if let known = kept[key] { return known }
            let once = Once<EnvironmentEvaluator?>()
            kept[key] = once
            return once
        }
        return once.value { makeEvaluator(name, androidRelease: release) }
    }

    /// The evaluator `evaluator(_:androidRelease:)` keeps, made outside the cache's locks: two
    /// evaluators of other environments or revisions made at once may both compile a file.
    private func makeEvaluator(_ name: String, androidRelease release: AndroidRelease) -> EnvironmentEvaluator? {
        let made: EnvironmentEvaluator
        let latest = release != .latest ? evaluator(name) : nil
        var files = cache.compiledFiles.withLock { $0 }
        files.beginReading()
        if let latest {
            made = latest.reading(androidRelease: release, sharing: &files)
        } else {
            guard let environment = compiled.environments.first(where: { $0.name == name }) else { return nil }
            made = EnvironmentEvaluator(environment, androidRelease: release, sharing: &files)
        }
        let newlyRead = work.filesRead.withLock { known in
            let new = files.read.subtracting(known)
            known.formUnion(new)
            return new
        }
        cache.compiledFiles.withLock { $0.add(files, readers: newlyRead) }
        return made
    }

    /// Every app's decision list of `platform` for `host` in the environment named `name`, as
    /// `release` reads Android's dynamic rules, made once (see `RevisionWork.decisionLists`). The
    /// newest release's lists carry the rules' routes; an older release's do not, since route
    /// changes are proven on the newest's only. `nil` for an unknown environment.
    public func decisionLists(_ name: String, androidRelease release: AndroidRelease, host: String, platform: Platform)
        -> [DecisionList]?
    {
        guard let evaluator = evaluator(name, androidRelease: release) else { return nil }
        let routes = release == .latest ? work.routeLabels : RouteLabels()
        // Made under the lock: a second thread asking for the same lists waits for them rather
        // than making them again.
        return work.decisionLists.withLock { made in
            DecisionList.lists(
                evaluator, host: host, platform: platform, routes: routes, lineage: cache.listLineage,
                made: &made[release, default: [:]])
        }
    }

    /// The rule sequences of the environment named `name` (empty for an unknown name), made
    /// once: the pairs before and after the revision, compared at once, each asked for them.
    public func ruleSequences(_ name: String) -> RuleSequences {
        let once = work.ruleSequences.withLock { made in
            if let known = made[name] { return known }
            let once = Once<RuleSequences>()
            made[name] = once
            return once
        }
        return once.value {
            compiled.environments.first { $0.name == name }.map(cache.ruleLists.sequences) ?? RuleSequences(nil)
        }
    }
}

/// What a cache made for one revision, shared by the revision's copies.
private final class RevisionWork: Sendable {
    struct EvaluatorKey: Hashable {
        var environment: String
        var release: AndroidRelease
    }

    /// Evaluators of the revision's environments, each made once (`nil`: no such environment).
    let evaluators = LockedValue<[EvaluatorKey: Once<EnvironmentEvaluator?>]>([:])
    /// Decision lists made so far, per Android release (which sets the routes they carry), keyed
    /// as `DecisionList.lists` keys them, by the rules they read: every environment and app
    /// reading a domain's rules shares them, and a changelog proves each revision against the
    /// one before and the one after it with the same lists. Their rules are immutable, so
    /// threads share them.
    let decisionLists = LockedValue<[AndroidRelease: [DecisionList.ListKey: DecisionList]]>([:])
    /// The compiled files the evaluators read, which the cache keeps for them until released.
    let filesRead = LockedValue(EnvironmentEvaluator.CompiledFiles.Keys())
    /// The routes rules name, for the newest release's lists.
    let routeLabels: RouteLabels
    /// Each environment's rule sequences (`StructuralDiff`) made so far: a changelog diffs each
    /// revision against the one before and the one after it.
    let ruleSequences = LockedValue<[String: Once<RuleSequences>]>([:])

    init(_ snapshot: PolicySnapshot) { routeLabels = RouteLabels(snapshot.configuration) }

    /// Drops everything made, returning the compiled files the evaluators read.
    func forget() -> EnvironmentEvaluator.CompiledFiles.Keys {
        evaluators.withLock { $0 = [:] }
        decisionLists.withLock { $0 = [:] }
        ruleSequences.withLock { $0 = [:] }
        return filesRead.withLock { read in
            defer { read = EnvironmentEvaluator.CompiledFiles.Keys() }
            return read
        }
    }
}
