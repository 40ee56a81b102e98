/// The Kotlin every generated router carries beside its rules, kept apart from the writer that
/// arranges the rules so each reads on its own.
extension KotlinRouterWriter {
    /// What every router shares: the URL's parts as `android.net.Uri` gives them, and
    /// `PatternMatcher`'s pattern types. `destination` is the sealed class rules return.
    static func support(destination: String) -> String {
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
