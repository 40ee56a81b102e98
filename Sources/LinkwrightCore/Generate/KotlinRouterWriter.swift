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

    /// What every router shares: the URL's parts as `android.net.Uri` gives them, and
    /// `PatternMatcher`'s pattern types. `destination` is the sealed class rules return.
    private static func support(destination: String) -> String {
        """
        /** A host of a verified intent filter, its `<data>` path attributes, and the site it verifies with. */
        private class Claim(private val host: String, val site: Site, private val scopes: List<Matcher>) {
            /** Whether the host is this one and a path attribute accepts the decoded path. */
            fun claims(link: Link): Boolean = rank(link.host) >= 0 && scopes.any { it.matches(link.path) }

            /** Whether this is the host [domain] names, `*.` included: the key Android stores rules under. */
            fun declares(domain: String): Boolean = host.equals(domain, ignoreCase = true)

            /**
             * How specifically the host is claimed: -1 not at all. A leading `*` is dropped and the rest
             * compared with the end of the host, without case, so `*.example.com` covers `a.example.com`
             * but not `example.com` (IntentFilter.AuthorityEntry.match).
             */
            fun rank(name: String): Int = when {
                !host.startsWith("*") -> if (name.equals(host, ignoreCase = true)) Int.MAX_VALUE else -1
                name.endsWith(host.substring(1), ignoreCase = true) -> host.length
                else -> -1
            }
        }

        /** The dynamic rules a site's assetlinks.json gives the app; null when it gives none. */
        private class Site(val rules: List<Rule>?)

        /**
         * One of `dynamic_app_link_components`: every part it names must match, and `destination` is
         * null for exclusions and rules that open the app without one.
         */
        private class Rule(
            val path: Pattern? = null,
            val queryItems: List<Pattern> = emptyList(),
            val fragment: Pattern? = null,
            val exclude: Boolean = false,
            val destination: ((Link) -> \(destination)?)? = null
        ) {
            /**
             * A query entry needs one whole `name=value` item to match; a fragment pattern fails on a URL
             * without a fragment (PatternMatcher.match(null) is false).
             */
            fun matches(link: Link, release: Release): Boolean {
                if (path != null && !path.matches(link.path, release)) return false
                for (item in queryItems) {
                    if (link.queryItems.none { item.matches(it, release) }) return false
                }
                val value = link.fragment
                return fragment == null || (value != null && fragment.matches(value, release))
            }
        }

        /** The versions of StatementService's DalComponentParser, which reads dynamic rules (AndroidRelease). */
        private enum class Release { ANDROID_15_INITIAL, LATEST }

        /** A dynamic-rule pattern as each release hands it to PatternMatcher. */
        private class Pattern(private val latest: Matcher, private val android15Initial: Matcher = latest) {
            fun matches(value: String, release: Release): Boolean =
                (if (release == Release.LATEST) latest else android15Initial).matches(value)
        }

        /** An android.os.PatternMatcher: its type and pattern. */
        private class Matcher(private val type: Int, private val pattern: String) {
            fun matches(value: String): Boolean = when (type) {
                LITERAL -> value == pattern
                PREFIX -> value.startsWith(pattern)
                SIMPLE_GLOB -> SimpleGlob(pattern).matches(value)
                else -> AdvancedGlob.parse(pattern)?.matches(value) ?: false
            }

            companion object {
                const val LITERAL = 0
                const val PREFIX = 1
                const val SIMPLE_GLOB = 2
                const val ADVANCED_GLOB = 3
            }
        }

        private fun literal(pattern: String) = Matcher(Matcher.LITERAL, pattern)
        private fun prefix(pattern: String) = Matcher(Matcher.PREFIX, pattern)
        private fun simpleGlob(pattern: String) = Matcher(Matcher.SIMPLE_GLOB, pattern)
        private fun advancedGlob(pattern: String) = Matcher(Matcher.ADVANCED_GLOB, pattern)

        /**
         * PATTERN_SIMPLE_GLOB in one left-to-right pass that never backtracks: `.` is any character,
         * `x*` takes every `x` that follows, `.*` skips to the first occurrence of the character after
         * it (or takes the rest at the end), and `\\` makes the next character literal before a `*`.
         */
        private class SimpleGlob(private val pattern: String) {
            private var state = AT
            /** The pattern position to read next (AT), or to go on at once `held` is passed. */
            private var next = 0
            /** The character `.*` skips to (SKIPPING), or the one `x*` repeats (REPEATING). */
            private var held = '\\u0000'

            fun matches(input: String): Boolean {
                for (character in input) {
                    when (state) {
                        AT -> read(character, next)
                        SKIPPING -> if (character == held) state = AT
                        REPEATING -> if (character != held) read(character, next)
                    }
                    if (state == FAILED) return false
                }
                return when (state) {
                    AT, REPEATING -> pattern.length == 0 || next >= pattern.length ||
                        (next == pattern.length - 2 && pattern[next] == '.' && pattern[next + 1] == '*')
                    ACCEPTING_REST -> true
                    else -> false
                }
            }

            private fun at(index: Int): Char = if (index < pattern.length) pattern[index] else '\\u0000'

            private fun read(input: Char, position: Int) {
                if (position >= pattern.length) {
                    state = FAILED
                    return
                }
                var index = position + 1
                var character = pattern[position]
                val escaped = character == '\\\\'
                if (escaped) {
                    character = at(index)
                    index += 1
                }
                if (at(index) != '*') {
                    state = if (character != '.' && input != character) FAILED else AT
                    next = index
                    return
                }
                if (!escaped && character == '.') {
                    if (index >= pattern.length - 1) {
                        state = ACCEPTING_REST
                        return
                    }
                    index += 1
                    var stop = pattern[index]
                    if (stop == '\\\\') {
                        index += 1
                        stop = at(index)
                    }
                    next = index + 1
                    held = stop
                    state = if (input == stop) AT else SKIPPING
                    return
                }
                index += 1
                if (input == character) {
                    state = REPEATING
                    held = character
                    next = index
                } else {
                    read(input, index)
                }
            }

            companion object {
                const val AT = 0
                const val SKIPPING = 1
                const val REPEATING = 2
                const val ACCEPTING_REST = 3
                const val FAILED = 4
            }
        }

        /**
         * PATTERN_ADVANCED_GLOB as the first dynamic-rule parser writes it: literals (`\\x` escaped),
         * `.` any character, `*` and `+` modifiers. Each token takes as many characters as it can and
         * never gives any back. A pattern PatternMatcher refuses (sets, ranges, a modifier with
         * nothing to modify, an escape at the end) is null and matches nothing.
         */
        private class AdvancedGlob(private val tokens: List<Token>) {
            class Token(val literal: Char?, val minimum: Int, val unbounded: Boolean)

            fun matches(input: String): Boolean {
                var position = 0
                for (token in tokens) {
                    var taken = 0
                    while ((token.unbounded || taken < 1) && position + taken < input.length &&
                        (token.literal == null || token.literal == input[position + taken])
                    ) {
                        taken += 1
                    }
                    if (taken < token.minimum) return false
                    position += taken
                }
                return position == input.length
            }

            companion object {
                fun parse(pattern: String): AdvancedGlob? {
                    val tokens = ArrayList<Token>()
                    var modified = false
                    var index = 0
                    while (index < pattern.length) {
                        val character = pattern[index]
                        when (character) {
                            '*', '+' -> {
                                if (tokens.isEmpty() || modified) return null
                                val last = tokens.removeAt(tokens.size - 1)
                                tokens.add(Token(last.literal, if (character == '*') 0 else 1, true))
                                modified = true
                            }
                            '[', '{', '}' -> return null
                            '\\\\' -> {
                                index += 1
                                if (index >= pattern.length) return null
                                tokens.add(Token(pattern[index], 1, false))
                                modified = false
                            }
                            '.' -> {
                                tokens.add(Token(null, 1, false))
                                modified = false
                            }
                            else -> {
                                tokens.add(Token(character, 1, false))
                                modified = false
                            }
                        }
                        index += 1
                    }
                    return AdvancedGlob(tokens)
                }
            }
        }

        /**
         * An https URL split as android.net.Uri splits it: the path, query and fragment as written
         * (still percent-encoded) and decoded. Text a browser would have encoded (spaces, control
         * characters), a user name or an invalid port is no App Link: null.
         */
        private class Link(
            val host: String,
            /** The path and query as written; a custom scheme's routes compare these. */
            val rawPath: String,
            val rawQuery: String?,
            rawFragment: String?,
            val scheme: String = "https"
        ) {
            /** Uri.getPath(). */
            val path: String = decoded(rawPath)
            val fragment: String? = rawFragment?.let(::decoded)

            /**
             * The query as UriRelativeFilter.matchQuery compares it: decoded (Uri.getQuery()), split at
             * `&`, or at `;` when `&` leaves one piece, trailing empty pieces dropped (Java's
             * String.split); no query, no items.
             */
            val queryItems: List<String> by lazy {
                if (rawQuery == null) return@lazy emptyList<String>()
                val query = decoded(rawQuery)
                val pieces = javaSplit(query, '&')
                if (pieces.size == 1) javaSplit(query, ';') else pieces
            }

            /** The path's `position`-th segment (from 1, empty segments skipped), decoded; null when absent or empty. */
            fun segment(position: Int): String? {
                val segments = rawPath.split('/').filter { it.isNotEmpty() }
                return if (position <= segments.size) nonEmpty(decoded(segments[position - 1])) else null
            }

            /** The value of the first query item named `name`, decoded; null when absent or empty. */
            fun queryItem(name: String): String? {
                for (item in (rawQuery ?: "").split('&')) {
                    if (item.length == 0) continue
                    val equals = item.indexOf('=')
                    val itemName = if (equals < 0) item else item.substring(0, equals)
                    if (decoded(itemName) == name) {
                        return if (equals < 0) null else nonEmpty(decoded(item.substring(equals + 1)))
                    }
                }
                return null
            }

            companion object {
                fun parse(url: String): Link? {
                    if (url.any { it <= ' ' || it == '\\u007F' }) return null
                    val hash = url.indexOf('#')
                    val beforeFragment = if (hash < 0) url.length else hash
                    val question = url.indexOf('?')
                    val hasQuery = question in 0 until beforeFragment
                    val end = if (hasQuery) question else beforeFragment
                    // Android compares schemes case-sensitively (IntentFilter.matchData); the filters say https.
                    if (!url.startsWith("https://") || end < "https://".length) return null
                    val authorityEnd = url.indexOf('/', "https://".length).let { if (it in 0 until end) it else end }
                    val authority = url.substring("https://".length, authorityEnd)
                    if (authority.length == 0 || authority.contains('@')) return null
                    val colon = authority.lastIndexOf(':')
                    if (colon >= 0) {
                        val port = wholeNumber(authority.substring(colon + 1))
                        if (port == null || port < 0 || port > 65535) return null
                    }
                    val host = if (colon >= 0) authority.substring(0, colon) else authority
                    if (host.length == 0) return null
                    return Link(
                        host,
                        url.substring(authorityEnd, end),
                        if (hasQuery) url.substring(question + 1, beforeFragment) else null,
                        if (hash >= 0) url.substring(hash + 1) else null
                    )
                }
            }
        }

        private fun nonEmpty(text: String): String? = if (text.length == 0) null else text

        /** Pieces of `text` between `separator`s, trailing empty ones dropped; the whole text when it has none. */
        private fun javaSplit(text: String, separator: Char): List<String> {
            if (text.indexOf(separator) < 0) return listOf(text)
            val pieces = text.split(separator).toMutableList()
            while (pieces.isNotEmpty() && pieces[pieces.size - 1].length == 0) pieces.removeAt(pieces.size - 1)
            return pieces
        }

        /** A whole number in ASCII digits with an optional sign, 64 bits wide; null otherwise. */
        private fun wholeNumber(text: String): Long? {
            val digits = if (text.startsWith("+") || text.startsWith("-")) text.substring(1) else text
            if (digits.length == 0 || digits.any { it !in '0'..'9' }) return null
            return (if (text.startsWith("+")) digits else text).toLongOrNull()
        }

        /**
         * `%XX` escapes decoded and the bytes read as UTF-8: a `%` without two hex digits stays as
         * written, and bytes that are not UTF-8 read as U+FFFD (Uri.decode, AOSP UriCodec).
         */
        private fun decoded(text: String): String {
            if (text.indexOf('%') < 0) return text
            val input = text.toByteArray(Charsets.UTF_8)
            val bytes = ByteArray(input.size)
            var count = 0
            var index = 0
            while (index < input.size) {
                val high = if (index + 2 < input.size) hexDigit(input[index + 1]) else -1
                val low = if (index + 2 < input.size) hexDigit(input[index + 2]) else -1
                if (input[index].toInt() == PERCENT && high >= 0 && low >= 0) {
                    bytes[count] = (high * 16 + low).toByte()
                    index += 3
                } else {
                    bytes[count] = input[index]
                    index += 1
                }
                count += 1
            }
            return String(bytes, 0, count, Charsets.UTF_8)
        }

        /** ASCII codes, compared as numbers: the Char and Byte conversions of Kotlin 1.3 are deprecated since. */
        private const val PERCENT = 0x25

        private fun hexDigit(byte: Byte): Int {
            val code = byte.toInt()
            return when (code) {
                in 0x30..0x39 -> code - 0x30
                in 0x41..0x46 -> code - 0x41 + 10
                in 0x61..0x66 -> code - 0x61 + 10
                else -> -1
            }
        }

        """
    }
}

extension KotlinRouterWriter {
    /// What routers of apps with scheme routes add: a scheme URL's parts, and Apple's reading of a
    /// rule's path and query items (`Rule.matches` of the Swift router, with the default flags).
    fileprivate static func schemeSupport(destination: String) -> String {
        """
        /**
         * A URL of a custom scheme without an authority, `scheme:/path?query`, as written; null for any
         * other. `scheme://x` has an authority (RFC 3986, section 3.2): x is a host, not a path segment.
         */
        private fun Link.Companion.parseScheme(url: String): Link? {
            if (url.any { it <= ' ' || it == '\\u007F' }) return null
            val colon = url.indexOf(':')
            if (colon <= 0 || url[0] !in 'a'..'z' && url[0] !in 'A'..'Z') return null
            val scheme = url.substring(0, colon)
            val letters = ('a'..'z') + ('A'..'Z') + ('0'..'9') + listOf('+', '-', '.')
            if (scheme.any { it !in letters }) return null
            if (scheme.equals("http", ignoreCase = true) || scheme.equals("https", ignoreCase = true)) return null
            if (url.startsWith("//", colon + 1)) return null
            val hash = url.indexOf('#')
            val beforeFragment = if (hash < 0) url.length else hash
            val question = url.indexOf('?')
            val hasQuery = question in 0 until beforeFragment
            val end = if (hasQuery) question else beforeFragment
            return Link(
                "",
                url.substring(colon + 1, end),
                if (hasQuery) url.substring(question + 1, beforeFragment) else null,
                if (hash >= 0) url.substring(hash + 1) else null,
                scheme
            )
        }

        /** A custom scheme's routes: the first entry that matches decides. */
        private class SchemeRoutes(private val entries: List<SchemeEntry>) {
            fun destination(link: Link): \(destination)? {
                val entry = entries.firstOrNull { it.matches(link) } ?: return null
                return entry.destination?.invoke(link)
            }
        }

        /**
         * One entry of a scheme's routes, read as Apple reads a rule with the default flags: the path and
         * query items compared as written, `*` any run of characters, `?` one; an absent item reads as
         * empty, and every item of the name must match. `destination` is null for exclusions and
         * `route: none`.
         */
        private class SchemeEntry(
            private val path: String = "*",
            private val queryItems: List<Pair<String, String>> = emptyList(),
            val destination: ((Link) -> \(destination)?)? = null
        ) {
            fun matches(link: Link): Boolean {
                val pattern = withAppleSlashes(path, isPattern = true)
                if (!globMatches(pattern, withAppleSlashes(link.rawPath, isPattern = false))) return false
                val items = (link.rawQuery ?: "").split('&').filter { it.isNotEmpty() }.map { item ->
                    val equals = item.indexOf('=')
                    if (equals < 0) Pair(item, "") else Pair(item.substring(0, equals), item.substring(equals + 1))
                }
                return queryItems.all { (name, pattern) ->
                    val values = items.filter { it.first == name }.map { it.second }
                    (if (values.isEmpty()) listOf("") else values).all { globMatches(pattern, it) }
                }
            }
        }

        /**
         * Apple's reading of paths: leading and trailing slashes do not count on either side, and a
         * pattern whose last character is `*` also matches its parent path. (No slash-star here: Kotlin
         * comments nest.)
         */
        private fun withAppleSlashes(text: String, isPattern: Boolean): String {
            val core = text.trim('/')
            return when {
                core.length == 0 -> "/"
                isPattern && core.endsWith("*") -> "/" + core
                else -> "/$core/"
            }
        }

        /** Whether [pattern] matches the whole of [text], Unicode scalar by scalar; `*` never backtracks. */
        private fun globMatches(pattern: String, text: String): Boolean {
            val input = text.codePoints().toArray()
            var positions = BooleanArray(input.size + 1)
            positions[0] = true
            for (token in pattern.codePoints().toArray()) {
                val next = BooleanArray(input.size + 1)
                if (token == STAR) {
                    val first = positions.indexOfFirst { it }
                    for (index in first..input.size) next[index] = true
                } else {
                    for (index in input.indices) {
                        val reads = token == QUESTION_MARK || input[index] == token
                        if (positions[index] && reads) next[index + 1] = true
                    }
                }
                if (next.none { it }) return false
                positions = next
            }
            return positions[input.size]
        }

        private const val STAR = 0x2A
        private const val QUESTION_MARK = 0x3F

        """
    }
}

/// Kotlin written on one line when it fits, else as a call broken one argument a line.
indirect enum KotlinExpression {
    case text(String)
    /// `head(arguments)`: `head` may be `path = Pattern` or `return Ticket`.
    case call(String, [KotlinExpression])

    var flat: String {
        switch self {
        case .text(let text): text
        case .call(let head, let arguments): head + "(" + arguments.map(\.flat).joined(separator: ", ") + ")"
        }
    }
}

extension CodeText {
    /// `expression` at `indent`, followed by `last`. A call that does not fit gets an argument a
    /// line, each broken again when it does not fit, and its `)` on a line of its own: Kotlin 1.3
    /// takes no comma after the last argument.
    mutating func expression(_ expression: KotlinExpression, indent: String, last: String) {
        let single = indent + expression.flat + last
        guard case .call(let head, let arguments) = expression, single.count > SwiftRouterWriter.lineLength,
            !arguments.isEmpty
        else {
            line(single)
            return
        }
        line(indent + head + "(")
        for (index, argument) in arguments.enumerated() {
            self.expression(argument, indent: indent + "    ", last: index < arguments.count - 1 ? "," : "")
        }
        line(indent + ")" + last)
    }
}
