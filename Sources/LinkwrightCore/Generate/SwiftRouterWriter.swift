/// Writes an app's router as Swift a careful iOS developer would write by hand: a `Hashable`
/// destination enum, and `destination(for:)` that decides a URL exactly as the association
/// files do (`CompiledAASA`): the app's claim on the host, entries and components in order, the
/// first match deciding, `exclude` stopping, Apple's glob and trailing-slash reading of paths,
/// query dictionaries, `caseSensitive` and `percentEncoded`. Foundation only; the same model
/// always gives the same bytes, formatted as `swift format` formats them.
public enum SwiftRouterWriter {
    /// The file name: `MuseoRouter.swift`.
    public static func fileName(_ model: RouterModel) -> String { RouterModel.typeName(of: model.app) + "Router.swift" }

    /// The router's source. `command` is what regenerates it, for the header.
    public static func source(_ model: RouterModel, command: String) -> String {
        let type = RouterModel.typeName(of: model.app)
        var out = CodeText()
        out.header(sourceFiles: model.sourceFiles, command: command, comment: "//")
        out.line("import Foundation")
        out.blank()
        out.line("/// A screen of the \(model.app) app that a universal link opens.")
        out.line("enum \(type)Destination: Hashable {")
        for destination in model.destinations {
            let parameters = destination.parameters.map { "\(identifier($0.name)): \(typeName($0))" }
            out.line(
                "    case \(identifier(destination.name))"
                    + (parameters.isEmpty ? "" : "(\(parameters.joined(separator: ", ")))"))
        }
        out.line("}")
        out.blank()
        router(model, type: type, into: &out)
        out.blank()
        out.text(support)
        let constants = Dictionary(
            model.ruleLists.flatMap(\.variables).compactMap { variable in
                codeListConstant(variable).map { ($0, variable) }
            },
            uniquingKeysWith: { first, _ in first })
        for name in constants.keys.sorted() {
            let variable = constants[name]!
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

    private static func router(_ model: RouterModel, type: String, into out: inout CodeText) {
        out.line("/// Decides where a universal link takes the \(model.app) app. A link opens the app exactly when")
        out.line("/// the apple-app-site-association file the device fetches for its host lets it: the app must")
        out.line("/// claim the host, and the first rule whose path, query and fragment match decides; an")
        out.line("/// excluded URL, or one no rule matches, stays on the web.")
        if !model.schemes.isEmpty {
            out.line("///")
            out.line("/// The system hands the app every URL of a custom scheme it declares; the scheme's routes,")
            out.line("/// read as rules are, decide where one leads (`scheme:/path?query`, without an authority).")
        }
        out.line("enum \(type)Router {")
        out.line("    /// The destination of `url`; `nil` when the link does not open the app, or opens it")
        out.line(
            "    /// without a destination (`route: none`"
                + (model.schemes.isEmpty ? ")." : ", or a scheme URL no route entry takes anywhere)."))
        out.line("    static func destination(for url: URL) -> \(type)Destination? {")
        out.line("        guard let link = Link(url), let site = site(for: link) else { return nil }")
        out.line("        for rule in site.rules where rule.matches(link, variables: site.variables) {")
        out.line("            return rule.destination?(link)")
        out.line("        }")
        out.line("        return nil")
        out.line("    }")
        out.blank()
        hostSwitch(model, into: &out)
        for list in model.ruleLists {
            out.blank()
            ruleList(list, model: model, into: &out)
        }
        out.blank()
        out.line("    /// The rules of one association file for this app, in the order the device tries them.")
        out.line("    private struct Site {")
        out.line("        var variables: [String: [String]] = [:]")
        out.line("        var rules: [Rule]")
        out.line("    }")
        out.blank()
        out.line("    /// One component with what it inherits resolved; `destination` is `nil` for exclusions")
        out.line("    /// and for rules that open the app without a destination.")
        out.line("    private struct Rule {")
        out.line("        var path = \"*\"")
        out.line("        var query = Query.whole(\"*\")")
        out.line("        var fragment = \"*\"")
        out.line("        var exclude = false")
        for flag in ComponentFlag.allCases { out.line("        var \(flag.rawValue) = \(flag.appleDefault)") }
        out.line("        var destination: ((Link) -> \(type)Destination?)?")
        out.blank()
        out.text(ruleMatching)
        out.line("    }")
        out.line("}")
    }

    /// `site(for:)`: a custom scheme's routes, else exact claims in a switch, then wildcard
    /// roots, longest first.
    private static func hostSwitch(_ model: RouterModel, into out: inout CodeText) {
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
                out.line(indent + "case \(literal(scheme.scheme)): return \(model.ruleLists[scheme.ruleList].name)")
            }
            out.line(indent + "default: return nil")
            out.line(indent + "}")
            if !hostless { out.line("        }") }
        }
        if !model.exactHosts.isEmpty {
            out.line("        switch host {")
            for (index, list) in model.ruleLists.enumerated() {
                let hosts = model.exactHosts.filter { $0.ruleList == index }.map { literal($0.host) }
                guard !hosts.isEmpty else { continue }
                let single = "        case \(hosts.joined(separator: ", ")): return \(list.name)"
                if single.count <= lineLength {
                    out.line(single)
                } else {
                    out.wrapped(hosts, first: "        case ", continuation: "            ", last: ":")
                    out.line("            return \(list.name)")
                }
            }
            out.line("        default: break")
            out.line("        }")
        }
        for root in model.wildcardRoots {
            out.line(
                "        if isSubdomain(host, of: \(literal(root.host))) { return \(model.ruleLists[root.ruleList].name) }"
            )
        }
        if !hostless || model.schemes.isEmpty { out.line("        return nil") }
        out.line("    }")
    }

    private static func ruleList(_ list: RouterRuleList, model: RouterModel, into out: inout CodeText) {
        out.line("    private static let \(list.name) = Site(")
        if !list.variables.isEmpty {
            out.line("        variables: [")
            for variable in list.variables {
                if let constant = codeListConstant(variable) {
                    out.line("            \(literal(variable.name)): \(constant),")
                } else {
                    out.array(
                        variable.values.map(literal), opening: "            \(literal(variable.name)): ", closing: ",")
                }
            }
            out.line("        ],")
        }
        out.line("        rules: [")
        for (index, rule) in list.rules.enumerated() {
            // swift-format puts a comma after the last element only when there are several.
            self.rule(
                rule, model: model, comma: list.rules.count > 1 || index < list.rules.count - 1 ? "," : "", into: &out)
        }
        out.line("        ])")
    }

    private static func rule(_ rule: RouterRule, model: RouterModel, comma: String, into out: inout CodeText) {
        if let origin = rule.origin { out.line("            // \(origin)") }
        var arguments: [String] = []
        if rule.path != "*" { arguments.append("path: \(literal(rule.path))") }
        switch rule.query {
        case .whole(let pattern) where pattern != "*": arguments.append("query: .whole(\(literal(pattern)))")
        case .whole: break
        case .items(let items):
            let pairs = items.map { "\(literal($0.name)): \(literal($0.pattern))" }
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
        var guards: [String] = []
        var values: [String] = []
        for parameter in route.parameters {
            let name = identifier(parameter.name)
            let read = parameter.read(quoting: literal)
            switch (parameter.type, parameter.isOptional) {
            case (.string, true): values.append("\(name): \(read)")
            case (.string, false):
                guards.append("guard let \(name) = \(read) else { return nil }")
                values.append("\(name): \(name)")
            case (.int, true):
                guards.append("guard let \(name) = wholeNumber(\(read)) else { return nil }")
                values.append("\(name): \(name)")
            case (.int, false):
                guards.append("guard let text = \(read), let \(name) = Int(text) else { return nil }")
                values.append("\(name): \(name)")
            }
        }
        let value = "." + identifier(destination.name) + (values.isEmpty ? "" : "(\(values.joined(separator: ", ")))")
        let head = (arguments.isEmpty ? "            Rule" : opening) + " { link in"
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

    /// Destination and parameter names are identifiers already; Swift keywords get backticks.
    static func identifier(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    private static let keywords: Set<String> = [
        "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do", "else",
        "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in",
        "init", "inout", "internal", "is", "let", "nil", "open", "operator", "private", "protocol", "public",
        "repeat", "rethrows", "return", "self", "Self", "static", "struct", "subscript", "super", "switch", "throw",
        "throws", "true", "try", "typealias", "var", "where", "while", "Type",
    ]

    /// `Rule.matches`, the same for every router.
    private static let ruleMatching = """
                /// Whether the rule's path, query and fragment all match `link`. An absent query, query
                /// item or fragment reads as empty, and every item of a name must match (WWDC19 session
                /// 717, "What's New in Universal Links").
                func matches(_ link: Link, variables: [String: [String]]) -> Bool {
                    func compare(_ pattern: String, _ value: String, isPath: Bool = false) -> Bool {
                        var tokens = globTokens(pattern, variables: variables, folding: !caseSensitive)
                        var scalars = Array((percentEncoded ? value : percentDecoded(value)).unicodeScalars)
                        if !caseSensitive { scalars = scalars.map(folded) }
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
                        for (name, pattern) in patterns {
                            let values = link.items.filter { (percentEncoded ? $0.name : percentDecoded($0.name)) == name }
                            guard (values.isEmpty ? [""] : values.map(\\.value)).allSatisfy({ compare(pattern, $0) }) else {
                                return false
                            }
                        }
                    case .notCompared:
                        break
                    }
                    return compare(fragment, link.fragment ?? "")
                }

                enum Query {
                    /// A pattern for the whole query string.
                    case whole(String)
                    /// Patterns for query items by name.
                    case items([String: String])
                    /// A dictionary Apple ignores.
                    case notCompared
                }

        """

    /// What every router shares: the URL's parts and Apple's pattern language.
    private static let support = """
        /// The parts of a URL that association files and scheme routes compare, as written (still
        /// percent-encoded).
        private struct Link {
            /// Lowercase: schemes are read without case (RFC 3986, section 3.1).
            let scheme: String
            /// `nil` for a custom scheme's URL, which has no authority.
            let host: String?
            let path: String
            let query: String?
            let fragment: String?

            /// Universal links are HTTPS links on a named host; a custom scheme's links are
            /// `scheme:/path?query`, since in `scheme://x/path` x is a host, not a path segment.
            init?(_ url: URL) {
                guard let scheme = url.scheme?.lowercased(),
                    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                else { return nil }
                if scheme == "https" {
                    guard components.user == nil, components.password == nil,
                        let host = components.host?.lowercased(), !host.isEmpty
                    else { return nil }
                    self.host = host
                } else {
                    guard !url.absoluteString.dropFirst(scheme.count + 1).hasPrefix("//") else { return nil }
                    host = nil
                }
                self.scheme = scheme
                path = components.percentEncodedPath
                query = components.percentEncodedQuery
                fragment = components.percentEncodedFragment
            }

            /// The query's items as written, each split at its first `=`; a bare name has the value "".
            var items: [(name: String, value: String)] {
                (query ?? "").split(separator: "&").map { item in
                    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                }
            }

            /// The path's `position`-th segment (from 1, empty segments skipped), percent-decoded;
            /// `nil` when absent or empty.
            func segment(_ position: Int) -> String? {
                let segments = path.split(separator: "/")
                guard position <= segments.count else { return nil }
                return nonEmpty(percentDecoded(String(segments[position - 1])))
            }

            /// The value of the first query item named `name`, percent-decoded; `nil` when absent or empty.
            func queryItem(_ name: String) -> String? {
                guard let item = items.first(where: { percentDecoded($0.name) == name }) else { return nil }
                return nonEmpty(percentDecoded(item.value))
            }
        }

        private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

        /// An optional whole-number parameter: `.some(nil)` when absent, `nil` when present but not a number.
        private func wholeNumber(_ text: String?) -> Int?? {
            guard let text else { return .some(nil) }
            return Int(text).map { .some($0) }
        }

        /// Whether `host` is a subdomain of `root`, at any depth.
        private func isSubdomain(_ host: String, of root: String) -> Bool {
            host.hasSuffix("." + root) && host.count > root.count + 1
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
            return lower.count == 1 ? lower.first! : scalar
        }

        /// A piece of Apple's component patterns: `*` any run of characters (`/` included), `?` one
        /// character, a literal character, or one of a substitution variable's values.
        private enum GlobToken {
            case literal(Unicode.Scalar)
            case one
            case any
            case oneOf([[GlobToken]])
        }

        /// `pattern` as tokens, folded to lowercase when `folding`. `$(name)` is one value of the
        /// variable (values may hold `*` and `?`, never another variable); an unknown one matches nothing.
        private func globTokens(_ pattern: String, variables: [String: [String]]?, folding: Bool) -> [GlobToken] {
            let scalars = Array(pattern.unicodeScalars)
            var tokens: [GlobToken] = []
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if let variables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                    let close = scalars[(index + 2)...].firstIndex(of: ")")
                {
                    let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                    let values = variables[name] ?? []
                    tokens.append(.oneOf(values.map { globTokens($0, variables: nil, folding: folding) }))
                    index = close + 1
                    continue
                }
                switch scalar {
                case "*": tokens.append(.any)
                case "?": tokens.append(.one)
                default: tokens.append(.literal(folding ? folded(scalar) : scalar))
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
