/// One side of a check: a configuration, what it compiles to, and the warnings the compiler gave.
public struct PolicySnapshot: Sendable {
    public let configuration: Configuration
    public let compiled: CompiledConfiguration
    public var diagnostics: [Diagnostic]
    /// Evaluators of `compiled`'s environments made so far, shared by every copy of the snapshot.
    private let evaluators = LockedValue<[EvaluatorKey: EnvironmentEvaluator]>([:])

    private struct EvaluatorKey: Hashable {
        var environment: String
        var release: AndroidRelease
    }

    public init(configuration: Configuration, compiled: CompiledConfiguration, diagnostics: [Diagnostic]) {
        self.configuration = configuration
        self.compiled = compiled
        self.diagnostics = diagnostics
    }

    /// The evaluator of the environment named `name`, as `release` reads Android's dynamic rules,
    /// made once per snapshot: a changelog compares each revision with the one before and the
    /// one after it, and those comparisons, on several cores, share it. `nil` for an unknown name.
    public func evaluator(_ name: String, androidRelease release: AndroidRelease = .latest) -> EnvironmentEvaluator? {
        let key = EvaluatorKey(environment: name, release: release)
        if let made = evaluators.withLock({ $0[key] }) { return made }
        let made: EnvironmentEvaluator
        if release != .latest, let latest = evaluator(name) {
            made = latest.reading(androidRelease: release)
        } else {
            guard let environment = compiled.environments.first(where: { $0.name == name }) else { return nil }
            made = EnvironmentEvaluator(environment, androidRelease: release)
        }
        // Two threads may make the same one; the first kept is the one everyone uses next.
        return evaluators.withLock { cache in
            if let first = cache[key] { return first }
            cache[key] = made
            return made
        }
    }

    /// Drops the evaluators made so far, in every copy: a caller done deciding the snapshot's
    /// URLs keeps memory to what it still compares (a changelog holds every revision's snapshot).
    public func forgetEvaluators() { evaluators.withLock { $0 = [:] } }

    /// Loads and compiles `files`; `nil` with the errors when they do not compile.
    public static func make(_ files: [SourceFile]) -> (snapshot: PolicySnapshot?, diagnostics: [Diagnostic]) {
        let (configuration, loadDiagnostics) = ConfigLoader().load(files)
        guard let configuration else { return (nil, loadDiagnostics) }
        let (compiled, compileDiagnostics) = Compiler().compile(configuration)
        let diagnostics = (loadDiagnostics + compileDiagnostics).sorted()
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        return (PolicySnapshot(configuration: configuration, compiled: compiled, diagnostics: diagnostics), diagnostics)
    }
}
