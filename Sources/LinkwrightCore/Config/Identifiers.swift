import Foundation

/// Why a written identifier cannot be used, ready to become a diagnostic.
public struct IdentifierProblem: Error, Equatable, Sendable {
    public var id: DiagnosticID
    public var message: String
    public var hint: String

    public init(_ id: DiagnosticID, _ message: String, hint: String) {
        self.id = id
        self.message = message
        self.hint = hint
    }
}

/// A host name as it may appear in an entitlement and as a folder name in the output: lowercase
/// ASCII labels of letters, digits and hyphens, optionally behind a leading `*.`.
///
/// The only way to make one is `Host.parse`, which refuses everything else, so a host can never
/// name a path outside the output folder (no `/`, `..`, NUL or empty label can pass).
public struct Host: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let name: String

    private init(validated name: String) { self.name = name }

    public var description: String { name }
    public var isWildcard: Bool { name.hasPrefix("*.") }

    /// The host whose association files a wildcard host uses: Apple (TN3155) and Android
    /// (add-applinks) both fetch them from the root, `museo.example` for `*.museo.example`.
    public var fileHost: Host { isWildcard ? Host(validated: String(name.dropFirst(2))) : self }

    public static func < (lhs: Host, rhs: Host) -> Bool { lhs.name < rhs.name }

    /// Validates a host as written in configuration. Internationalised labels are converted to
    /// punycode (NFC first, as IDNA does); Apple documents nothing about IDN entitlements, so the
    /// ASCII form is the one both platforms are certain to compare equal. Labels must be valid
    /// IDNA2008 (`IDNALabel`), and lengths are checked before anything is encoded, so the work is
    /// linear in the text however long it is.
    public static func parse(_ text: String) -> Result<Host, IdentifierProblem> {
        func problem(_ message: String, _ hint: String) -> Result<Host, IdentifierProblem> {
            .failure(IdentifierProblem(.invalidHost, message, hint: hint))
        }
        // Messages only: made when a problem is found, not for each of thousands of valid hosts.
        var quoted: String { "\"\(IDNALabel.shown(text))\"" }
        if text.isEmpty { return problem("host is empty", "write a host name such as museo.example") }
        // Nearly every host of a fleet is plain: none of these checks can find anything in it.
        let plain = isPlain(text)
        if !plain, let problem = unusualTextProblem(text) { return .failure(problem) }
        if text.hasSuffix(".") {
            return problem("\(quoted) ends with a dot", "write \"\(IDNALabel.shown(text.dropLast()))\"")
        }
        if !plain, text != text.lowercased() {
            return problem("\(quoted) is not lowercase", "write \"\(IDNALabel.shown(text.lowercased()))\"")
        }
        // ASCII is its own normal form.
        let normalized = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
        var labels = Self.labels(of: normalized, plain: plain)
        let wildcard = labels.first == "*"
        if wildcard { labels.removeFirst() }
        // In a plain text a `*` is a byte; in another, what Foundation's search finds.
        let hasStar: (String) -> Bool = plain ? { $0.utf8.contains(UInt8(ascii: "*")) } : { $0.contains("*") }
        if labels.contains(where: hasStar) {
            return problem(
                "\(quoted) has a `*` that is not the whole first label", "wildcards are written *.museo.example")
        }
        if labels.contains("") {
            return problem("\(quoted) has an empty label", "remove the extra dot")
        }
        // RFC 5890 §2.3.2.1 caps a label at 63 characters and RFC 1034 a name at 255 octets
        // (253 characters written out); the lower bounds refuse hostile lengths before encoding.
        func tooLong(_ label: String) -> Result<Host, IdentifierProblem> {
            let form = label.unicodeScalars.allSatisfy(\.isASCII) ? "" : " in its xn-- form"
            return problem("label \"\(IDNALabel.shown(label))\" is longer than 63 characters\(form)", "shorten it")
        }
        let hostTooLong = problem("host is longer than 253 characters", "shorten it")
        let lengths = labels.map(IDNALabel.minimumASCIILength)
        if let long = labels.indices.first(where: { lengths[$0] > 63 }) { return tooLong(labels[long]) }
        if lengths.reduce(wildcard ? 2 : 0, +) + labels.count - 1 > 253 { return hostTooLong }
        var ascii: [String] = []
        for label in labels {
            var shown: String { "label \"\(IDNALabel.shown(label))\"" }
            if label.unicodeScalars.contains(where: { !$0.isASCII }) {
                if let (reason, hint) = IDNALabel.uLabelProblem(Array(label.unicodeScalars)) {
                    return problem("\(shown) \(reason)", hint)
                }
                let encoded = Punycode.asciiLabel(label)
                guard encoded.count <= 63 else { return tooLong(label) }
                ascii.append(encoded)
                continue
            }
            let allowed = label.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            }
            guard allowed else {
                return problem("\(shown) has characters a host cannot have", "use letters, digits and hyphens only")
            }
            if label.hasPrefix("-") || label.hasSuffix("-") {
                return problem("\(shown) starts or ends with a hyphen", "remove the hyphen")
            }
            if label.hasPrefix(Punycode.acePrefix), let reason = IDNALabel.aLabelProblem(label) {
                return problem(
                    "\(shown) is not a valid internationalised label: \(reason)",
                    "write the label in Unicode, or as its valid xn-- form")
            }
            ascii.append(label)
        }
        guard ascii.count >= 2 else {
            return problem(
                "\(quoted) is not a fully qualified domain name",
                "write the full name, e.g. \(IDNALabel.shown(text)).example")
        }
        // The labels are ASCII now: a number is its digits.
        if ascii.last!.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return problem("\(quoted) is an IP address; associated domains need a host name", "use a host name")
        }
        let name = (wildcard ? "*." : "") + ascii.joined(separator: ".")
        guard name.utf8.count <= 253 else { return hostTooLong }
        return .success(Host(validated: name))
    }

    private static func stripped(_ text: Substring) -> String {
        String(text.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" })
    }

    /// Whether `text` is written with lowercase ASCII letters, digits, `-`, `.` and `*` only.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*")
        }
    }

    /// The labels of `text`, empty ones included; a plain text's characters are its bytes, and
    /// splitting its bytes takes a tenth of splitting its characters.
    static func labels(of text: String, plain: Bool) -> [String] {
        guard plain else { return text.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        return text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// What `parse` finds first in a text that is not plain (`isPlain`), before it looks at the
    /// trailing dot: a scheme, a path, a port, spaces or controls, or a dot other than `.`.
    static func unusualTextProblem(_ text: String) -> IdentifierProblem? {
        var quoted: String { "\"\(IDNALabel.shown(text))\"" }
        if let range = text.firstRange(of: "://") {
            return IdentifierProblem(
                .invalidHost, "\(quoted) has a scheme; hosts are written without one",
                hint: "write \"\(IDNALabel.shown(Self.stripped(text[range.upperBound...])))\"")
        }
        if text.contains("/") {
            return IdentifierProblem(
                .invalidHost, "\(quoted) has a path; a host is a name only",
                hint: "write \"\(IDNALabel.shown(Self.stripped(text[...])))\"")
        }
        if text.contains(":") {
            return IdentifierProblem(
                .hostWithPort, "\(quoted) has a port; Apple ignores links on hosts with ports (TN3155)",
                hint: "remove the port and serve the association files on 443")
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return IdentifierProblem(
                .invalidHost, "\(quoted) contains spaces or control characters", hint: "remove them")
        }
        if let dot = text.unicodeScalars.first(where: IDNALabel.dotEquivalents.contains) {
            let dotted = String(
                String.UnicodeScalarView(text.unicodeScalars.map { IDNALabel.dotEquivalents.contains($0) ? "." : $0 }))
            return IdentifierProblem(
                .invalidHost,
                "\(quoted) separates labels with \(IDNALabel.name(dot)), which only some readers take for a dot",
                hint: "write the dot as \".\": \"\(IDNALabel.shown(dotted))\"")
        }
        return nil
    }
}

/// Checks for the other identifiers of the configuration. Each returns `nil` when the value is
/// fine, or the problem to report.
public enum Identifiers {
    /// Logical names: environments, domains, apps, fingerprint channels. They become file names
    /// (`<env>/ios/<app>.entitlements`), so the alphabet leaves no room for paths.
    public static func nameProblem(_ name: String, what: String) -> IdentifierProblem? {
        let valid =
            !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            } && !name.hasPrefix("-") && !name.hasPrefix("_")
        if valid { return nil }
        return IdentifierProblem(
            .invalidName, "\(PrintableText.quoted(name)) is not a valid \(what) name",
            hint: "use lowercase letters, digits, - and _, starting with a letter or digit (at most 64)")
    }

    /// Apple team IDs (the Application Identifier Prefix) are 10 uppercase letters or digits.
    public static func teamIDProblem(_ team: String) -> IdentifierProblem? {
        if isTeamID(team) { return nil }
        let hint =
            normalisedTeamID(team).map { "team IDs are uppercase: \(PrintableText.quoted($0))" }
            ?? "copy the 10-character Team ID from the Membership page of your Apple developer account"
        return IdentifierProblem(.invalidTeamID, "\(PrintableText.quoted(team)) is not an Apple team ID", hint: hint)
    }

    /// The team ID in the uppercase form Apple issues, when `team` is one in either case (ASCII
    /// letters only: "ß" would grow into "SS").
    public static func normalisedTeamID(_ team: String) -> String? {
        let upper = String(
            String.UnicodeScalarView(
                team.unicodeScalars.map { ("a"..."z").contains($0) ? Unicode.Scalar($0.value - 32)! : $0 }))
        return isTeamID(upper) ? upper : nil
    }

    private static func isTeamID(_ team: String) -> Bool {
        team.unicodeScalars.count == 10
            && team.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// Route names are lowerCamelCase identifiers: the routers' destination cases (`none`, no
    /// destination, is written with a reason, in the domain file).
    public static func routeNameProblem(_ name: String) -> IdentifierProblem? {
        if ConfigDecoder.isIdentifier(name) && name != "none" { return nil }
        return IdentifierProblem(
            .invalidValue, "\(PrintableText.quoted(name)) is not a route name",
            hint: "name the destination in lowerCamelCase (exhibition, resetPassword)")
    }

    /// A path segment written as a router's parameter (`:id`), which an association file's
    /// pattern matches literally: the pattern that means what the writer meant, with `*`.
    public static func routerSyntaxProblem(inPath path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.contains(where: { $0.count > 1 && $0.hasPrefix(":") }) else { return nil }
        let meant = segments.map { $0.count > 1 && $0.hasPrefix(":") ? "*" : $0 }.joined(separator: "/")
        return "\(path) matches a segment spelt \":…\" literally (router syntax, not a pattern); "
            + "\(meant) opens every value, and a route's params: name it (segment N)"
    }

    /// Bundle IDs: reverse-DNS strings of letters, digits, hyphens and dots (Apple's
    /// CFBundleIdentifier rules), with at least two segments.
    public static func bundleIDProblem(_ bundle: String) -> IdentifierProblem? {
        if bundle.contains("$(") || bundle.contains("${") {
            return IdentifierProblem(
                .invalidBundleID,
                "\(PrintableText.quoted(bundle)) is an Xcode build-setting placeholder, not a bundle ID",
                hint: "write the resolved bundle ID, e.g. com.example.museo")
        }
        let segments = bundle.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            segments.count >= 2
            && segments.allSatisfy { segment in
                !segment.isEmpty
                    && segment.unicodeScalars.allSatisfy {
                        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    }
            }
        if valid { return nil }
        return IdentifierProblem(
            .invalidBundleID, "\(PrintableText.quoted(bundle)) is not a bundle ID",
            hint: "use reverse-DNS form with letters, digits and hyphens, e.g. com.example.museo")
    }

    /// A custom URL scheme: a letter, then letters, digits, `+`, `-` or `.` (RFC 3986, section
    /// 3.1), in lowercase. Schemes are case-insensitive in URLs, but Android's intent filters
    /// compare them case-sensitively and its data-element documentation says to write them in
    /// lowercase, so an uppercase one would not match the links other apps send.
    public static func schemeProblem(_ scheme: String) -> IdentifierProblem? {
        let scalars = Array(scheme.unicodeScalars)
        let valid =
            scalars.first.map { ("a"..."z").contains($0) } == true
            && scalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
            }
        if valid { return nil }
        let lowered = scheme.lowercased()
        return IdentifierProblem(
            .invalidScheme, "\(PrintableText.quoted(scheme)) is not a URL scheme",
            hint: lowered != scheme && schemeProblem(lowered) == nil
                ? "write it in lowercase: \(PrintableText.quoted(lowered))"
                : "start with a letter and use lowercase letters, digits, +, - and . only, e.g. es.emergencias.app")
    }

    /// Android application IDs follow Java package rules: two or more segments, each starting
    /// with a letter, letters, digits and underscores only
    /// (https://developer.android.com/build/configure-app-module#set-application-id).
    public static func packageNameProblem(_ package: String) -> IdentifierProblem? {
        let segments = package.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            segments.count >= 2
            && segments.allSatisfy { segment in
                guard let first = segment.unicodeScalars.first,
                    ("a"..."z").contains(first) || ("A"..."Z").contains(first)
                else { return false }
                return segment.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                }
            }
        if valid { return nil }
        return IdentifierProblem(
            .invalidPackageName, "\(PrintableText.quoted(package)) is not a valid Android package name",
            hint: "use two or more segments, each starting with a letter (letters, digits, _), e.g. com.example.museo")
    }
}

/// A SHA-256 signing-certificate fingerprint in the form Digital Asset Links requires:
/// 32 bytes as uppercase hex pairs joined by colons. Google's compatibility tests reject
/// lowercase hex (comptest2312) and 31-byte values (comptest2314).
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public var description: String { value }

    private init(normalised: String) { value = normalised }

    /// Accepts colon-separated or bare hex in either case and returns the canonical form.
    public static func parse(_ text: String) -> Result<Fingerprint, IdentifierProblem> {
        let hexDigits = text.filter { $0 != ":" }
        let separatorsValid =
            !text.contains(":")
            || text.split(separator: ":", omittingEmptySubsequences: false).allSatisfy { $0.count == 2 }
        guard separatorsValid, hexDigits.allSatisfy(\.isHexDigit), hexDigits.allSatisfy(\.isASCII) else {
            return .failure(
                IdentifierProblem(
                    .invalidFingerprint, "\(PrintableText.quoted(text)) is not a hex fingerprint",
                    hint: "copy the SHA-256 line of `keytool -list -v` or the Play Console's App signing page"))
        }
        let bytes = hexDigits.count / 2
        guard hexDigits.count == 64 else {
            let hint =
                bytes == 20
                ? "this is a SHA-1 fingerprint; Digital Asset Links needs the SHA-256 one"
                : "a SHA-256 fingerprint has 32 bytes (64 hex digits)"
            return .failure(
                IdentifierProblem(
                    .invalidFingerprint, "\(PrintableText.quoted(text)) has \(bytes) bytes, not 32", hint: hint))
        }
        var pairs: [String] = []
        var index = hexDigits.startIndex
        while index < hexDigits.endIndex {
            let next = hexDigits.index(index, offsetBy: 2)
            pairs.append(hexDigits[index..<next].uppercased())
            index = next
        }
        return .success(Fingerprint(normalised: pairs.joined(separator: ":")))
    }

    /// The SHA-256 fingerprint of a DER certificate, as keytool, apksigner and assetlinks.json write it.
    public static func ofCertificate(_ der: [UInt8]) -> Fingerprint {
        Fingerprint(
            normalised: SHA256.digest(der).map { byte in
                let text = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + text : text
            }.joined(separator: ":"))
    }

    /// The debug keystore that ships publicly in React Native's app template: anyone can sign
    /// an app with it, so it must never be trusted in production.
    public static let publicReactNativeDebugKey =
        "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"
}
