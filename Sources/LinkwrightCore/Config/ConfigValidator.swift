/// Checks that need more than one value: references between files, per-environment
/// resolution of domain contracts, wildcard hosts, variables used in patterns.
struct ConfigValidator {
    let configuration: Configuration
    /// Names whose files exist but could not be loaded: references to them are not reported
    /// again as undefined.
    let unloadable: Set<String>
    /// Names of the domains defined: thousands of hosts ask for theirs.
    private let domainNames: Set<String>
    var diagnostics = DiagnosticBag()
    /// Each domain's own checks made by validations before.
    private let checked: CheckedDomains?

    init(_ configuration: Configuration, unloadable: Set<String> = [], reusing checked: CheckedDomains? = nil) {
        self.init(
            configuration, unloadable: unloadable, domainNames: Set(configuration.domains.map(\.name)), checked: checked
        )
    }

    /// One validator per domain shares the set of names: making it again for each of
    /// thousands of domains made validation quadratic in their number.
    private init(
        _ configuration: Configuration, unloadable: Set<String>, domainNames: Set<String>,
        checked: CheckedDomains? = nil
    ) {
        self.configuration = configuration
        self.unloadable = unloadable
        self.domainNames = domainNames
        self.checked = checked
    }

    mutating func validate() -> [Diagnostic] {
        let environmentNames = configuration.environments.map(\.name)
        var routeSignatures: [String: (signature: [String], location: SourceLocation)] = [:]
        for environment in configuration.environments {
            checkApps(of: environment)
            checkHosts(of: environment)
        }
        // What reads one domain alone is checked on every core (a fleet's domains hold 100,000
        // expectation URLs to parse); routes, which every domain and scheme must agree on, are
        // checked in order after each domain's own checks, as one pass would report them.
        let (configuration, unloadable, checked, domainNames) = (configuration, unloadable, checked, domainNames)
        let ownChecks = configuration.domains.parallelMap { domain in
            if let known = checked?.diagnostics(of: domain, in: configuration, unloadable: unloadable) { return known }
            var validator = ConfigValidator(configuration, unloadable: unloadable, domainNames: domainNames)
            // Each pattern read once for both checks that need its variables.
            let patterns = Self.patternsReadingVariables(of: domain, known: checked)
            validator.checkVariables(of: domain, patterns: patterns)
            validator.checkAppReferences(of: domain)
            validator.checkPatterns(of: domain, patterns)
            validator.checkEnvironmentReferences(in: domain, known: environmentNames)
            validator.checkExpectations(of: domain)
            checked?.keep(validator.diagnostics.items, of: domain, in: configuration, unloadable: unloadable)
            return validator.diagnostics.items
        }
        let bound = Set(configuration.environments.flatMap { $0.hosts.map(\.domain.value) })
        for (domain, own) in zip(configuration.domains, ownChecks) {
            diagnostics.add(contentsOf: own)
            checkRoutes(of: domain, signatures: &routeSignatures)
            if !bound.contains(domain.name) && !unloadable.contains(where: { $0.hasPrefix("environments/") }) {
                diagnostics.report(
                    .unusedDomain, "domain \(PrintableText.quoted(domain.name)) is not served by any host",
                    at: .file(domain.file),
                    hint: "bind a host to it in an environment (hosts: {example.com: \(domain.name)}), or delete it")
            }
        }
        for environment in configuration.environments { checkSchemes(of: environment, signatures: &routeSignatures) }
        for policy in configuration.policies { checkIgnores(of: policy, known: environmentNames) }
        checkAppFiles()
        checkGeneratedNames()
        return diagnostics.items
    }

    /// Each app file `sync` keeps belongs to one app of one environment: two declarations of one
    /// file would have `sync` write it twice, each undoing the other.
    mutating func checkAppFiles() {
        var first: [String: SourceLocation] = [:]
        for file in configuration.environments.flatMap(\.appFiles) {
            let key = AppFilePath.normalised(file.path.value) ?? file.path.value
            if let earlier = first[key] {
                diagnostics.report(
                    .conflictingKeys,
                    "\(PrintableText.quoted(file.path.value)) is already declared at \(earlier.file):\(earlier.line)",
                    at: file.path.location,
                    hint:
                        "give each app and environment its own file (an entitlements file and Info.plist per build configuration, a manifest per flavor)"
                )
            } else {
                first[key] = file.path.location
            }
        }
    }

    /// An ignore scoped to an environment that does not exist would silently ignore nothing.
    mutating func checkIgnores(of policy: PolicyFile, known: [String]) {
        for name in policy.ignores.compactMap(\.environment)
        where !known.contains(name.value) && !unloadable.contains("environments/" + name.value) {
            diagnostics.report(
                .undefinedEnvironment,
                "ignore names environment \(PrintableText.quoted(name.value)), which is not defined", at: name.location,
                hint: Spelling.closest(to: name.value, among: known).map { "did you mean \(PrintableText.quoted($0))?" }
                    ?? "name one of \(known.joined(separator: ", ")), or leave environment out to ignore everywhere")
        }
    }

    // MARK: Environments

    mutating func checkApps(of environment: Environment) {
        var bundles: [String: String] = [:]
        var packages: [String: String] = [:]
        for app in environment.apps {
            if let ios = app.ios {
                if environment.teamID == nil && ios.teamID == nil {
                    diagnostics.report(
                        .missingTeamID, "iOS app \(PrintableText.quoted(app.name.value)) has no team ID",
                        at: ios.location,
                        hint: "add team_id: to the environment, or to this app")
                }
                if let other = bundles.updateValue(app.name.value, forKey: ios.bundleID.value) {
                    diagnostics.report(
                        .duplicateAppID,
                        "bundle ID \(ios.bundleID.value) is used by \(PrintableText.quoted(other)) and \(PrintableText.quoted(app.name.value))",
                        at: ios.bundleID.location, hint: "each logical app needs its own bundle ID")
                }
            }
            if let android = app.android {
                if let other = packages.updateValue(app.name.value, forKey: android.package.value) {
                    diagnostics.report(
                        .duplicateAppID,
                        "package \(android.package.value) is used by \(PrintableText.quoted(other)) and \(PrintableText.quoted(app.name.value))",
                        at: android.package.location, hint: "each logical app needs its own package")
                }
                if environment.tier.value == .production {
                    for key in android.fingerprints
                    where key.fingerprint.value.value == Fingerprint.publicReactNativeDebugKey {
                        diagnostics.report(
                            .publicDebugKey,
                            "fingerprint \(PrintableText.quoted(key.channel.value)) is the public React Native debug keystore; anyone can sign an app with it",
                            at: key.fingerprint.location,
                            hint: "remove it from production and use the Play App Signing key")
                    }
                }
            }
        }
        // A domain that is missing or broken uses apps nobody can see: do not call them unused.
        let servesUnknown = environment.hosts.contains { !domainNames.contains($0.domain.value) }
        // Thousands of hosts serve a few dozen domains: resolve each domain once.
        let used = Set(
            Set(environment.hosts.map(\.domain.value)).flatMap { name in
                configuration.domain(named: name).map { Resolution.referencedApps($0, in: environment.name) } ?? []
            })
        for app in environment.apps where !used.contains(app.name.value) && !servesUnknown {
            diagnostics.report(
                .unusedApp,
                "app \(PrintableText.quoted(app.name.value)) is not used by any domain served in \(environment.name)",
                at: app.name.location, hint: "list it in a domain served by this environment, or remove it")
        }
    }

    mutating func checkHosts(of environment: Environment) {
        var byHost: [Host: HostBinding] = [:]
        for binding in environment.hosts { byHost[binding.host.value] = binding }
        for binding in environment.hosts {
            let domainName = binding.domain.value
            guard domainNames.contains(domainName) else {
                if !unloadable.contains("domains/" + domainName) {
                    let known = configuration.domains.map(\.name)
                    diagnostics.report(
                        .undefinedDomain,
                        "host \(binding.host.value) serves domain \(PrintableText.quoted(domainName)), which is not defined",
                        at: binding.domain.location,
                        hint: Spelling.closest(to: domainName, among: known).map {
                            "did you mean \(PrintableText.quoted($0))?"
                        }
                            ?? "create domains/\(domainName).yaml")
                }
                continue
            }
            guard binding.host.value.isWildcard else { continue }
            let root = binding.host.value.fileHost
            if let rootBinding = byHost[root] {
                if rootBinding.domain.value != domainName {
                    diagnostics.report(
                        .wildcardRootConflict,
                        "\(binding.host.value) serves \(PrintableText.quoted(domainName)) but \(root) serves \(PrintableText.quoted(rootBinding.domain.value)); both read the association files of \(root)",
                        at: binding.domain.location,
                        hint: "serve the same domain on both, or list the subdomains one by one")
                }
            } else {
                diagnostics.report(
                    .wildcardWithoutRoot,
                    "\(binding.host.value) is declared but \(root) is not; devices fetch the association files of \(binding.host.value) from \(root)",
                    at: binding.host.location,
                    hint: "add \(root): \(domainName) so the root host serves the files and its own links")
            }
        }
    }

    /// Apps a domain names must exist in at least one environment (else it is a typo). An
    /// environment without the app simply leaves it out of its files: a production-only app
    /// needs no `environments:` list.
    mutating func checkAppReferences(of domain: Domain) {
        let defined = configuration.environments.flatMap { $0.apps.map(\.name.value) }.uniqued()
        let isDefined = Set(defined)
        let statementApps = domain.assetStatements.compactMap(\.app)
        let references =
            domain.applinks.flatMap(\.apps) + AssociatedService.appListServices.flatMap { domain.apps(of: $0) }
            + statementApps
        let brokenEnvironment =
            configuration.environments.isEmpty || unloadable.contains { $0.hasPrefix("environments/") }
        for name in references where !isDefined.contains(name.value) && !brokenEnvironment {
            diagnostics.report(
                .undefinedApp, "app \(PrintableText.quoted(name.value)) is not defined in any environment",
                at: name.location,
                hint: Spelling.closest(to: name.value, among: defined).map {
                    "did you mean \(PrintableText.quoted($0))?"
                }
                    ?? "define it under apps: in an environment file")
        }
        // A statement is about an Android app's package and keys: an app with none is never in it.
        for name in statementApps where isDefined.contains(name.value) && !brokenEnvironment {
            guard !configuration.environments.contains(where: { $0.app(named: name.value)?.android != nil }) else {
                continue
            }
            diagnostics.report(
                .invalidValue,
                "app \(PrintableText.quoted(name.value)) has no Android package in any environment, so no statement is built for it",
                at: name.location, hint: "add its android: package and fingerprints, or name a site instead")
        }
        for entry in domain.applinks where entry.androidSemantics?.value == true {
            for name in entry.apps
            where configuration.environments.contains(where: { $0.app(named: name.value)?.ios != nil }) {
                diagnostics.report(
                    .androidSemanticsOnIOS,
                    "app \(PrintableText.quoted(name.value)) has an iOS build, which reads these rules with Apple's semantics, not Android's",
                    at: name.location, hint: "keep android_semantics entries to Android-only apps")
            }
        }
        for environment in configuration.environments {
            for name in domain.apps(of: .activitycontinuation) {
                guard let app = environment.app(named: name.value), app.ios == nil else { continue }
                diagnostics.report(
                    .appPlatformMismatch,
                    "app \(PrintableText.quoted(name.value)) has no iOS build in \(environment.name); Handoff is iOS only",
                    at: name.location, hint: "remove it from activitycontinuation, or add an ios: block")
            }
            for name in domain.apps(of: .appclips) {
                guard let app = environment.app(named: name.value), app.ios?.isAppClip != true else { continue }
                diagnostics.report(
                    .appPlatformMismatch,
                    "app \(PrintableText.quoted(name.value)) is not an App Clip in \(environment.name)",
                    at: name.location, hint: "set ios.app_clip: true on it, or list it under applinks instead")
            }
        }
    }

    // MARK: Domains

    /// Patterns of a domain, each with the variables it names in order (as
    /// `PatternSyntax.tokens` reads it), or why it does not parse.
    typealias ReadPatterns = [(Located<String>, Result<[String], PatternSyntaxError>)]

    /// The patterns of `domain` (`Resolution.patterns(of:)`, in order) that name a variable or
    /// do not parse: only those give either check anything to say. Only `$(` names a variable
    /// or fails to parse, so a pattern without `$` (nearly every one) is not read further; the
    /// others' variables are taken from `known` where read before. Each rule is read through a
    /// pointer: a copy per rule retained every text it holds.
    static func patternsReadingVariables(of domain: Domain, known: CheckedDomains? = nil) -> ReadPatterns {
        var read: ReadPatterns = []
        for entry in domain.applinks {
            entry.rules.withUnsafeBufferPointer { rules in
                for index in rules.indices {
                    Resolution.forEachPattern(of: rules[index]) { pattern, location in
                        let dollar = UInt8(ascii: "$")
                        guard
                            pattern.utf8.withContiguousStorageIfAvailable({ $0.contains(dollar) })
                                ?? pattern.utf8.contains(dollar)
                        else { return }
                        let variables = known?.variables(of: pattern) ?? Self.variables(of: pattern)
                        if case .success(let names) = variables, names.isEmpty { return }
                        read.append((Located(pattern, at: location), variables))
                    }
                }
            }
        }
        return read
    }

    /// The variables `pattern` names, in order, or why it does not parse.
    static func variables(of pattern: String) -> Result<[String], PatternSyntaxError> {
        PatternSyntax.tokens(pattern).map { tokens in
            tokens.compactMap { token -> String? in
                guard case .variable(let name) = token else { return nil }
                return name
            }
        }
    }

    mutating func checkVariables(of domain: Domain, patterns: ReadPatterns) {
        // Most domains define none: their patterns need not be searched for the names they use.
        guard !domain.variables.isEmpty else { return }
        var used: Set<String> = []
        for case (_, .success(let names)) in patterns { used.formUnion(names) }
        // Swift compares names as Unicode canonical equivalence: `café` in NFC and NFD is one
        // key here, and two keys Apple reads apart in the file linkwright writes.
        var first: [String: SourceLocation] = [:]
        for variable in domain.variables {
            let name = variable.name.value
            if let earlier = first[name] {
                diagnostics.report(
                    .duplicateKey,
                    "variable \(PrintableText.quoted(name)) is the variable at line \(earlier.line), column \(earlier.column) "
                        + "written in another Unicode normal form",
                    at: variable.name.location,
                    hint: "spell the name one way (NFC, as most editors type it) and keep one")
                continue
            }
            first[name] = variable.name.location
            if PatternSyntax.predefinedVariables.contains(name) {
                diagnostics.report(
                    .variableShadowsPredefined,
                    "variable \(PrintableText.quoted(name)) has the name of Apple's predefined $(\(name))",
                    at: variable.name.location, hint: "rename it; $(\(name)) already means Apple's list")
            }
            if name.contains(where: { "$()".contains($0) }) {
                diagnostics.report(
                    .invalidVariableName, "variable name \(PrintableText.quoted(name)) contains $, ( or )",
                    at: variable.name.location,
                    hint: "Apple allows any character in a variable name except $, ( and )")
            }
            if variable.values.isEmpty {
                diagnostics.report(
                    .missingValue, "variable \(PrintableText.quoted(name)) has no values", at: variable.name.location,
                    hint: "list the strings $(\(PrintableText.excerpt(name))) stands for")
            }
            for value in variable.values where value.value.contains("$(") {
                diagnostics.report(
                    .variableInVariable,
                    "value \(PrintableText.quoted(value.value)) of variable \(PrintableText.quoted(name)) uses another variable",
                    at: value.location, hint: "Apple allows * and ? in values, but not other variables")
            }
            if !used.contains(name) {
                diagnostics.report(
                    .unusedVariable, "variable \(PrintableText.quoted(name)) is not used by any pattern",
                    at: variable.name.location,
                    hint: "use it as $(\(PrintableText.excerpt(name))) in a rule, or remove it")
            }
        }
    }

    mutating func checkPatterns(of domain: Domain, _ patterns: ReadPatterns) {
        let defined = Set(domain.variables.map(\.name.value)).union(PatternSyntax.predefinedVariables)
        for (pattern, tokens) in patterns {
            switch tokens {
            case .failure(.unterminatedVariable):
                diagnostics.report(
                    .unterminatedVariable, "pattern \(PrintableText.quoted(pattern.value)) has a $( without its )",
                    at: pattern.location,
                    hint: "close the variable: $(name)")
            case .failure(.emptyVariableName):
                diagnostics.report(
                    .undefinedVariable, "pattern \(PrintableText.quoted(pattern.value)) has an empty $()",
                    at: pattern.location,
                    hint: "name a variable inside $()")
            case .success(let names):
                for name in names where !defined.contains(name) {
                    let suggestion = Spelling.closest(to: name, among: defined.sorted())
                    diagnostics.report(
                        .undefinedVariable,
                        "pattern \(PrintableText.quoted(pattern.value)) uses $(\(name)), which is not defined",
                        at: pattern.location,
                        hint: suggestion.map { "did you mean $(\($0))?" } ?? "define it under variables:")
                }
            }
        }
        for entry in domain.applinks where entry.rules.isEmpty {
            diagnostics.report(
                .missingValue, "an applinks entry needs at least one rule", at: entry.location,
                hint: "add rules, e.g. - path: \"*\"")
        }
    }

    mutating func checkEnvironmentReferences(in domain: Domain, known: [String]) {
        var lists = domain.applinks.compactMap(\.environments)
        lists += domain.applinks.flatMap { $0.rules.compactMap(\.environments) }
        lists += domain.expectations.compactMap(\.environments)
        for name in lists.joined()
        where !known.contains(name.value) && !unloadable.contains("environments/" + name.value) {
            diagnostics.report(
                .undefinedEnvironment, "environment \(PrintableText.quoted(name.value)) is not defined",
                at: name.location,
                hint: Spelling.closest(to: name.value, among: known).map { "did you mean \(PrintableText.quoted($0))?" }
                    ?? "create environments/\(PrintableText.excerpt(name.value)).yaml")
        }
    }
}
