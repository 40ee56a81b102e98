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

    /// What every router shares: the URL's parts and Apple's pattern language.
    private static let support = """
        /// The parts of a URL that association files and scheme routes compare, as written (still
        /// percent-encoded), split from the URL's text as `linkwright match` splits it, scalar by
        /// scalar: Foundation's `URL` takes ports above 65535 and re-encodes malformed escapes on
        /// some platforms, which would route text no association file is matched against.
        private struct Link: Sendable {
            /// Lowercase: schemes are read without case (RFC 3986, section 3.1).
            let scheme: String
            /// `nil` for a custom scheme's URL, which has no authority.
            let host: String?
            let path: String
            let query: String?
            let fragment: String?

            /// Universal links are HTTPS links on a named host, without a user name, on a port up to
            /// 65535; a custom scheme's links are `scheme:/path?query`, since in `scheme://x/path` x
            /// is a host, not a path segment. Text holding spaces or control characters is no link:
            /// a browser would have encoded them.
            init?(_ text: String) {
                let scalars = Array(text.unicodeScalars)
                guard !scalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
                    let colon = scalars.firstIndex(of: ":")
                else { return nil }
                let hash = scalars.firstIndex(of: "#") ?? scalars.count
                let question = scalars[..<hash].firstIndex(of: "?")
                let end = question ?? hash
                guard colon < end else { return nil }
                query = question.map { string(scalars[($0 + 1)..<hash]) }
                fragment = hash < scalars.count ? string(scalars[(hash + 1)...]) : nil
                scheme = string(scalars[..<colon]).lowercased()
                let hasAuthority = colon + 2 < end && scalars[colon + 1] == "/" && scalars[colon + 2] == "/"
                if scheme == "https" {
                    guard hasAuthority else { return nil }
                    let start = colon + 3
                    let authorityEnd = scalars[start..<end].firstIndex(of: "/") ?? end
                    let authority = scalars[start..<authorityEnd]
                    guard !authority.isEmpty, !authority.contains("@") else { return nil }
                    var hostEnd = authorityEnd
                    if let portColon = authority.lastIndex(of: ":") {
                        guard let port = Int(string(scalars[(portColon + 1)..<authorityEnd])), (0...65535).contains(port)
                        else { return nil }
                        hostEnd = portColon
                    }
                    guard hostEnd > start else { return nil }
                    host = string(scalars[start..<hostEnd]).lowercased()
                    path = string(scalars[authorityEnd..<end])
                } else {
                    let letters = "abcdefghijklmnopqrstuvwxyz0123456789+-.".unicodeScalars
                    guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
                        scheme.unicodeScalars.allSatisfy(letters.contains), scheme != "http",
                        !scalars[(colon + 1)...].starts(with: ["/", "/"])
                    else { return nil }
                    host = nil
                    path = string(scalars[(colon + 1)..<end])
                }
            }

            /// The query's items as written, split at `&` (empty pieces skipped), each at its first
            /// `=`; a bare name has the value "".
            var items: [(name: String, value: String)] {
                Array((query ?? "").unicodeScalars).split(separator: "&").map { item in
                    guard let equals = item.firstIndex(of: "=") else { return (string(item), "") }
                    return (string(item[..<equals]), string(item[(equals + 1)...]))
                }
            }

            /// The path's `position`-th segment (from 1, empty segments skipped), percent-decoded;
            /// `nil` when absent or empty.
            func segment(_ position: Int) -> String? {
                let segments = Array(path.unicodeScalars).split(separator: "/")
                guard position <= segments.count else { return nil }
                return nonEmpty(percentDecoded(string(segments[position - 1])))
            }

            /// The value of the first query item named `name`, percent-decoded; `nil` when absent or empty.
            func queryItem(_ name: String) -> String? {
                guard let item = items.first(where: { same(percentDecoded($0.name), name) }) else { return nil }
                return nonEmpty(percentDecoded(item.value))
            }

            /// A whole-number parameter: `nil` when absent or not a number.
            static func number(_ text: String?) -> Int? { text.flatMap { Int($0) } }

            /// An optional whole-number parameter: `.some(nil)` when absent, `nil` when present but
            /// not a number.
            static func wholeNumber(_ text: String?) -> Int?? {
                guard let text else { return .some(nil) }
                return Int(text).map { .some($0) }
            }
        }

        /// Text from scalars, exactly.
        private func string<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> String {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            return String(text)
        }

        /// Whether two texts are the same scalar by scalar. Swift's `==` on strings also takes
        /// canonically equivalent ones (`café` written with and without a combining accent), which
        /// the association files tell apart.
        private func same(_ left: String, _ right: String) -> Bool {
            left.unicodeScalars.elementsEqual(right.unicodeScalars)
        }

        private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

        /// Whether `host` is a subdomain of `root`, at any depth.
        private func isSubdomain(_ host: String, of root: String) -> Bool {
            let suffix = Array(("." + root).unicodeScalars)
            let scalars = Array(host.unicodeScalars)
            return scalars.count > suffix.count && scalars.suffix(suffix.count).elementsEqual(suffix)
        }

        /// `%XX` escapes decoded and the bytes read as UTF-8: a `%` without two hex digits stays as
        /// written, and bytes that are not UTF-8 read as U+FFFD.
        private func percentDecoded(_ text: String) -> String {
            guard text.contains("%") else { return text }
            let input = Array(text.utf8)
            var bytes: [UInt8] = []
            var index = 0
            while index < input.count {
                if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
                    let high = hexDigit(input[index + 1]), let low = hexDigit(input[index + 2])
                {
                    bytes.append(high << 4 | low)
                    index += 3
                } else {
                    bytes.append(input[index])
                    index += 1
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private func hexDigit(_ byte: UInt8) -> UInt8? {
            Character(Unicode.Scalar(byte)).hexDigitValue.map { UInt8($0) }
        }

        /// Lowercase, scalar by scalar, where the lowercase is one scalar: a case-insensitive rule
        /// compares both sides so.
        private func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first ?? scalar : scalar
        }

        private func folded(_ text: String) -> String { string(text.unicodeScalars.map(folded)) }

        private func folded(_ token: GlobToken) -> GlobToken {
            switch token {
            case .literal(let scalar): .literal(folded(scalar))
            case .one, .any: token
            case .oneOf(let values): .oneOf(values.map { $0.map(folded) })
            }
        }

        /// A piece of Apple's component patterns: `*` any run of characters (`/` included), `?` one
        /// character, a literal character, or one of a substitution variable's values.
        private enum GlobToken {
            case literal(Unicode.Scalar)
            case one
            case any
            case oneOf([[GlobToken]])
        }

        /// `pattern` as tokens. `$(name)` is one value of the variable (values may hold `*` and `?`,
        /// never another variable); an unknown one matches nothing.
        private func globTokens(_ pattern: String, variables: [(name: String, values: [String])]?) -> [GlobToken] {
            let scalars = Array(pattern.unicodeScalars)
            var tokens: [GlobToken] = []
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if let variables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                    let close = scalars[(index + 2)...].firstIndex(of: ")")
                {
                    let name = string(scalars[(index + 2)..<close])
                    let values = variables.first(where: { same($0.name, name) })?.values ?? []
                    tokens.append(.oneOf(values.map { globTokens($0, variables: nil) }))
                    index = close + 1
                    continue
                }
                switch scalar {
                case "*": tokens.append(.any)
                case "?": tokens.append(.one)
                default: tokens.append(.literal(scalar))
                }
                index += 1
            }
            return tokens
        }

        /// Apple's reading of paths: leading and trailing slashes do not count on either side, and a
        /// pattern ending in `*` also matches its parent (`/tickets/*` matches `/tickets`).
        private func withAppleSlashes(_ tokens: [GlobToken]) -> [GlobToken] {
            func isSlash(_ token: GlobToken) -> Bool {
                if case .literal("/") = token { return true }
                return false
            }
            let core = Array(tokens.drop(while: isSlash).reversed().drop(while: isSlash).reversed())
            guard let last = core.last else { return [.literal("/")] }
            if case .any = last { return [.literal("/")] + core }
            return [.literal("/")] + core + [.literal("/")]
        }

        private func withAppleSlashes(_ path: [Unicode.Scalar]) -> [Unicode.Scalar] {
            let core = Array(path.drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
            return core.isEmpty ? ["/"] : ["/"] + core + ["/"]
        }

        /// Whether `tokens` match the whole of `text`.
        private func globMatches(_ tokens: [GlobToken], _ text: [Unicode.Scalar]) -> Bool {
            globEnds(tokens, text, from: [0]).contains(text.count)
        }

        /// Every position of `text` at which `tokens`, started at one of `starts`, can end. Keeping
        /// every position at once means `*` never backtracks.
        private func globEnds(_ tokens: [GlobToken], _ text: [Unicode.Scalar], from starts: Set<Int>) -> Set<Int> {
            var positions = starts
            for token in tokens {
                switch token {
                case .literal(let scalar):
                    positions = Set(positions.filter { $0 < text.count && text[$0] == scalar }.map { $0 + 1 })
                case .one:
                    positions = Set(positions.filter { $0 < text.count }.map { $0 + 1 })
                case .any:
                    if let first = positions.min() { positions = Set(first...text.count) }
                case .oneOf(let values):
                    positions = values.reduce(into: []) { $0.formUnion(globEnds($1, text, from: positions)) }
                }
                if positions.isEmpty { return [] }
            }
            return positions
        }

        """
}

/// Source text built line by line, with the header every generated file starts with.
struct CodeText {
    /// A string literal holding `text` exactly: `escapes` spells the characters that need an
    /// escape, and `escaped` every scalar outside printable ASCII.
    static func literal(
        _ text: String, escapes: [Unicode.Scalar: String], escaped: (Unicode.Scalar) -> String
    ) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if let escape = escapes[scalar] {
                out += escape
            } else if scalar.value < 0x20 || scalar.value >= 0x7F {
                out += escaped(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private(set) var text = ""

    mutating func line(_ line: String) { text += line + "\n" }
    mutating func blank() { text += "\n" }
    mutating func text(_ block: String) { text += block }

    /// Names the configuration files and the command that regenerates the file.
    mutating func header(sourceFiles files: [String], command: String, comment: String) {
        var words = ["Generated", "by", "linkwright", "from"]
        for (index, file) in files.enumerated() {
            let separator = index == files.count - 1 ? "." : index == files.count - 2 ? " and" : ","
            words.append(file + separator)
        }
        words += ["Do", "not", "edit:", "change", "the", "configuration", "and", "run"]
        var current = comment
        for word in words {
            if current.count + 1 + word.count > SwiftRouterWriter.lineLength - 20 {
                line(current)
                current = comment
            }
            current += " " + word
        }
        line(current)
        line("\(comment)   \(command)")
        line("\(comment) again.")
        blank()
    }

    /// An array literal as swift-format writes it: on one line when it fits, else one line per
    /// run of items that fits, indented, with a comma after the last.
    mutating func array(_ items: [String], opening: String, closing: String) {
        let single = opening + "[" + items.joined(separator: ", ") + "]" + closing
        if single.count <= SwiftRouterWriter.lineLength {
            line(single)
            return
        }
        let indent = String(opening.prefix { $0 == " " })
        line(opening + "[")
        var current = ""
        for item in items.map({ $0 + "," }) {
            if !current.isEmpty && indent.count + 4 + current.count + 1 + item.count > SwiftRouterWriter.lineLength {
                line(indent + "    " + current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + item
        }
        line(indent + "    " + current)
        line(indent + "]" + closing)
    }

    /// `items` separated by commas, as many to a line as fit: `first` opens, `last` closes.
    mutating func wrapped(_ items: [String], first: String, continuation: String, last: String) {
        let single = first + items.joined(separator: ", ") + last
        if single.count <= SwiftRouterWriter.lineLength {
            line(single)
            return
        }
        var current = first
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "" : ",")
            if current != first && current.count + 1 + piece.count > SwiftRouterWriter.lineLength {
                line(current)
                current = continuation + piece
            } else {
                current += (current == first ? "" : " ") + piece
            }
        }
        line(current + last)
    }
}
