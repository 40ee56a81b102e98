/// A compiled revision as a diff reads it: the plain value (`snapshot`) and what is made from it
/// to compare it, its environments' evaluators, decision lists and rule sequences. The diff asks
/// and keeps nothing: whoever owns the revision's work (`RevisionCache`, above the diffs) makes
/// each once and keeps it for the revision's other comparisons.
public protocol ComparedRevision: Sendable {
    var snapshot: PolicySnapshot { get }
    /// The evaluator of the environment named `name` as `release` reads Android's dynamic rules;
    /// `nil` for an unknown name.
    func evaluator(_ name: String, androidRelease release: AndroidRelease) -> EnvironmentEvaluator?
    /// Every app's decision list of `platform` for `host` in the environment named `name`;
    /// `nil` for an unknown name.
    func decisionLists(_ name: String, androidRelease release: AndroidRelease, host: String, platform: Platform)
        -> [DecisionList]?
    /// The rule sequences of the environment named `name`, empty for an unknown name.
    func ruleSequences(_ name: String) -> RuleSequences
}

extension ComparedRevision {
    public var configuration: Configuration { snapshot.configuration }
    public var compiled: CompiledConfiguration { snapshot.compiled }
    public var diagnostics: [Diagnostic] { snapshot.diagnostics }

    /// The evaluator of the environment named `name`, as the newest Android release reads it.
    public func evaluator(_ name: String) -> EnvironmentEvaluator? { evaluator(name, androidRelease: .latest) }

    func decisionLists(_ name: String, host: String, platform: Platform) -> [DecisionList]? {
        decisionLists(name, androidRelease: .latest, host: host, platform: platform)
    }
}
