/// What compiling one domain gives one environment: the files every host of the domain serves,
/// the intent-filter scopes of each Android app, what compiling them diagnosed, and the
/// Android translations it used.
struct DomainCompilation: Sendable {
    typealias Files = (aasa: AASADocument?, aasaSize: Int?, assetLinks: AssetLinksDocument?)

    var files: Files
    /// By app name; absent for an app no entry with rules lists.
    var scopes: [String: [PathScope]]
    /// Reported each time the domain is compiled for the environment.
    var diagnostics: [Diagnostic]
    /// Reported once per compile, by the first environment using them (`RuleTranslations`).
    var translations: RuleTranslations
}

/// A domain's rules translated for each platform, kept for the environments after the first:
/// where no entry or rule of the domain names `environments:`, every environment resolves the
/// same entries, so apps listed by the same entries get the same dynamic rules and scopes, and
/// an entry the same AASA components (one array, which the files of every environment share:
/// comparing them then takes no walk through their rules). What a translation diagnoses is
/// kept with it and reported by the first environment of a compile using it: each environment
/// would report the same.
struct RuleTranslations: Sendable {
    struct Key: Hashable, Sendable {
        var domain: String
        /// Nil when the domain resolves alike everywhere.
        var environment: String?
        /// The resolved entries listing the app.
        var positions: [Int]
    }

    /// A translation and what making it diagnosed.
    struct Made<Value: Sendable>: Sendable {
        var value: Value
        var diagnostics: [Diagnostic]
    }

    var dynamicRules: [Key: Made<[DynamicComponent]>] = [:]
    var scopes: [Key: Made<[PathScope]>] = [:]
    /// By the one resolved entry of `Key.positions`.
    var components: [Key: Made<[AASAComponent]>] = [:]

    /// Keeps the translations of `other` not kept yet, and returns what making those diagnosed.
    mutating func add(_ other: RuleTranslations) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (key, made) in other.dynamicRules where dynamicRules[key] == nil {
            dynamicRules[key] = made
            diagnostics += made.diagnostics
        }
        for (key, made) in other.scopes where scopes[key] == nil {
            scopes[key] = made
            diagnostics += made.diagnostics
        }
        for (key, made) in other.components where components[key] == nil {
            components[key] = made
            diagnostics += made.diagnostics
        }
        return diagnostics
    }

    static func key(_ domain: Domain, in environment: String, positions: [Int]) -> Key {
        let uniform = domain.applinks.allSatisfy { entry in
            entry.environments == nil && entry.rules.allSatisfy { $0.environments == nil }
        }
        return Key(domain: domain.name, environment: uniform ? nil : environment, positions: positions)
    }
}

/// Each domain as compiled for each environment, kept across compiles: consecutive revisions of
/// a fleet's contract change a domain or two each, and compiling every other domain again was a
/// tenth of a changelog's time. A compilation is taken again when the domain and what compiling
/// it reads of the environment (its name, team ID and apps) equal those it was made from;
/// revisions reading a file alike (`ConfigLoader.Readings`) share its values' storage, so those
/// compare at once. A domain's compilations kept here share one instance of each distinct
/// association file, so the snapshots compiled with them compare unchanged files at once too
/// (the behaviour diff asking which hosts' files changed, evaluators looking up files compiled
/// before), rather than comparing copies rule by rule.
public final class DomainCompilations: Sendable {
    private struct Key: Hashable, Sendable {
        var environment: String
        var domain: String
    }

    private struct Entry: Sendable {
        var teamID: Located<String>?
        var apps: [AppDefinition]
        var domain: Domain
        var compilation: DomainCompilation
    }

    private let kept = RecentVersions<Key, Entry>()
    /// What the rules of the domains compiled anew compile to, each rule kept by its text.
    let rules = RuleCompilations()

    public init() {}

    /// The compilation of `domain` for `environment` kept before, if any.
    func compilation(of domain: Domain, for environment: Environment) -> DomainCompilation? {
        kept.newest(of: Key(environment: environment.name, domain: domain.name)) {
            $0.domain == domain && $0.apps == environment.apps && $0.teamID == environment.teamID
        }?.compilation
    }

    /// Keeps `compilation`, made of `domain` for `environment`, and returns it with the instance
    /// of each of its files kept before for the same domain and environment where an equal one
    /// was: a domain file changed elsewhere than in its rules, or compiled by two revisions at
    /// once, compiles to files equal to those before. Compared outside the lock.
    func keep(_ compilation: DomainCompilation, of domain: Domain, for environment: Environment) -> DomainCompilation {
        let key = Key(environment: environment.name, domain: domain.name)
        let known = kept.versions(of: key).map(\.compilation.files)
        var shared = compilation
        if let aasa = shared.files.aasa {
            shared.files.aasa = known.lazy.compactMap(\.aasa).first { $0 == aasa } ?? aasa
        }
        if let assetLinks = shared.files.assetLinks {
            shared.files.assetLinks = known.lazy.compactMap(\.assetLinks).first { $0 == assetLinks } ?? assetLinks
        }
        kept.keep(
            Entry(teamID: environment.teamID, apps: environment.apps, domain: domain, compilation: shared), as: key)
        return shared
    }
}
