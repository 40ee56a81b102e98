/// Translates Apple-style rules to what Android understands: intent-filter path scopes (static,
/// every Android version) and Android 15 `dynamic_app_link_components`. Where Android cannot say
/// the same thing it says a wider thing, and a diagnostic names the difference.
///
/// Differences handled here (see docs/semantics.md):
/// - Android dynamic rules have no substitution variables: custom variables are expanded into
///   one component per value (up to `expansionLimit`), Apple's predefined ones are widened.
/// - They have no `caseSensitive`; Android compares as written.
/// - Their `?` takes query items only (Google's configure-assetlinks page documents no string form,
///   and AOSP's StatementParser drops a string).
/// - Apple's `/buy/*` also matches `/buy` (swcutil captures); a parent component keeps that.
struct AndroidTranslator {
    static let expansionLimit = 64

    let domain: Domain
    var diagnostics = DiagnosticBag()

    init(domain: Domain) { self.domain = domain }

    // MARK: Dynamic rules

    /// A rule's dynamic components and what translating it diagnosed.
    struct Translation {
        var components: [DynamicComponent]
        var diagnostics: [Diagnostic]
    }

    /// The dynamic components `rule` of `entry` gives, and what translating it diagnosed.
    static func dynamicComponents(for rule: Rule, in entry: AppLinksEntry, of domain: Domain) -> Translation {
        var translator = AndroidTranslator(domain: domain)
        let components = translator.dynamicComponents(for: rule, in: entry)
        return Translation(components: components, diagnostics: translator.diagnostics.items)
    }

    mutating func dynamicComponents(for rule: Rule, in entry: AppLinksEntry) -> [DynamicComponent] {
        if entry.androidSemantics?.value != true {
            for flag in rule.effectiveFlags(in: entry, of: domain).departures {
                guard let loss = flag.androidLoss else { continue }
                diagnostics.report(loss.id, loss.message, at: rule.location, hint: loss.hint)
            }
        }
        var query: [AASAQueryItem]?
        switch rule.query?.value {
        case .whole(let pattern) where pattern != "*":
            diagnostics.report(
                .androidQueryString, "Android dynamic rules match query items, not a whole query string",
                at: rule.query!.location, hint: "write query as items, e.g. query: {source: \"?*\"}")
        case .items(let items):
            query = items.map { AASAQueryItem(name: $0.name, pattern: $0.pattern) }
        default: break
        }
        var widened = false
        let paths: [String?] = rule.path.map { expand(Self.withLeadingSlash($0.value), widened: &widened) } ?? [nil]
        let fragments: [String?] = rule.fragment.map { expand($0.value, widened: &widened) } ?? [nil]
        if let query {
            for item in query where !PatternSyntax.variableNames(item.pattern).isEmpty { widened = true }
        }
        let widenedQuery = query?.map { AASAQueryItem(name: $0.name, pattern: Self.widenAll($0.pattern)) }
        if widened {
            let variables = Set(Resolution.patterns(of: rule).flatMap { PatternSyntax.variableNames($0.value) })
                .filter { name in
                    !domain.variables.contains { $0.name.value == name && $0.values.count <= Self.expansionLimit }
                }
                .sorted().map { "$(\($0))" }
            diagnostics.report(
                .androidPatternWidened,
                "Android dynamic rules have no substitution variables: \(variables.joined(separator: ", ")) becomes a wildcard, so on Android this rule matches more URLs than on iOS",
                at: rule.location,
                hint: "list the values in a custom variable (expanded exactly), or accept the difference")
        }
        var components: [DynamicComponent] = []
        for path in paths {
            for fragment in fragments {
                let make = { (path: String?) in
                    DynamicComponent(
                        path: path, query: widenedQuery, fragment: fragment, exclude: rule.exclude,
                        comments: rule.comment,
                        origin: rule.location)
                }
                if let path, path.hasSuffix("/*"), path.count > 2, entry.androidSemantics?.value != true {
                    components.append(make(String(path.dropLast(2))))
                }
                components.append(make(path))
            }
        }
        return components
    }

    /// Every concrete pattern a pattern stands for once custom variables are replaced by their
    /// values and predefined ones by wildcards.
    func expand(_ pattern: String, widened: inout Bool) -> [String] {
        // Without `$` there is no variable: every token is written back as it was read, so the
        // pattern is its one expansion. Most rules are such, and tokenising and rebuilding each
        // was half of translating a domain's rules.
        guard pattern.utf8.contains(UInt8(ascii: "$")) else { return [pattern] }
        return expandByTokens(pattern, widened: &widened)
    }

    /// `expand`, read token by token whatever the pattern holds.
    func expandByTokens(_ pattern: String, widened: inout Bool) -> [String] {
        guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { return [pattern] }
        // Each result grows in place, as UTF-8 bytes made into a string once: a new array of
        // new strings per character, then a string grown a scalar at a time, cost most of
        // compiling a large domain's dynamic rules.
        var results: [[UInt8]] = [[]]
        func appendToEach(_ text: String) {
            for index in results.indices { results[index].append(contentsOf: text.utf8) }
        }
        for token in tokens {
            switch token {
            case .literal(let scalar):
                for index in results.indices { results[index].append(utf8Of: scalar) }
            case .one: appendToEach("?")
            case .any: appendToEach("*")
            case .variable(let name):
                let values = domain.variables.first { $0.name.value == name }?.values.map(\.value)
                if let values, results.count * values.count <= Self.expansionLimit {
                    results = results.flatMap { prefix in values.map { prefix + $0.utf8 } }
                } else {
                    widened = true
                    appendToEach(Self.wildcard(forVariable: name))
                }
            }
        }
        return results.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func widenAll(_ pattern: String) -> String {
        guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { return pattern }
        return tokens.map { token in
            switch token {
            case .literal(let scalar): String(scalar)
            case .one: "?"
            case .any: "*"
            case .variable(let name): wildcard(forVariable: name)
            }
        }.joined()
    }

    /// Apple's single-character classes become `?`; everything else becomes `?*`.
    private static func wildcard(forVariable name: String) -> String {
        ["alpha", "upper", "lower", "alnum", "digit", "xdigit"].contains(name) ? "?" : "?*"
    }

    static func withLeadingSlash(_ pattern: String) -> String {
        // The first scalar, not Character: `/` followed by a combining mark is one Character.
        let first = pattern.unicodeScalars.first
        return first == "/" || first == "*" ? pattern : "/" + pattern
    }

    // MARK: Static scope

    /// The intent-filter path attributes that cover every positive rule: exact where the rule
    /// is literal or uses `?` only, else the literal prefix before the first wildcard.
    static func staticScopes(for rules: [(AppLinksEntry, Rule)], domain: Domain) -> [PathScope] {
        covering(rules.filter { !$0.1.exclude }.flatMap { ruleScopes($0.1, entry: $0.0, domain: domain) })
    }

    /// `ruleScopes`, the positive rules' scopes in order, each once and without those another
    /// one's prefix covers.
    static func covering(_ ruleScopes: [PathScope]) -> [PathScope] {
        let scopes = ruleScopes.uniqued()
        let prefixes = PrefixCover(
            scopes.compactMap { scope -> String? in
                if case .prefix(let prefix) = scope { return prefix }
                return nil
            })
        return scopes.filter { scope in
            switch scope {
            case .path(let path): return !prefixes.covers(path, properly: false)
            case .prefix(let prefix): return !prefixes.covers(prefix, properly: true)
            case .pattern(let pattern): return !prefixes.covers(literalHead(ofAndroidPattern: pattern), properly: false)
            }
        }
    }

    /// The path pattern a rule's scopes are made of.
    static func scopedPattern(_ rule: Rule) -> String { withLeadingSlash(rule.path?.value ?? "*") }

    /// The scopes covering one positive rule, read with its effective flags.
    static func ruleScopes(_ rule: Rule, entry: AppLinksEntry, domain: Domain) -> [PathScope] {
        let pattern = scopedPattern(rule)
        guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { return [.prefix("/")] }
        let flags = rule.effectiveFlags(in: entry, of: domain)
        /// Whether Android, reading the decoded path as written, reads `scalar` as Apple does.
        func readsAlike(_ scalar: Unicode.Scalar) -> Bool {
            ComponentFlag.allCases.allSatisfy { $0.androidReadsAlike(scalar, at: flags[$0]) }
        }
        // Stop where the pattern could mean another spelling on Android.
        let literalEnd =
            tokens.firstIndex { token in
                guard case .literal(let scalar) = token else { return true }
                return !readsAlike(scalar)
            } ?? tokens.endIndex
        var literalBytes: [UInt8] = []
        for case .literal(let scalar) in tokens[..<literalEnd] { literalBytes.append(utf8Of: scalar) }
        let literal = String(decoding: literalBytes, as: UTF8.self)
        if literalEnd == tokens.endIndex {
            // Apple ignores trailing slashes (swcutil captures): cover both spellings.
            let bare = literal.count > 1 && literal.hasSuffix("/") ? String(literal.dropLast()) : literal
            return bare == "/" ? [.path("/")] : [.path(bare), .path(bare + "/")]
        }
        if literalEnd == tokens.count - 1, tokens.last == .any, literal.hasSuffix("/"), literal.count > 1 {
            // Apple's `/buy/*` also matches `/buy`.
            return [.path(String(literal.dropLast())), .prefix(literal)]
        }
        let onlyOneWildcards = tokens[literalEnd...].allSatisfy { token in
            if case .literal(let scalar) = token { return readsAlike(scalar) }
            return token == .one
        }
        if onlyOneWildcards {
            let androidPattern = tokens.map { token -> String in
                guard case .literal(let scalar) = token else { return "." }
                return ".*\\".unicodeScalars.contains(scalar) ? "\\\\" + String(scalar) : String(scalar)
            }.joined()
            return [.pattern(androidPattern), .pattern(androidPattern + "/")]
        }
        return [.prefix(literal.isEmpty ? "/" : literal)]
    }

    private static func literalHead(ofAndroidPattern pattern: String) -> String {
        String(pattern.prefix { $0 != "." && $0 != "\\" && $0 != "*" })
    }

    /// Without dynamic rules Android has no exclusions: an exclude rule whose URLs fall inside the
    /// static scope opens the app on Android while iOS keeps it on the web.
    static func ignoredExclusions(_ rules: [(AppLinksEntry, Rule)], scopes: [PathScope], domain: Domain) -> [Diagnostic]
    {
        rules.compactMap { entry, rule -> Diagnostic? in
            guard rule.exclude else { return nil }
            let excluded = staticScopes(
                for: [
                    (
                        entry,
                        Rule(
                            path: rule.path, query: nil, fragment: nil, exclude: false,
                            comment: nil, flags: rule.flags, environments: nil, location: rule.location)
                    )
                ], domain: domain)
            let overlapping = scopes.first { scope in excluded.contains { overlaps(scope, $0) } }
            guard let overlapping else { return nil }
            return Diagnostic(
                .androidExclusionIgnored,
                "Android has no exclusions without dynamic rules: these URLs open the app on Android through the intent-filter scope \(overlapping.attribute)",
                at: rule.location,
                hint:
                    "set emit.android_dynamic_rules: true (Android 15+), or narrow the rules so their scope leaves these URLs out"
            )
        }
    }

    private static func overlaps(_ a: PathScope, _ b: PathScope) -> Bool {
        func head(_ scope: PathScope) -> (String, Bool) {
            switch scope {
            case .path(let path): (path, false)
            case .prefix(let prefix): (prefix, true)
            case .pattern(let pattern): (literalHead(ofAndroidPattern: pattern), true)
            }
        }
        let (x, xOpen) = head(a)
        let (y, yOpen) = head(b)
        return x == y || (xOpen && y.hasPrefix(x)) || (yOpen && x.hasPrefix(y))
    }
}

extension PathScope {
    /// The `<data>` attribute, as written in the manifest.
    public var attribute: String {
        switch self {
        case .path(let path): "android:path=\"\(XMLText.escaped(path))\""
        case .prefix(let prefix): "android:pathPrefix=\"\(XMLText.escaped(prefix))\""
        case .pattern(let pattern): "android:pathPattern=\"\(XMLText.escaped(pattern))\""
        }
    }
}

/// Whether a `pathPrefix` scope already covers a path, answered by bisection rather than by a
/// scan of every prefix, quadratic in a domain's rules. Prefixes are
/// compared as UTF-8 bytes, as Android's `startsWith` compares the path.
private struct PrefixCover {
    /// Sorted, and none starts with another: the first prefix of a text, if any, is then the
    /// greatest one not after it.
    private let minimal: [[UInt8]]

    init(_ prefixes: [String]) {
        var minimal: [[UInt8]] = []
        for prefix in prefixes.map({ Array($0.utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            if let last = minimal.last, prefix.starts(with: last) { continue }
            minimal.append(prefix)
        }
        self.minimal = minimal
    }

    /// Whether some prefix starts `text`; with `properly`, some prefix other than `text` itself.
    /// Reads the text's own UTF-8 in place: a copy of every scope of a domain's thousand rules
    /// cost more than the bisections.
    func covers(_ text: String, properly: Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { covers($0, properly: properly) }
            ?? covers(Array(text.utf8), properly: properly)
    }

    private func covers(_ bytes: some RandomAccessCollection<UInt8>, properly: Bool) -> Bool {
        var low = 0
        var high = minimal.count
        while low < high {
            let middle = (low + high) / 2
            if bytes.lexicographicallyPrecedes(minimal[middle]) { high = middle } else { low = middle + 1 }
        }
        guard low > 0 else { return false }
        let candidate = minimal[low - 1]
        // A prefix that is `text` itself is minimal only if no other prefix starts it.
        return bytes.starts(with: candidate) && !(properly && candidate.elementsEqual(bytes))
    }
}

extension [UInt8] {
    /// Appends `scalar` as UTF-8: patterns are rebuilt scalar by scalar, and a string grown one
    /// scalar at a time costs several times as much.
    fileprivate mutating func append(utf8Of scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { append($0) }
    }
}
