/// One side of a check: a configuration, what it compiles to, and the warnings the compiler gave.
public struct PolicySnapshot: Sendable {
    public var configuration: Configuration
    public var compiled: CompiledConfiguration
    public var diagnostics: [Diagnostic]

    public init(configuration: Configuration, compiled: CompiledConfiguration, diagnostics: [Diagnostic]) {
        self.configuration = configuration
        self.compiled = compiled
        self.diagnostics = diagnostics
    }

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

/// What a rule sees: the head (the change), the base it is compared with (`nil` when there is
/// none: a first introduction, or a check of the head alone), and the policy settings.
public struct PolicyContext: Sendable {
    public var head: PolicySnapshot
    public var base: PolicySnapshot?
    public var settings: PolicySettings

    public init(head: PolicySnapshot, base: PolicySnapshot?, settings: PolicySettings) {
        self.head = head
        self.base = base
        self.settings = settings
    }
}

extension PolicyContext {
    /// Findings of the engine's static analysis with `id` at the head that the base did not have
    /// (all of them when there is no base): a rule made unreachable or a catch-all added by this
    /// change, however the lines moved.
    func newRuleFindings(_ id: String) -> [ScopedRuleFinding] {
        let analysis = ConfigurationRuleAnalysis()
        let known = Set(base.map { analysis.findings(in: $0.compiled).map(\.identity) } ?? [])
        return analysis.findings(in: head.compiled).filter { $0.finding.id == id && !known.contains($0.identity) }
    }
}
