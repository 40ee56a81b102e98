/// What promoting one environment's link contract into another changes, as minimal edits to the
/// YAML files.
///
/// TARGET becomes what it would be if it had everything SOURCE has that it does not: rules and
/// applinks entries limited to SOURCE also apply to TARGET, expectations limited to SOURCE too
/// (replacing TARGET's own expectation for the same URL), and domain contracts SOURCE serves
/// that TARGET does not get a TARGET host, named like TARGET's other hosts. TARGET's own hosts,
/// apps, team, fingerprints and mode are never touched.
public struct PromotionPlan: Sendable {
    public struct Edit: Sendable {
        public var description: String
        public var location: SourceLocation
    }

    public var source: String
    public var target: String
    public var edits: [Edit]
    /// The configuration after the promotion: every file, edited ones replaced.
    public var files: [SourceFile]
    /// Paths (relative to the configuration root) of the files the promotion edits.
    public var editedPaths: [String]
    /// What must not be promoted, and why; a plan with refusals must not be written.
    public var refusals: [Diagnostic]
    /// What SOURCE has that is deliberately not promoted (its mode, hosts, identities, keys).
    public var keptBack: [String]
}

public enum PromotionPlanner {
    public static func plan(
        _ configuration: Configuration, files: [SourceFile], from source: String, to target: String
    ) -> PromotionPlan {
        var planner = Planner(configuration: configuration, files: files, source: source, target: target)
        planner.run()
        return planner.result
    }
}

private struct Planner {
    let configuration: Configuration
    let files: [SourceFile]
    let source: String
    let target: String
    var editors: [String: YAMLTextEditor] = [:]
    var roots: [String: YAMLNode] = [:]
    var edits: [PromotionPlan.Edit] = []
    var refusals = DiagnosticBag()

    init(configuration: Configuration, files: [SourceFile], source: String, target: String) {
        self.configuration = configuration
        self.files = files
        self.source = source
        self.target = target
    }

    var result: PromotionPlan {
        let edited = editors.keys.sorted()
        let promoted = files.map { file in
            editors[file.path].map { SourceFile(path: file.path, bytes: Array($0.applied().utf8)) } ?? file
        }
        return PromotionPlan(
            source: source, target: target, edits: edits.sorted { $0.location < $1.location }, files: promoted,
            editedPaths: edited, refusals: refusals.sorted, keptBack: keptBack)
    }

    mutating func run() {
        for domain in configuration.domains { promoteLimitedItems(of: domain) }
        bindNewDomains()
    }

    /// SOURCE's own settings, identities and custom schemes, which a promotion never carries.
    var keptBack: [String] {
        guard let from = configuration.environment(named: source), let to = configuration.environment(named: target)
        else {
            return []
        }
        var kept: [String] = []
        if let mode = from.mode?.value, mode != to.mode?.value {
            kept.append("entitlements_mode \(mode.rawValue) (?mode=\(mode.rawValue)) stays in \(source)")
        }
        for app in from.apps {
            guard let other = to.app(named: app.name.value) else { continue }
            if let bundle = app.ios?.bundleID.value, bundle != other.ios?.bundleID.value {
                kept.append("\(app.name.value): bundle ID \(bundle) stays in \(source)")
            }
            if let package = app.android?.package.value, package != other.android?.package.value {
                kept.append("\(app.name.value): package \(package) stays in \(source)")
            }
            let targetKeys = Set(other.android?.fingerprints.map(\.fingerprint.value) ?? [])
            for key in app.android?.fingerprints ?? [] where !targetKeys.contains(key.fingerprint.value) {
                kept.append("\(app.name.value): \(key.channel.value) signing key stays in \(source)")
            }
            // A scheme is an app's own, named per build (`com.example.museo.staging`): neither it
            // nor its routes are carried, and the plan says so.
            for scheme in app.schemes {
                let name = scheme.name.value
                guard let same = other.schemes.first(where: { $0.name.value == name }) else {
                    kept.append("\(app.name.value): scheme \(name) stays in \(source)")
                    continue
                }
                if SchemeRouteDiff.routesDiffer(scheme, same) {
                    kept.append("\(app.name.value): the routes of scheme \(name) stay in \(source)")
                }
            }
        }
        return kept
    }

    // MARK: Rules, entries and expectations limited to SOURCE

    private mutating func promoteLimitedItems(of domain: Domain) {
        guard let root = root(domain.file) else { return }
        var promotedURLs: Set<String> = []
        for entry in domain.applinks {
            if let environments = entry.environments,
                promote(environments, in: root, at: entry.location, file: domain.file)
            {
                note(
                    "applinks entry for \(entry.apps.map(\.value).joined(separator: ", ")) now also in \(target)",
                    entry.location)
            }
            for rule in entry.rules {
                guard let environments = rule.environments,
                    promote(environments, in: root, at: rule.location, file: domain.file)
                else { continue }
                note("rule \(rule.path?.value ?? "*") now also in \(target)", rule.location)
            }
        }
        for expectation in domain.expectations {
            guard let environments = expectation.environments else { continue }
            if let host = LinkURL(expectation.url.value)?.host, isSourceOnlyHost(host) {
                if isLimitedToSource(environments) {
                    refusals.report(
                        .promotionRefused,
                        "expectation \(expectation.url.value) is on \(host), a host of \(source) only; it cannot apply to \(target)",
                        at: expectation.url.location,
                        hint: "write the expectation as a path, or keep it limited to \(source)")
                }
                continue
            }
            if promote(environments, in: root, at: expectation.location, file: domain.file) {
                promotedURLs.insert(expectation.url.value)
                note(
                    "expectation \(expectation.url.value) (\(Self.outcome(expectation))) now also in \(target)",
                    expectation.location)
            }
        }
        // A promoted expectation replaces TARGET's own expectation for the same URL.
        for expectation in domain.expectations where promotedURLs.contains(expectation.url.value) {
            guard let environments = expectation.environments, environments.contains(where: { $0.value == target }),
                !environments.contains(where: { $0.value == source })
            else { continue }
            retire(expectation, environments, in: root, domain: domain)
        }
    }

    private func isLimitedToSource(_ environments: [Located<String>]) -> Bool {
        environments.contains { $0.value == source } && !environments.contains { $0.value == target }
    }

    /// Adds TARGET to the `environments` list of the mapping at `location` when it holds SOURCE only.
    private mutating func promote(
        _ environments: [Located<String>], in root: YAMLNode, at location: SourceLocation, file: String
    ) -> Bool {
        guard isLimitedToSource(environments), let list = environmentsNode(in: root, at: location) else { return false }
        let target = self.target
        return edit(file) { try $0.append(target, to: list) }
    }

    private mutating func retire(
        _ expectation: Expectation, _ environments: [Located<String>], in root: YAMLNode, domain: Domain
    ) {
        guard let list = environmentsNode(in: root, at: expectation.location),
            let index = environments.firstIndex(where: { $0.value == target })
        else { return }
        let description =
            "expectation \(expectation.url.value) (\(Self.outcome(expectation))) in \(target) replaced by \(source)'s"
        if environments.count == 1 {
            guard let expectations = Self.value(of: "expectations", in: root),
                case .sequence(let items) = expectations.content,
                let item = items.first(where: { $0.location == expectation.location })
            else { return }
            if edit(domain.file, { try $0.remove(item: item, in: expectations) }) {
                note(description, expectation.location)
            }
        } else if edit(domain.file, { try $0.remove(itemAt: index, of: list) }) {
            note(description, expectation.location)
        }
    }

    // MARK: Domains SOURCE serves and TARGET does not

    private mutating func bindNewDomains() {
        guard let sourceEnvironment = configuration.environment(named: source),
            let targetEnvironment = configuration.environment(named: target)
        else { return }
        let served = Set(targetEnvironment.hosts.map(\.domain.value))
        let label = hostLabelRemoved(from: sourceEnvironment, to: targetEnvironment)
        var added: [String] = []
        for binding in sourceEnvironment.hosts where !served.contains(binding.domain.value) {
            let sourceHost = binding.host.value.name
            guard let label, let derived = Self.removing(label: label, from: sourceHost) else {
                refusals.report(
                    .promotionNeedsHost,
                    "domain \(binding.domain.value) is served in \(source) on \(sourceHost), but \(target) has no host for it "
                        + "and none can be derived from \(target)'s other hosts",
                    at: binding.host.location,
                    hint: "bind a host to \(binding.domain.value) in \(targetEnvironment.file) first")
                continue
            }
            guard !added.contains(derived), !targetEnvironment.hosts.contains(where: { $0.host.value.name == derived })
            else {
                continue
            }
            guard let root = root(targetEnvironment.file), let hosts = Self.value(of: "hosts", in: root) else {
                continue
            }
            let key = derived.hasPrefix("*") ? "\"\(derived)\"" : derived
            if edit(targetEnvironment.file, { try $0.append(key: key, value: binding.domain.value, to: hosts) }) {
                added.append(derived)
                note(
                    "\(derived) serves domain \(binding.domain.value) in \(target) (as \(sourceHost) does in \(source))",
                    hosts.location)
            }
        }
    }

    /// The label SOURCE's hosts have and TARGET's lack, from domains both serve: `staging` for
    /// `staging.museo.example` / `museo.example` and `app.staging.x.example` / `app.x.example`.
    /// `nil` when the pairs disagree or there are none.
    private func hostLabelRemoved(from source: Environment, to target: Environment) -> String? {
        var labels: Set<String> = []
        for binding in source.hosts {
            let sourceLabels = binding.host.value.name.split(separator: ".").map(String.init)
            for other in target.hosts where other.domain.value == binding.domain.value {
                let targetLabels = other.host.value.name.split(separator: ".").map(String.init)
                guard sourceLabels.count == targetLabels.count + 1 else { continue }
                for index in sourceLabels.indices {
                    var without = sourceLabels
                    let removed = without.remove(at: index)
                    if without == targetLabels { labels.insert(removed) }
                }
            }
        }
        return labels.count == 1 ? labels.first : nil
    }

    private static func removing(label: String, from host: String) -> String? {
        var labels = host.split(separator: ".").map(String.init)
        guard let index = labels.firstIndex(of: label) else { return nil }
        labels.remove(at: index)
        guard labels.count >= 2, case .success(let parsed) = Host.parse(labels.joined(separator: ".")) else {
            return nil
        }
        return parsed.name
    }

    private func isSourceOnlyHost(_ host: String) -> Bool {
        let inSource =
            configuration.environment(named: source)?.hosts.contains {
                HostPattern.appleEntitlement($0.host.value.name, matches: host)
            } ?? false
        let inTarget =
            configuration.environment(named: target)?.hosts.contains {
                HostPattern.appleEntitlement($0.host.value.name, matches: host)
            } ?? false
        return inSource && !inTarget
    }

    // MARK: Files and nodes

    private mutating func root(_ path: String) -> YAMLNode? {
        if let root = roots[path] { return root }
        guard let file = files.first(where: { $0.path == path }) else { return nil }
        let root = YAMLParser().parse(file.bytes, file: path).root
        roots[path] = root
        return root
    }

    /// Applies an edit to `path`'s editor; a file the editor cannot change is refused, not half-edited.
    private mutating func edit(_ path: String, _ change: (inout YAMLTextEditor) throws -> Void) -> Bool {
        var editor =
            editors[path] ?? YAMLTextEditor(String(decoding: files.first { $0.path == path }!.bytes, as: UTF8.self))
        do {
            try change(&editor)
        } catch let error as YAMLTextEditor.EditError {
            refusals.report(
                .promotionRefused, "cannot edit \(path): \(error.message)", at: .file(path),
                hint: "make the edit by hand, or write the list in block style")
            return false
        } catch {
            return false
        }
        editors[path] = editor
        return true
    }

    private mutating func note(_ description: String, _ location: SourceLocation) {
        edits.append(PromotionPlan.Edit(description: description, location: location))
    }

    /// The `environments` list of the mapping written at `location`.
    private func environmentsNode(in root: YAMLNode, at location: SourceLocation) -> YAMLNode? {
        Self.mapping(at: location, in: root).flatMap { Self.value(of: "environments", in: $0) }
    }

    static func mapping(at location: SourceLocation, in node: YAMLNode) -> YAMLNode? {
        if node.location == location, case .mapping = node.content { return node }
        switch node.content {
        case .scalar: return nil
        case .sequence(let items): return items.lazy.compactMap { mapping(at: location, in: $0) }.first
        case .mapping(let pairs): return pairs.lazy.compactMap { mapping(at: location, in: $0.value) }.first
        }
    }

    static func value(of key: String, in mapping: YAMLNode) -> YAMLNode? {
        guard case .mapping(let pairs) = mapping.content else { return nil }
        return pairs.first { $0.key.value == key }?.value
    }

    static func outcome(_ expectation: Expectation) -> String {
        switch expectation.outcome {
        case .opensWeb: "opens web"
        case .opensApp(nil): "opens an app"
        case .opensApp(let name?): "opens \(name.value)"
        }
    }
}
