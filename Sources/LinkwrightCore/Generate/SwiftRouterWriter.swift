/// Writes an app's router as Swift a careful iOS developer would write by hand: a `Hashable`
/// destination enum, and `destination(for:)` that decides a URL exactly as the association
/// files do (`CompiledAASA`): the app's claim on the host, entries and components in order, the
/// first match deciding, `exclude` stopping, Apple's glob and trailing-slash reading of paths,
/// query dictionaries, `caseSensitive` and `percentEncoded`. Foundation only; the same model
/// always gives the same bytes, formatted as `swift format` formats them.
public enum SwiftRouterWriter {
    /// The file name: `MuseoRouter.swift`.
    public static func fileName(_ model: RouterModel) -> String { GeneratedTypeName.of(model.app) + "Router.swift" }

    /// The router's source, its two types and their entry points declared with `access`.
    /// `command` is what regenerates it, for the header.
    public static func source(_ model: RouterModel, command: String, access: GeneratedAccess = .internal) -> String {
        let type = GeneratedTypeName.of(model.app)
        var out = CodeText()
        out.header(sourceFiles: model.sourceFiles, command: command, comment: "//")
        out.line("import Foundation")
        out.blank()
        out.line("/// A screen of the \(model.app) app that a universal link opens.")
        out.line("\(access.swiftModifier)enum \(type)Destination: Hashable, Sendable {")
        if model.destinations.isEmpty { out.line("    // \(RouterModel.noDestinationNote)") }
        for destination in model.destinations {
            let parameters = destination.parameters.map { "\(identifier($0.name)): \(typeName($0))" }
            out.line(
                "    case \(identifier(destination.name))"
                    + (parameters.isEmpty ? "" : "(\(parameters.joined(separator: ", ")))"))
        }
        out.line("}")
        out.blank()
        router(model, type: type, access: access, into: &out)
        out.blank()
        out.text(support)
        var constants: [(name: String, variable: RouterRuleList.Variable)] = []
        for variable in model.ruleLists.flatMap(\.variables) {
            guard let name = codeListConstant(variable), !constants.contains(where: { $0.name == name }) else {
                continue
            }
            constants.append((name, variable))
        }
        for (name, variable) in constants.sorted(by: { $0.name < $1.name }) {
            out.blank()
            out.line("/// Apple's `$(\(variable.name))`: the ISO codes of Foundation's `Locale`.")
            out.array(variable.values.map(literal), opening: "private let \(name): [String] = ", closing: "")
        }
        return out.text
    }

    private static let isoLanguageCodes = "isoLanguageCodes"

    /// The file-level constant standing for `$(lang)` or `$(region)`, written once per file
    /// however many rule lists use it.
    private static func codeListConstant(_ variable: RouterRuleList.Variable) -> String? {
        guard variable.values == PredefinedVariables.codeLists[variable.name] else { return nil }
        return variable.name == "lang" ? isoLanguageCodes : "isoRegionCodes"
    }

    private static func router(_ model: RouterModel, type: String, access: GeneratedAccess, into out: inout CodeText) {
        var scope = NameScope(reserved: SwiftNames.keywords.union(SwiftNames.routerMembers))
        let listNames = model.ruleLists.map { scope.claim($0.name) }
        out.line("/// Decides where a universal link takes the \(model.app) app. A link opens the app exactly when")
        out.line("/// the apple-app-site-association file the device fetches for its host lets it: the app must")
        out.line("/// claim the host, and the first rule whose path, query and fragment match decides; an")
        out.line("/// excluded URL, or one no rule matches, stays on the web.")
        if !model.schemes.isEmpty {
            out.line("///")
            out.line("/// The system hands the app every URL of a custom scheme it declares; the scheme's routes,")
            out.line("/// read as rules are, decide where one leads (`scheme:/path?query`, without an authority).")
        }
        out.line("\(access.swiftModifier)enum \(type)Router {")
        out.line("    /// The destination of `url`; `nil` when the link does not open the app, or opens it")
        out.line(
            "    /// without a destination (`route: none`"
                + (model.schemes.isEmpty ? ")." : ", or a scheme URL no route entry takes anywhere)."))
        out.line("    \(access.swiftModifier)static func destination(for url: URL) -> \(type)Destination? {")
        out.line("        destination(for: url.absoluteString)")
        out.line("    }")
        out.blank()
        out.line("    /// The destination of the URL `text`, read from the text itself as `linkwright match` reads")
        out.line("    /// it: text with spaces or control characters, a user name or a port above 65535 opens nothing.")
        out.line("    \(access.swiftModifier)static func destination(for text: String) -> \(type)Destination? {")
        out.line("        guard let link = Link(text), let site = site(for: link) else { return nil }")
        out.line("        for rule in site.rules where rule.matches(link, variables: site.variables) {")
        out.line("            return rule.destination?(link)")
        out.line("        }")
        out.line("        return nil")
        out.line("    }")
        out.blank()
        hostSwitch(model, listNames: listNames, into: &out)
        for (list, name) in zip(model.ruleLists, listNames) {
            out.blank()
            ruleList(list, named: name, model: model, type: type, into: &out)
        }
        out.blank()
        out.line("    /// The rules of one association file for this app, in the order the device tries them, and")
        out.line("    /// the values of the substitution variables they name.")
        out.line("    private struct Site: Sendable {")
        out.line("        var variables: [(name: String, values: [String])] = []")
        out.line("        var rules: [Rule]")
        out.line("    }")
        out.blank()
        out.line("    /// One component with what it inherits resolved; `destination` is `nil` for exclusions")
        out.line("    /// and for rules that open the app without a destination.")
        out.line("    private struct Rule: Sendable {")
        out.line("        var path = \"*\"")
        out.line("        var query = Query.whole(\"*\")")
        out.line("        var fragment = \"*\"")
        out.line("        var exclude = false")
        for flag in ComponentFlag.allCases { out.line("        var \(flag.rawValue) = \(flag.appleDefault)") }
        out.line("        var destination: (@Sendable (Link) -> \(type)Destination?)?")
        out.blank()
        out.text(ruleMatching)
        out.line("    }")
        out.line("}")
    }

    /// `site(for:)`: a custom scheme's routes, else exact claims in a switch, then wildcard
    /// roots, longest first.
    private static func hostSwitch(_ model: RouterModel, listNames: [String], into out: inout CodeText) {
        let comment =
            model.schemes.isEmpty
            ? [
                "The rules deciding `link` on its host: an exact claim wins over a wildcard, a longer",
                "wildcard over a shorter one, and `*.example.com` covers every subdomain of",
                "example.com but not example.com itself (Apple's associated domains).",
            ]
            : [
                "The rules deciding `link`: its scheme's routes for a custom scheme; on its host, an exact",
                "claim wins over a wildcard, a longer wildcard over a shorter one, and `*.example.com`",
                "covers every subdomain of example.com but not example.com itself (Apple's associated domains).",
            ]
        for line in comment { out.line("    /// " + line) }
        out.line("    private static func site(for link: Link) -> Site? {")
        // An app whose routes are all on schemes claims no host to read.
        let hostless = model.exactHosts.isEmpty && model.wildcardRoots.isEmpty
        let opening = hostless ? "        guard link.host == nil else" : "        guard let host = link.host else"
        if model.schemes.isEmpty || hostless {
            out.line(opening + " { return nil }")
        } else {
            out.line(opening + " {")
        }
        if !model.schemes.isEmpty {
            let indent = hostless ? "        " : "            "
            out.line(indent + "switch link.scheme {")
            for scheme in model.schemes {
                out.line(indent + "case \(literal(scheme.scheme)): return \(listNames[scheme.ruleList])")
            }
            out.line(indent + "default: return nil")
            out.line(indent + "}")
            if !hostless { out.line("        }") }
        }
        if !model.exactHosts.isEmpty {
            out.line("        switch host {")
            for index in model.ruleLists.indices {
                let hosts = model.exactHosts.filter { $0.ruleList == index }.map { literal($0.host) }
                guard !hosts.isEmpty else { continue }
                let single = "        case \(hosts.joined(separator: ", ")): return \(listNames[index])"
                if single.count <= lineLength {
                    out.line(single)
                } else {
                    out.wrapped(hosts, first: "        case ", continuation: "            ", last: ":")
                    out.line("            return \(listNames[index])")
                }
            }
            out.line("        default: break")
            out.line("        }")
        }
        for root in model.wildcardRoots {
            out.line(
                "        if isSubdomain(host, of: \(literal(root.host))) { return \(listNames[root.ruleList]) }"
            )
        }
        if !hostless || model.schemes.isEmpty { out.line("        return nil") }
        out.line("    }")
    }

    private static func ruleList(
        _ list: RouterRuleList, named name: String, model: RouterModel, type: String, into out: inout CodeText
    ) {
        out.line("    private static let \(name) = Site(")
        if !list.variables.isEmpty {
            out.line("        variables: [")
            for variable in list.variables {
                if let constant = codeListConstant(variable) {
                    out.line("            (\(literal(variable.name)), \(constant)),")
                } else {
                    out.array(
                        variable.values.map(literal), opening: "            (\(literal(variable.name)), ",
                        closing: "),")
                }
            }
            out.line("        ],")
        }
        out.line("        rules: [")
        for (index, rule) in list.rules.enumerated() {
            // swift-format puts a comma after the last element only when there are several.
            self.rule(
                rule, model: model, type: type,
                comma: list.rules.count > 1 || index < list.rules.count - 1 ? "," : "", into: &out)
        }
        out.line("        ])")
    }

    private static func rule(
        _ rule: RouterRule, model: RouterModel, type: String, comma: String, into out: inout CodeText
    ) {
        if let origin = rule.origin { out.line("            // \(origin)") }
        var arguments: [String] = []
        if rule.path != "*" { arguments.append("path: \(literal(rule.path))") }
        switch rule.query {
        case .whole(let pattern) where pattern != "*": arguments.append("query: .whole(\(literal(pattern)))")
        case .whole: break
        case .items(let items):
            // Pairs, not a dictionary: two names that are one text in two Unicode spellings are two
            // items, as the association file's JSON keys are, and a dictionary literal would trap.
            let pairs = items.map { "(\(literal($0.name)), \(literal($0.pattern)))" }
            arguments.append("query: .items([\(pairs.joined(separator: ", "))])")
        case .notCompared: arguments.append("query: .notCompared")
        }
        if rule.fragment != "*" { arguments.append("fragment: \(literal(rule.fragment))") }
        if rule.exclude { arguments.append("exclude: true") }
        arguments += rule.flags.departures.map { "\($0.rawValue): \(rule.flags[$0])" }
        let opening = "            Rule(" + arguments.joined(separator: ", ") + ")"
        guard let route = rule.route else {
            out.line(opening + comma)
            return
        }
        let destination = model.destinations[route.destination]
        // The link is `$0`, which no parameter can be called, and the readers are `Link`'s, so no
        // parameter's binding hides what a later one reads with.
        var guards: [String] = []
        var values: [String] = []
        for parameter in route.parameters {
            let name = identifier(parameter.name)
            let read = parameter.read(from: "$0", quoting: literal)
            switch (parameter.type, parameter.isOptional) {
            case (.string, true): values.append("\(SwiftNames.label(parameter.name)): \(read)")
            case (.string, false): guards.append("guard let \(name) = \(read) else { return nil }")
            case (.int, true): guards.append("guard let \(name) = Link.wholeNumber(\(read)) else { return nil }")
            case (.int, false): guards.append("guard let \(name) = Link.number(\(read)) else { return nil }")
            }
            if !(parameter.type == .string && parameter.isOptional) {
                values.append("\(SwiftNames.label(parameter.name)): \(name)")
            }
        }
        let value =
            "\(type)Destination." + identifier(destination.name)
            + (values.isEmpty ? "" : "(\(values.joined(separator: ", ")))")
        // A destination without parameters reads nothing from the link.
        let head = (arguments.isEmpty ? "            Rule" : opening) + (route.parameters.isEmpty ? " { _ in" : " {")
        if guards.isEmpty && (head + " " + value + " }" + comma).count <= lineLength {
            out.line(head + " " + value + " }" + comma)
            return
        }
        out.line(head)
        for line in guards { out.line("                " + line) }
        out.line("                " + (guards.isEmpty ? "" : "return ") + value)
        out.line("            }" + comma)
    }

    static let lineLength = 120

    private static func typeName(_ parameter: RouterParameter) -> String {
        (parameter.type == .int ? "Int" : "String") + (parameter.isOptional ? "?" : "")
    }

    /// A Swift string literal holding `text` exactly.
    static func literal(_ text: String) -> String {
        CodeText.literal(text, escapes: ["\"": "\\\"", "\\": "\\\\"]) {
            "\\u{" + String($0.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Destination and parameter names as declared (`SwiftNames`).
    public static func identifier(_ name: String) -> String { SwiftNames.identifier(name) }

    /// How the router reads values for one component flag, as `ComponentFlag.apply` makes the
    /// engine read them: statements run when the rule departs from the flag's default, on the
    /// compared `value`, the pattern's `tokens` and a query item's `name`, in `stage` order (the
    /// engine decodes before it folds). A new flag does not compile here until it says its reading.
    private static func reading(_ flag: ComponentFlag) -> (stage: Int, value: String, tokens: String?, name: String?) {
        switch flag {
        case .percentEncoded:
            (
                0, "if !percentEncoded { value = percentDecoded(value) }", nil,
                "if !percentEncoded { name = percentDecoded(name) }"
            )
        case .caseSensitive:
            // Item names are not folded (`ComparedValues.itemValues`).
            (1, "if !caseSensitive { value = folded(value) }", "if !caseSensitive { tokens = tokens.map(folded) }", nil)
        }
    }

    /// `Rule.matches`, the same for every router but for the flags' readings.
    private static var ruleMatching: String {
        let readings = ComponentFlag.allCases.map(reading).sorted { $0.stage < $1.stage }
        let reads = (readings.map(\.value) + readings.compactMap(\.tokens)).joined(
            separator: "\n" + String(repeating: " ", count: 16))
        let nameReads = readings.compactMap(\.name).joined(separator: "\n" + String(repeating: " ", count: 24))
        return """
                    /// Whether the rule's path, query and fragment all match `link`. An absent query, query
                    /// item or fragment reads as empty, and every item of a name must match (WWDC19 session
                    /// 717, "What's New in Universal Links"). Names compare scalar by scalar, as `match` does.
                    func matches(_ link: Link, variables: [(name: String, values: [String])]) -> Bool {
                        func compare(_ pattern: String, _ value: String, isPath: Bool = false) -> Bool {
                            var tokens = globTokens(pattern, variables: variables)
                            var value = value
                            \(reads)
                            var scalars = Array(value.unicodeScalars)
                            if isPath {
                                tokens = withAppleSlashes(tokens)
                                scalars = withAppleSlashes(scalars)
                            }
                            return globMatches(tokens, scalars)
                        }
                        guard compare(path, link.path, isPath: true) else { return false }
                        switch query {
                        case .whole(let pattern):
                            guard compare(pattern, link.query ?? "") else { return false }
                        case .items(let patterns):
                            for (wanted, pattern) in patterns {
                                let values = link.items.filter { item in
                                    var name = item.name
                                    \(nameReads)
                                    return same(name, wanted)
                                }
                                guard (values.isEmpty ? [""] : values.map(\\.value)).allSatisfy({ compare(pattern, $0) }) else {
                                    return false
                                }
                            }
                        case .notCompared:
                            break
                        }
                        return compare(fragment, link.fragment ?? "")
                    }

                    enum Query: Sendable {
                        /// A pattern for the whole query string.
                        case whole(String)
                        /// Patterns for query items by name, in the file's order.
                        case items([(name: String, pattern: String)])
                        /// A dictionary Apple ignores.
                        case notCompared
                    }

            """
    }
}
