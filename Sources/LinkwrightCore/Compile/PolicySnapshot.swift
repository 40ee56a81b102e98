/// One side of a check: a configuration, what it compiles to, and the warnings the compiler gave.
/// A plain value: what comparisons make of it (evaluators, decision lists, rule sequences) is
/// kept by the `RevisionCache` that compares it.
public struct PolicySnapshot: Sendable {
    public let configuration: Configuration
    public let compiled: CompiledConfiguration
    public var diagnostics: [Diagnostic]

    public init(configuration: Configuration, compiled: CompiledConfiguration, diagnostics: [Diagnostic]) {
        self.configuration = configuration
        self.compiled = compiled
        self.diagnostics = diagnostics
    }

    /// Loads and compiles `files`; `nil` with the errors when they do not compile. Files read
    /// into `readings` and association files compiled into `compilations` before (by other
    /// revisions of one `RevisionCache`) are taken from there.
    public static func make(
        _ files: [SourceFile], readings: ConfigLoader.Readings? = nil, compilations: DomainCompilations? = nil
    ) -> (snapshot: PolicySnapshot?, diagnostics: [Diagnostic]) {
        let (configuration, loadDiagnostics) = ConfigLoader().load(files, reusing: readings)
        guard let configuration else { return (nil, loadDiagnostics) }
        let (compiled, compileDiagnostics) = Compiler().compile(configuration, reusing: compilations)
        let diagnostics = (loadDiagnostics + compileDiagnostics).sorted()
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        return (PolicySnapshot(configuration: configuration, compiled: compiled, diagnostics: diagnostics), diagnostics)
    }
}
