/// One side of a check: a configuration, what it compiles to, and the warnings the compiler gave.
public struct PolicySnapshot: Sendable {
    public let configuration: Configuration
    public let compiled: CompiledConfiguration
    public var diagnostics: [Diagnostic]
    /// Evaluators of `compiled`'s environments made so far, shared by every copy of the snapshot.
    private let evaluators = LockedValue<[EvaluatorKey: EnvironmentEvaluator]>([:])

    /// Decision lists made so far, per Android release (which sets the routes they carry), keyed
    /// as `DecisionList.lists` keys them, by the rules they read: every environment and app
    /// reading a domain's rules shares them, and a changelog proves each revision against the
    /// one before and the one after it with the same lists. Their rules are immutable, so
    /// threads share them.
    private let decisionLists = LockedValue<[AndroidRelease: [DecisionList.ListKey: DecisionList]]>([:])
    /// The files compiled for the evaluators made so far, which later environments serving the
    /// same rules take (`EnvironmentEvaluator.CompiledFiles`), and so do other snapshots made
    /// with the same `Reuse`: a changelog's revisions of a fleet's contract change a few
    /// domains each.
    private let reuse: Reuse
    /// The compiled files this snapshot's evaluators read, which `reuse` keeps for it until
    /// `forgetEvaluators`.
    private let filesRead = LockedValue(EnvironmentEvaluator.CompiledFiles.Keys())
    /// The routes rules name, for the newest release's lists.
    private let routeLabels: RouteLabels
    /// Each environment's rule sequences (`StructuralDiff`) made so far: a changelog diffs each
    /// revision against the one before and the one after it.
    private let ruleSequenceMemo = LockedValue<[String: RuleSequences]>([:])

    private struct EvaluatorKey: Hashable {
        var environment: String
        var release: AndroidRelease
    }

    public init(
        configuration: Configuration, compiled: CompiledConfiguration, diagnostics: [Diagnostic],
        reusing reuse: Reuse = Reuse()
    ) {
        self.configuration = configuration
        self.compiled = compiled
        self.diagnostics = diagnostics
        self.reuse = reuse
        routeLabels = RouteLabels(configuration)
    }

    /// The evaluator of the environment named `name`, as `release` reads Android's dynamic rules,
    /// made once per snapshot: a changelog compares each revision with the one before and the
    /// one after it, and those comparisons, on several cores, share it. `nil` for an unknown name.
    public func evaluator(_ name: String, androidRelease release: AndroidRelease = .latest) -> EnvironmentEvaluator? {
        let key = EvaluatorKey(environment: name, release: release)
        if let made = evaluators.withLock({ $0[key] }) { return made }
        let made: EnvironmentEvaluator
        let latest = release != .latest ? evaluator(name) : nil
        // Made outside the lock; two evaluators made at once may both compile a file.
        var files = reuse.compiledFiles.withLock { $0 }
        files.beginReading()
        if let latest {
            made = latest.reading(androidRelease: release, sharing: &files)
        } else {
            guard let environment = compiled.environments.first(where: { $0.name == name }) else { return nil }
            made = EnvironmentEvaluator(environment, androidRelease: release, sharing: &files)
        }
        let newlyRead = filesRead.withLock { known in
            let new = files.read.subtracting(known)
            known.formUnion(new)
            return new
        }
        reuse.compiledFiles.withLock { $0.add(files, readers: newlyRead) }
        // Two threads may make the same one; the first kept is the one everyone uses next.
        return evaluators.withLock { cache in
            if let first = cache[key] { return first }
            cache[key] = made
            return made
        }
    }

    /// Every app's decision list of `platform` for `host` in the environment named `name`, as
    /// `release` reads Android's dynamic rules, made once per snapshot (see `decisionLists`).
    /// The newest release's lists carry the rules' routes; an older release's do not, since
    /// route changes are proven on the newest's only. `nil` for an unknown environment.
    func decisionLists(
        _ name: String, androidRelease release: AndroidRelease = .latest, host: String, platform: Platform
    )
        -> [DecisionList]?
    {
        guard let evaluator = evaluator(name, androidRelease: release) else { return nil }
        let routes = release == .latest ? routeLabels : RouteLabels()
        // Made under the lock: a second thread asking for the same lists waits for them rather
        // than making them again.
        return decisionLists.withLock { made in
            DecisionList.lists(
                evaluator, host: host, platform: platform, routes: routes, made: &made[release, default: [:]])
        }
    }

    /// The rule sequences of the environment named `name` (empty for an unknown name), made once
    /// per snapshot.
    func ruleSequences(_ name: String) -> RuleSequences {
        if let made = ruleSequenceMemo.withLock({ $0[name] }) { return made }
        let made = RuleSequences(compiled.environments.first { $0.name == name }, sharing: reuse.ruleLists)
        ruleSequenceMemo.withLock { $0[name] = made }
        return made
    }

    /// Drops the evaluators, decision lists and rule sequences made so far, in every copy: a
    /// caller done comparing the snapshot keeps memory to what it still compares (a changelog
    /// holds every revision's snapshot). The compiled files its evaluators read stay in its
    /// `Reuse` while another snapshot's evaluators read them.
    public func forgetEvaluators() {
        evaluators.withLock { $0 = [:] }
        decisionLists.withLock { $0 = [:] }
        ruleSequenceMemo.withLock { $0 = [:] }
        let read = filesRead.withLock { read in
            defer { read = EnvironmentEvaluator.CompiledFiles.Keys() }
            return read
        }
        reuse.compiledFiles.withLock { $0.release(read) }
    }

    /// What snapshots made with the same `Reuse` share: each configuration file's reading
    /// (`ConfigLoader.Readings`), each domain's compilation for each environment, with one
    /// instance of each association file (`DomainCompilations`), the rule lists the structural
    /// diff reads of those files (`SharedRuleLists`), and those files as their evaluators
    /// compiled them (`EnvironmentEvaluator.CompiledFiles`).
    public final class Reuse: Sendable {
        fileprivate let readings = ConfigLoader.Readings()
        let compiledFiles = LockedValue(EnvironmentEvaluator.CompiledFiles())
        fileprivate let compilations = DomainCompilations()
        fileprivate let ruleLists = SharedRuleLists()

        public init() {}

        /// Forgets the files read so far: a changelog reads the revisions it compares at once,
        /// and their snapshots hold what they need.
        public func forgetReadings() { readings.forget() }
    }

    /// Loads and compiles `files`; `nil` with the errors when they do not compile. Files read
    /// and association files compiled for other snapshots made with `reuse` are taken from it.
    public static func make(_ files: [SourceFile], reusing reuse: Reuse = Reuse()) -> (
        snapshot: PolicySnapshot?, diagnostics: [Diagnostic]
    ) {
        let (configuration, loadDiagnostics) = ConfigLoader().load(files, reusing: reuse.readings)
        guard let configuration else { return (nil, loadDiagnostics) }
        let (compiled, compileDiagnostics) = Compiler().compile(configuration, reusing: reuse.compilations)
        let diagnostics = (loadDiagnostics + compileDiagnostics).sorted()
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        return (
            PolicySnapshot(configuration: configuration, compiled: compiled, diagnostics: diagnostics, reusing: reuse),
            diagnostics
        )
    }
}
