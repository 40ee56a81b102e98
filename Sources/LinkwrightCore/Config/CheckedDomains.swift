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

    func diagnostics(of domain: Domain, in configuration: Configuration, unloadable: Set<String>) -> [Diagnostic]? {
        kept.newest(of: domain.name) {
            $0.domain == domain && $0.environments == configuration.environments && $0.unloadable == unloadable
        }?.diagnostics
    }

    func forget() { kept.forget() }

    func keep(_ diagnostics: [Diagnostic], of domain: Domain, in configuration: Configuration, unloadable: Set<String>)
    {
        let entry = Entry(
            domain: domain, environments: configuration.environments, unloadable: unloadable, diagnostics: diagnostics)
        kept.keep(entry, as: domain.name)
    }
}
