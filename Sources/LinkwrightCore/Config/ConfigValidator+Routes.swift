/// The checks of routes, custom schemes and expectations.
extension ConfigValidator {
    /// Routes are opt-in per domain: once one rule names a route, every rule that opens an app
    /// must, so the router cannot silently miss a path the association files open.
    mutating func checkRoutes(
        of domain: Domain, signatures: inout [String: (signature: [String], location: SourceLocation)]
    ) {
        let routed = domain.applinks.contains { $0.rules.contains { $0.route != nil } }
        // A domain naming no route has nothing to check: its rules are not copied to say so.
        guard routed else { return }
        for rule in domain.applinks.flatMap(\.rules) {
            guard rule.route != nil || !routed || rule.exclude else {
                diagnostics.report(
                    .routeMissing, "this rule opens an app but names no route, while other rules of \(domain.file) do",
                    at: rule.location, hint: "add route: <destination> (with params:), or route: none with a reason:")
                continue
            }
            checkRoute(of: rule, signatures: &signatures)
        }
    }

    /// One rule's route: none on an exclusion, the same parameters as every other rule (or scheme
    /// entry: an app has one router) leading to its destination, required ones always present.
    mutating func checkRoute(
        of rule: Rule, signatures: inout [String: (signature: [String], location: SourceLocation)]
    ) {
        guard let route = rule.route else { return }
        if rule.exclude {
            diagnostics.report(
                .conflictingKeys, "an exclude rule keeps its URLs on the web, so it has no route",
                at: route.target.location, hint: "remove route: from the exclude rule")
            return
        }
        guard let destination = route.destination else { return }
        // Which rule sets a route's parameters does not matter; that all agree does.
        let signature = route.parameters.map(\.signature).sorted()
        if let first = signatures[destination] {
            if first.signature != signature {
                diagnostics.report(
                    .routeParametersDiffer,
                    "route \(destination) takes (\(signature.joined(separator: ", "))) here but (\(first.signature.joined(separator: ", "))) at \(first.location)",
                    at: route.target.location,
                    hint: "give every rule of \(destination) the same parameters, or name the destinations apart")
            }
        } else {
            signatures[destination] = (signature, route.target.location)
        }
        for parameter in route.parameters where parameter.type == .int {
            guard let text = Self.neverAnInt(parameter.source, in: rule) else { continue }
            diagnostics.report(
                .routeParameterNeverParses,
                "route parameter \(parameter.name.value) reads \(parameter.source) as int, but the rule opens only \(PrintableText.quoted(text)) there, which is never an integer",
                at: parameter.name.location,
                hint: "read it as a string (drop `as int`), or read the segment or item that holds the number")
        }
        for parameter in route.parameters where !parameter.isOptional {
            guard let missing = Self.absence(of: parameter.source, in: rule) else { continue }
            diagnostics.report(
                .routeParameterMayBeAbsent,
                "route parameter \(parameter.name.value) reads \(parameter.source), but \(missing)",
                at: parameter.name.location,
                hint: "mark it optional (\(parameter.name.value)?:), or make the rule require it")
        }
    }

    /// Each custom scheme's routes as a domain's (`checkRoute`), the OAuth callback reaching a
    /// destination, and its expectations naming routes and apps that exist.
    mutating func checkSchemes(
        of environment: Environment, signatures: inout [String: (signature: [String], location: SourceLocation)]
    ) {
        for scheme in environment.apps.flatMap(\.schemes) {
            for rule in scheme.routes { checkRoute(of: rule, signatures: &signatures) }
            if scheme.purpose.value == .oauthCallback, !scheme.routes.isEmpty, let callback = scheme.callbackPath,
                let url = LinkURL.customScheme(scheme.name.value + ":" + callback.value)
            {
                // The callback's query is the provider's to write: only the paths are compared.
                var paths = scheme
                paths.routes = scheme.routes.map { rule in
                    var path = rule
                    path.query = nil
                    return path
                }
                // As `CompiledSchemeRoutes.answer` decides it: a URL with an authority is read by no route.
                let deciding =
                    url.host == nil
                    ? paths.routesMatcher.decision(for: url, appID: CustomScheme.routesAppID).origin : nil
                let leads = scheme.routes.contains {
                    $0.location == deciding && !$0.exclude && $0.route?.destination != nil
                }
                if !leads {
                    diagnostics.report(
                        .schemeCallbackUnrouted,
                        "the callback \(scheme.name.value):\(callback.value) reaches no destination of the scheme's routes",
                        at: callback.location,
                        hint:
                            "add a route entry for path \(callback.value) (e.g. route: oauthCallback with params:) in front of any exclusion"
                    )
                }
            }
            let destinations = scheme.routes.compactMap { $0.route?.destination }.uniqued()
            for expectation in scheme.expectations {
                if let route = expectation.route, let name = route.value.destination, !destinations.contains(name) {
                    diagnostics.report(
                        .invalidValue,
                        "\(PrintableText.quoted(name)) is not a route of the scheme \(scheme.name.value)",
                        at: route.location,
                        hint: Spelling.closest(to: name, among: destinations).map {
                            "did you mean \(PrintableText.quoted($0))?"
                        } ?? "name a route: that an entry of the scheme's routes declares")
                }
                if case .opensApp(let name?) = expectation.outcome, environment.app(named: name.value) == nil {
                    diagnostics.report(
                        .undefinedApp,
                        "expectation names app \(PrintableText.quoted(name.value)), which \(environment.file) does not define",
                        at: name.location,
                        hint: Spelling.closest(to: name.value, among: environment.apps.map(\.name.value)).map {
                            "did you mean \(PrintableText.quoted($0))?"
                        } ?? "name an app of this environment")
                }
            }
        }
    }

    /// Why some URL the rule opens may lack `source`, or `nil` when every one has it. Sound, not
    /// complete: a segment counts as present only when the pattern spells every segment before
    /// it without `*` (which may cross a `/`) and the segment itself needs a character; Apple's
    /// `/exhibitions/*` also opens `/exhibitions`, so its segment 2 may be absent.
    static func absence(of source: RouteParameter.Source, in rule: Rule) -> String? {
        switch source {
        case .pathSegment(let position):
            guard let path = rule.path?.value else { return "the rule matches any path" }
            let pieces = path.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.first == "", pieces.count > position,
                pieces[1..<position].allSatisfy({ !$0.contains("*") }),
                pieces[position].contains(where: { $0 != "*" })
            else { return "the path pattern \(PrintableText.quoted(path)) does not require that segment" }
            return nil
        case .queryItem(let name):
            guard case .items(let items)? = rule.query?.value,
                let item = items.first(where: { $0.name == name }), item.pattern.contains(where: { $0 != "*" })
            else { return "the rule does not require the query item \(PrintableText.quoted(name))" }
            return nil
        }
    }

    /// The pattern text a rule requires where `source` is read, when no URL the rule opens can
    /// hold an integer there (as `Int` reads one: an optional sign, then digits): a segment fixed
    /// by the path pattern, or an item's fixed pattern, whose literal characters are not all
    /// digits. `?` stands for one character, which may be a digit. Anything a `*`, a variable or
    /// an escape makes uncertain is left alone, so the warning is never wrong.
    static func neverAnInt(_ source: RouteParameter.Source, in rule: Rule) -> String? {
        let text: Substring
        switch source {
        case .pathSegment(let position):
            guard let path = rule.path?.value else { return nil }
            let pieces = path.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.first == "", pieces.count > position,
                !pieces[1...position].contains(where: { $0.contains("*") })
            else { return nil }
            text = pieces[position]
        case .queryItem(let name):
            guard case .items(let items)? = rule.query?.value,
                let item = items.first(where: { ExactText($0.name) == ExactText(name) })
            else { return nil }
            text = Substring(item.pattern)
        }
        guard !text.isEmpty, !text.contains(where: { "*$%\\".contains($0) }) else { return nil }
        let unsigned = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        let canBeInt = !unsigned.isEmpty && unsigned.allSatisfy { $0 == "?" || ("0"..."9").contains($0) }
        return canBeInt ? nil : String(text)
    }

    mutating func checkExpectations(of domain: Domain) {
        let linked = Set(domain.applinks.flatMap { $0.apps.map(\.value) })
        let destinations = domain.applinks.flatMap(\.rules).compactMap { $0.route?.destination }.uniqued()
        // Read in place: a copy of each of a fleet's 100,000 expectations cost more than checking it.
        for position in domain.expectations.indices {
            // Only the parts read: a copy of the route and of the located URL cost a third of this.
            if let name = domain.expectations[position].route?.value.destination, !destinations.contains(name) {
                diagnostics.report(
                    .invalidValue, "\(PrintableText.quoted(name)) is not a route of \(domain.file)",
                    at: domain.expectations[position].route!.location,
                    hint: Spelling.closest(to: name, among: destinations).map {
                        "did you mean \(PrintableText.quoted($0))?"
                    }
                        ?? "name a route: that a rule of \(domain.file) declares")
            }
            let url = domain.expectations[position].url.value
            if !Self.isPathOrHTTPS(url) {
                diagnostics.report(
                    .invalidURL,
                    "expectation URL \(PrintableText.quoted(url)) is neither a path nor an https:// URL",
                    at: domain.expectations[position].url.location,
                    hint: "write a path such as /tickets/annual, or https://host/path")
            } else if !LinkURL.parses(url) {
                diagnostics.report(
                    .invalidURL, "expectation URL \(PrintableText.quoted(url)) cannot be parsed",
                    at: domain.expectations[position].url.location,
                    hint: "percent-encode spaces and special characters")
            }
            if case .opensApp(let name?) = domain.expectations[position].outcome, !linked.contains(name.value) {
                diagnostics.report(
                    .undefinedApp,
                    "expectation names app \(PrintableText.quoted(name.value)), which no applinks entry of this domain lists",
                    at: name.location,
                    hint: Spelling.closest(to: name.value, among: linked.sorted()).map {
                        "did you mean \(PrintableText.quoted($0))?"
                    }
                        ?? "name an app of this domain's applinks entries")
            }
        }
    }

    /// Whether an expectation URL is written as a path or an https:// URL (`hasPrefix`, which
    /// compares characters), answered from its first bytes where they settle it: a `/` followed
    /// by nothing or by an ASCII byte is a character of its own, as nearly every path begins.
    static func isPathOrHTTPS(_ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        if bytes.next() == UInt8(ascii: "/"), bytes.next().map({ $0 < 0x80 }) ?? true { return true }
        return url.hasPrefix("/") || url.hasPrefix("https://")
    }
}
