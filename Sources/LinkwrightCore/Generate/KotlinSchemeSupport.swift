/// The Kotlin that routers of apps with scheme routes add to what every router carries.
extension KotlinRouterWriter {
    /// What routers of apps with scheme routes add: a scheme URL's parts, and Apple's reading of a
    /// rule's path and query items (`Rule.matches` of the Swift router, with the default flags).
    static func schemeSupport(destination: String) -> String {
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
