/// Each domain's own checks (`ConfigValidator.validate`), kept across validations: consecutive
/// revisions of a fleet's contract change a domain or two each, and checking every other
/// domain's 1,500 expectation URLs again was a twentieth of a changelog's time. The checks read
/// the domain, the environments and the files that did not load; they are taken again when all
/// three equal what they were made with (revisions reading a file alike share its values'
/// storage, which compares at once).
final class CheckedDomains: Sendable {
    private struct Entry: Sendable {
        var domain: Domain
        var environments: [Environment]
        var unloadable: Set<String>
        var diagnostics: [Diagnostic]
    }

    private let kept = RecentVersions<String, Entry>()
    /// The variables each pattern naming one reads (`ConfigValidator.variables(of:)`), by its
    /// exact text, kept across every validation, as they depend on the text alone: a changed
    /// domain's other patterns are those of its revision before, and tokenizing each of them
    /// again was over half of checking a domain of a thousand rules.
    private let variablesOfPattern = LockedValue([ExactText: Result<[String], PatternSyntaxError>]())

    func diagnostics(of domain: Domain, in configuration: Configuration, unloadable: Set<String>) -> [Diagnostic]? {
        kept.newest(of: domain.name) {
            $0.domain == domain && $0.environments == configuration.environments && $0.unloadable == unloadable
        }?.diagnostics
    }

    func forget() { kept.forget() }

    /// `ConfigValidator.variables(of: pattern)`, read once per text.
    func variables(of pattern: String) -> Result<[String], PatternSyntaxError> {
        let key = ExactText(pattern)
        if let known = variablesOfPattern.withLock({ $0[key] }) { return known }
        let read = ConfigValidator.variables(of: pattern)
        variablesOfPattern.withLock { $0[key] = read }
        return read
    }

    func keep(_ diagnostics: [Diagnostic], of domain: Domain, in configuration: Configuration, unloadable: Set<String>)
    {
        let entry = Entry(
            domain: domain, environments: configuration.environments, unloadable: unloadable, diagnostics: diagnostics)
        kept.keep(entry, as: domain.name)
    }
}
