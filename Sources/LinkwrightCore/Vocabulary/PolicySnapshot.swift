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
