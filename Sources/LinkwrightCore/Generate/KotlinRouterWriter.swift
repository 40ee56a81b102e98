/// Writes an app's Android router as Kotlin a careful Android developer would write by hand: a
/// `sealed class` destination with a `data class` (or `object`) per route, and a companion
/// `parse(url, androidApiLevel)` that decides a URL as Android decides an App Link
/// (`EnvironmentEvaluator` on Android), not as Apple does:
///
/// - the URL is split as `android.net.Uri` splits it, and the path, query and fragment compared
///   decoded, as `Uri.getPath()` and its siblings return them (AOSP core/java/android/net/Uri.java,
///   `UriCodec`), with the core's reading of malformed escapes (`PercentDecoding`);
/// - a verified intent filter naming the host (`*.` as `IntentFilter.AuthorityEntry.match`
///   reads it: a suffix, without case) whose `<data>` path attributes accept the path claims the
///   URL (`IntentFilter.matchData`, `PatternMatcher` PATTERN_LITERAL, PATTERN_PREFIX and
///   PATTERN_SIMPLE_GLOB; AOSP core/java/android/os/PatternMatcher.java);
/// - the dynamic rules are those of the URL's own host, not the matching filter's: the site of
///   the claim declaring the host itself, else (from API level 36) of the nearest `*.` parent
///   claimed (`EnvironmentEvaluator.androidDecidingFile`);
/// - from API level 35, the first of those `dynamic_app_link_components` to match decides,
///   an `exclude` keeping the link in the browser; each pattern is what that release's
///   `DalComponentParser` hands to `PatternMatcher` (`AndroidFilter`: 35 reads as `15-initial`,
///   later levels as `latest`), and query entries match whole decoded `name=value` items
///   (`UriRelativeFilter.matchData`; AOSP core/java/android/content/UriRelativeFilter.java).
///   Below 35 the intent filters alone open the app; the destination is still the first
///   matching rule's, read as `latest` reads it.
///
/// Only the Kotlin standard library on the JVM, and nothing newer than Kotlin 1.3 (no trailing
/// commas, no `fun interface`, no stdlib API added or deprecated since), so Android apps and
/// Kotlin Multiplatform JVM code share it. `java.net.URI` is not used: it refuses malformed
/// escapes and characters that `android.net.Uri` accepts. A string's emptiness is its `length`:
/// on JDK 15 and later, `String.isEmpty()` is a Java default method Kotlin 1.3 warns about. The
/// same model always gives the same bytes.
public enum KotlinRouterWriter {
    /// The newest API level the router knows a reading of, and `parse`'s default.
    public static let latestAPILevel = 36
    /// The API level whose devices read dynamic rules as `15-initial`: Android 15 as first
    /// released. Which later level first carried the newer parser is not documented; linkwright
    /// reads 36 and later as `latest`.
    public static let android15APILevel = 35

    /// The sealed class's name: `MuseoDestination`.
    public static func typeName(_ model: AndroidRouterModel) -> String {
        GeneratedTypeName.of(model.app) + "Destination"
    }

    /// The file name: `MuseoDestination.kt`.
    public static func fileName(_ model: AndroidRouterModel) -> String { typeName(model) + ".kt" }

    /// The router's source, declared in `package`, its destination class with `access` (public
    /// or internal; Kotlin has no package visibility). `command` is what regenerates it, for the header.
    public static func source(
        _ model: AndroidRouterModel, package: String, command: String, access: GeneratedAccess = .internal
    ) -> String {
        let type = typeName(model)
        let links = GeneratedTypeName.of(model.app) + "Links"
        var out = CodeText()
        out.header(sourceFiles: model.sourceFiles, command: command, comment: "//")
        out.line("package " + package.split(separator: ".").map { identifier(String($0)) }.joined(separator: "."))
        out.blank()
        out.line("/**")
        out.line(" * A screen of the \(model.app) app that an Android App Link opens.")
        out.line(" *")
        out.line(" * `parse` returns one exactly when the device opens the app for the URL: a verified intent filter")
        out.line(" * claims its host and path, and from API level 35 the first matching dynamic rule of the")
        out.line(" * assetlinks.json the URL's own host looks up does not exclude it. Below 35 the intent filters")
        out.line(" * alone open the app, so a URL the rules keep on the web, or that no rule matches, opens it with")
        out.line(" * no destination: `parse` returns null, and the app shows its start screen.")
        if !model.schemes.isEmpty {
            out.line(" *")
            out.line(" * Android hands the app every URL of a custom scheme it declares; the scheme's routes, read as")
            out.line(
                " * the iOS router reads them, decide where one leads (`scheme:/path?query`, without an authority).")
        }
        out.line(" */")
        out.line("\(access.kotlinModifier ?? "")sealed class \(type) {")
        if model.destinations.isEmpty { out.line("    // \(RouterModel.noDestinationNote)") }
        for destination in model.destinations {
            let name = className(destination.name, in: model)
            guard !destination.parameters.isEmpty else {
                out.line("    object \(name) : \(type)()")
                continue
            }
            let parameters = destination.parameters.map { "val \(identifier($0.name)): \(typeName($0))" }
            out.line("    data class \(name)(\(parameters.joined(separator: ", "))) : \(type)()")
        }
        out.blank()
        out.line("    companion object {")
        out.line("        /** The newest Android API level this router knows how to decide for: `parse`'s default. */")
        out.line("        const val LATEST_API_LEVEL = \(latestAPILevel)")
        out.blank()
        out.line("        /**")
        out.line("         * The destination of [url] (`intent.data.toString()`) on a device running")
        out.line("         * [androidApiLevel] (pass `Build.VERSION.SDK_INT`), or null when the link does not open")
        out.line("         * the app there, or opens it without a destination (`route: none`, or a parameter")
        out.line("         * read `as int` that is not a whole number).")
        out.line("         */")
        out.line("        fun parse(url: String, androidApiLevel: Int = LATEST_API_LEVEL): \(type)? =")
        out.line("            \(links).destination(url, androidApiLevel)")
        out.line("    }")
        out.line("}")
        out.blank()
        router(model, type: type, links: links, into: &out)
        for route in readers(model) {
            out.blank()
            reader(route, model: model, into: &out)
        }
        out.blank()
        out.text(support(destination: type))
        if !model.schemes.isEmpty {
            out.blank()
            out.text(schemeSupport(destination: type))
        }
        return out.text
    }

    private static func router(_ model: AndroidRouterModel, type: String, links: String, into out: inout CodeText) {
        out.line(
            model.schemes.isEmpty
                ? "/** The \(model.app) app's verified intent filters and the dynamic rules of the sites they name. */"
                : "/** The \(model.app) app's verified intent filters, the dynamic rules of their sites, and its schemes' routes. */"
        )
        out.line("private object \(links) {")
        out.line("    fun destination(url: String, androidApiLevel: Int): \(type)? {")
        if !model.schemes.isEmpty {
            out.line("        val schemeLink = Link.parseScheme(url)")
            out.line("        if (schemeLink != null) return schemeRoutes(schemeLink.scheme)?.destination(schemeLink)")
        }
        out.line("        val link = Link.parse(url) ?: return null")
        out.line("        val claims = claimsOf(link.host) ?: return null")
        out.line("        if (claims.none { it.claims(link) }) return null")
        out.line(
            "        val release = if (androidApiLevel == \(android15APILevel)) Release.ANDROID_15_INITIAL else Release.LATEST"
        )
        out.line("        val rules = rulesFor(claims, link.host, release) ?: return null")
        out.line("        val rule = rules.firstOrNull { it.matches(link, release) } ?: return null")
        out.line("        return rule.destination?.invoke(link)")
        out.line("    }")
        out.blank()
        out.line("    /**")
        out.line("     * The claims of the build that claims [host] most specifically: its own name before a")
        out.line("     * `*.` wildcard, a longer wildcard before a shorter one, an earlier environment on a tie.")
        out.line("     */")
        out.line("    private fun claimsOf(host: String): List<Claim>? {")
        out.line("        var best: List<Claim>? = null")
        out.line("        var bestRank = -1")
        out.line("        for (claims in builds) {")
        out.line("            for (claim in claims) {")
        out.line("                val rank = claim.rank(host)")
        out.line("                if (rank > bestRank) {")
        out.line("                    best = claims")
        out.line("                    bestRank = rank")
        out.line("                }")
        out.line("            }")
        out.line("        }")
        out.line("        return best")
        out.line("    }")
        out.blank()
        out.line("    /**")
        out.line("     * The dynamic rules Android applies on [host], whichever filter claimed the URL")
        out.line("     * (DomainVerificationService.getUriRelativeFilterGroups): those of the claim declaring")
        out.line("     * the host itself, else, on LATEST, of the nearest `*.` parent declared, never `*.`")
        out.line("     * with the last label alone; null when none has rules, so no rule names a destination.")
        out.line("     */")
        out.line("    private fun rulesFor(claims: List<Claim>, host: String, release: Release): List<Rule>? {")
        out.line("        var domain = host")
        out.line("        var rest = host")
        out.line("        while (true) {")
        out.line("            for (claim in claims) {")
        out.line("                val rules = claim.site.rules")
        out.line("                if (rules != null && claim.declares(domain)) return rules")
        out.line("            }")
        out.line("            if (release != Release.LATEST) return null")
        out.line("            val dot = rest.indexOf('.')")
        out.line("            if (dot < 0 || rest.indexOf('.', dot + 1) < 0) return null")
        out.line("            rest = rest.substring(dot + 1)")
        out.line("            domain = \"*.\" + rest")
        out.line("        }")
        out.line("    }")
        let names = objectNames(model)
        for (site, name) in zip(model.sites, names.sites) {
            out.blank()
            self.site(site, named: name, model: model, type: type, into: &out)
        }
        if !model.schemes.isEmpty { schemes(model, names: names.schemeLists, into: &out) }
        for (environmentIndex, environment) in model.environments.enumerated() {
            out.blank()
            out.line("    /** \(environment.package) in \(environment.name). */")
            let name = names.claims[environmentIndex]
            // An environment whose build claims no host (its routes are all on schemes) has no claims.
            out.line("    private val \(name) = listOf" + (environment.claims.isEmpty ? "<Claim>(" : "("))
            for (index, claim) in environment.claims.enumerated() {
                let scopes = claim.scopes.map(matcher)
                let comma = index < environment.claims.count - 1 ? "," : ""
                let opening = "        Claim(\(literal(claim.host)), \(names.sites[claim.site]), "
                out.wrapped(scopes, first: opening + "listOf(", continuation: "            ", last: "))" + comma)
            }
            out.line("    )")
        }
        out.blank()
        let builds = names.claims
        out.wrapped(builds, first: "    private val builds = listOf(", continuation: "        ", last: ")")
        out.line("}")
    }

    /// The names of what the router object holds, distinct from each other, from its own members
    /// and from Kotlin's keywords: each environment's claims, each site, each scheme's routes.
    private static func objectNames(_ model: AndroidRouterModel) -> (
        claims: [String], sites: [String], schemeLists: [String]
    ) {
        var scope = NameScope(reserved: KotlinNames.keywords.union(KotlinNames.routerMembers))
        let claims = model.environments.map {
            scope.claim(RouterModel.listName(domain: $0.name, environments: []) + "Claims")
        }
        let sites = model.sites.map { scope.claim($0.name) }
        return (claims, sites, model.schemeLists.map { scope.claim($0.name) })
    }

    private static func site(
        _ site: AndroidRouterModel.Site, named name: String, model: AndroidRouterModel, type: String,
        into out: inout CodeText
    ) {
        guard let rules = site.rules else {
            out.line(
                "    /** Its assetlinks.json has no dynamic rules: the intent filters alone open the app, to no destination. */"
            )
            out.line("    private val \(name) = Site(rules = null)")
            return
        }
        out.line("    private val \(name) = Site(")
        out.line("        listOf(")
        for (index, rule) in rules.enumerated() {
            self.rule(rule, model: model, comma: index < rules.count - 1 ? "," : "", into: &out)
        }
        out.line("        )")
        out.line("    )")
    }

    private static func rule(
        _ rule: AndroidRouterModel.Rule, model: AndroidRouterModel, comma: String, into out: inout CodeText
    ) {
        if let origin = rule.origin { out.line("            // \(origin)") }
        var arguments: [KotlinExpression] = []
        if let path = rule.path { arguments.append(pattern(path, named: "path")) }
        if !rule.queryItems.isEmpty {
            arguments.append(.call("queryItems = listOf", rule.queryItems.map { pattern($0, named: nil) }))
        }
        if let fragment = rule.fragment { arguments.append(pattern(fragment, named: "fragment")) }
        if rule.exclude { arguments.append(.text("exclude = true")) }
        if let route = rule.route { arguments.append(.text("destination = " + destination(route, model: model))) }
        out.expression(.call("Rule", arguments), indent: "            ", last: comma)
    }

    /// `schemeRoutes(scheme)` and each scheme's entries: Apple's reading of a rule's path and
    /// query items, as the iOS router reads them.
    private static func schemes(_ model: AndroidRouterModel, names: [String], into out: inout CodeText) {
        out.blank()
        out.line(
            "    /** The routes of a custom scheme the app declares, compared exactly as IntentFilter.matchData compares schemes. */"
        )
        out.line("    private fun schemeRoutes(scheme: String): SchemeRoutes? = when (scheme) {")
        for scheme in model.schemes {
            out.line("        \(literal(scheme.scheme)) -> \(names[scheme.ruleList])")
        }
        out.line("        else -> null")
        out.line("    }")
        for (list, name) in zip(model.schemeLists, names) {
            out.blank()
            out.line("    private val \(name) = SchemeRoutes(")
            out.line("        listOf(")
            for (index, rule) in list.rules.enumerated() {
                if let origin = rule.origin { out.line("            // \(origin)") }
                var arguments: [KotlinExpression] = []
                if rule.path != "*" { arguments.append(.text(literal(rule.path))) }
                if case .items(let items) = rule.query {
                    arguments.append(
                        .call(
                            "queryItems = listOf",
                            items.map { .text("\(literal($0.name)) to \(literal($0.pattern))") }))
                }
                if let route = rule.route {
                    arguments.append(.text("destination = " + destination(route, model: model)))
                }
                out.expression(
                    .call("SchemeEntry", arguments), indent: "            ",
                    last: index < list.rules.count - 1 ? "," : "")
            }
            out.line("        )")
            out.line("    )")
        }
    }

    /// What a rule leading to `route` returns: the object, or the function reading its parameters.
    private static func destination(_ route: RouterRoute, model: AndroidRouterModel) -> String {
        let destination = model.destinations[route.destination]
        return destination.parameters.isEmpty
            ? "{ \(typeName(model)).\(className(destination.name, in: model)) }"
            : "::\(readerName(route, model: model))"
    }

    /// The routes rules and scheme entries read, each once, in the order they first appear: rules
    /// made from one YAML rule, or leading to one destination read alike, share a function.
    private static func readers(_ model: AndroidRouterModel) -> [RouterRoute] {
        var routes: [RouterRoute] = []
        let read =
            model.sites.flatMap { ($0.rules ?? []).compactMap(\.route) }
            + model.schemeLists.flatMap { $0.rules.compactMap(\.route) }
        for route in read where !model.destinations[route.destination].parameters.isEmpty && !routes.contains(route) {
            routes.append(route)
        }
        return routes
    }

    /// `ticketOf`, then `ticketOf2` for a second way of reading `ticket`.
    private static func readerName(_ route: RouterRoute, model: AndroidRouterModel) -> String {
        let routes = readers(model)
        let index = routes.firstIndex(of: route)!
        let earlier = routes[..<index].filter { $0.destination == route.destination }.count
        return model.destinations[route.destination].name + "Of" + (earlier == 0 ? "" : String(earlier + 1))
    }

    /// A function reading `route`'s parameters from a link the rule opened; `null` when a
    /// required one is absent or an `int` is not a whole number. Each value is read where it is
    /// passed, so no local name can hide the link or a function another value is read with.
    private static func reader(_ route: RouterRoute, model: AndroidRouterModel, into out: inout CodeText) {
        let destination = model.destinations[route.destination]
        let type = typeName(model)
        out.line("private fun \(readerName(route, model: model))(link: Link): \(type)? {")
        var values: [String] = []
        for parameter in route.parameters {
            let read = parameter.read(from: "link", quoting: literal)
            let value =
                switch (parameter.type, parameter.isOptional) {
                case (.string, true): read
                case (.string, false): "\(read) ?: return null"
                case (.int, false): "\(read)?.let(::wholeNumber) ?: return null"
                case (.int, true): "\(read)?.let { wholeNumber(it) ?: return null }"
                }
            values.append("\(identifier(parameter.name)) = \(value)")
        }
        out.expression(
            .call("return \(type).\(className(destination.name, in: model))", values.map(KotlinExpression.text)),
            indent: "    ", last: "")
        out.line("}")
    }

    /// A dynamic-rule pattern, as the argument `name` when given: one filter when both
    /// releases read it alike, else both.
    private static func pattern(_ pattern: AndroidRouterModel.Pattern, named name: String?) -> KotlinExpression {
        var filters = [KotlinExpression.text(matcher(pattern.latest))]
        if pattern.android15Initial != pattern.latest {
            filters.append(.text("android15Initial = " + matcher(pattern.android15Initial)))
        }
        return .call((name.map { $0 + " = " } ?? "") + "Pattern", filters)
    }

    /// `literal("/a")`, `prefix("/a/")`, `simpleGlob("/.*/a")`, `advancedGlob("/.+/a")`.
    private static func matcher(_ filter: AndroidFilter) -> String {
        let function =
            switch filter.kind {
            case .literal: "literal"
            case .prefix: "prefix"
            case .simpleGlob: "simpleGlob"
            case .advancedGlob: "advancedGlob"
            }
        return "\(function)(\(literal(filter.filterText)))"
    }

    /// `exhibitionPreview` → `ExhibitionPreview`, as `KotlinNames.className` spells it.
    public static func className(_ destination: String, in model: AndroidRouterModel) -> String {
        KotlinNames.className(destination, in: typeName(model))
    }

    /// No destination class is called `String` or `Long` (`KotlinNames.typesInScope`), so the
    /// names need no package.
    private static func typeName(_ parameter: RouterParameter) -> String {
        // `as int` is a whole number as the core reads it, 64 bits wide (Swift's Int).
        (parameter.type == .int ? "Long" : "String") + (parameter.isOptional ? "?" : "")
    }

    /// A Kotlin string literal holding `text` exactly: `$` escaped, since it starts a template,
    /// and everything outside printable ASCII as its UTF-16 units' `\u` escapes.
    static func literal(_ text: String) -> String {
        CodeText.literal(text, escapes: ["\"": "\\\"", "\\": "\\\\", "$": "\\$"]) { scalar in
            String(scalar).utf16.map { unit in
                let hex = String(unit, radix: 16, uppercase: true)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }.joined()
        }
    }

    /// Destination parameters and package segments as declared (`KotlinNames`).
    public static func identifier(_ name: String) -> String { KotlinNames.identifier(name) }
}
