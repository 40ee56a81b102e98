import Foundation

/// The IDNA2008 checks on one host label (RFC 5890–5892), so that the host a configuration
/// names is the one browsers and the platforms look up, and reads as it is spelled.
enum IDNALabel {
    /// Characters UTS #46 §2.3 (and RFC 3490 §3.1 before it) read as a label separator, so
    /// `a。b` means `a.b` to some readers and one label to others.
    static let dotEquivalents: Set<Unicode.Scalar> = ["\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// The fewest characters the label can take in its ASCII form. RFC 3492 §6.3 copies every
    /// ASCII code point and writes each other one as a variable-length integer of at least one
    /// digit, and RFC 5890 §2.3.2.1 prefixes `xn--`: so a label of n scalars, some non-ASCII,
    /// is at least n + 4 characters long (n + 5 with a delimiter, when some are ASCII). RFC 5890
    /// §2.3.2.1 (after RFC 1034) caps labels at 63, which this lets us check before encoding.
    static func minimumASCIILength(_ label: String) -> Int {
        var count = 0
        var ascii = 0
        for scalar in label.unicodeScalars {
            count += 1
            if scalar.isASCII { ascii += 1 }
        }
        return count == ascii ? count : count + Punycode.acePrefix.count + (ascii > 0 ? 1 : 0)
    }

    /// Why an `xn--` label is not an A-label (RFC 5891 §5.3 and §5.4): it must decode, decode
    /// to a valid U-label, and be that U-label's own encoding. (A label that decodes to ASCII
    /// only ends in its delimiter, and the caller refuses labels that end with a hyphen.)
    static func aLabelProblem(_ label: String) -> String? {
        guard let decoded = Punycode.decode(label.dropFirst(Punycode.acePrefix.count)) else {
            return "its part after xn-- is not Punycode"
        }
        if let problem = uLabelProblem(decoded) {
            return "it decodes to \"\(shown(decoded))\", a label that \(problem.reason)"
        }
        let unicode = String(String.UnicodeScalarView(decoded))
        let canonical = Punycode.asciiLabel(unicode.precomposedStringWithCanonicalMapping)
        guard canonical == label else {
            return "it is not the standard encoding of \"\(shown(decoded))\", which is \(canonical)"
        }
        return nil
    }

    /// Why a label in Unicode is not a U-label: the hyphen and combining-mark rules of RFC 5891
    /// §4.2.3.1–4.2.3.2 and the code point classes of RFC 5892 §2–3. Each scalar is looked at
    /// once. The Bidi rule (RFC 5893) is not checked.
    static func uLabelProblem(_ scalars: [Unicode.Scalar]) -> (reason: String, hint: String)? {
        if scalars.first == "-" || scalars.last == "-" {
            return ("starts or ends with a hyphen", "remove the hyphen")
        }
        if scalars.count >= 4, scalars[2] == "-", scalars[3] == "-" {
            return ("has hyphens in its third and fourth places, reserved by RFC 5891", "write the label without them")
        }
        if let first = scalars.first,
            [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory)
        {
            return ("starts with the combining mark \(name(first))", "write the letter the mark belongs to first")
        }
        var arabicIndicDigits = false
        var extendedArabicIndicDigits = false
        for (index, scalar) in scalars.enumerated() {
            arabicIndicDigits = arabicIndicDigits || (0x0660...0x0669).contains(scalar.value)
            extendedArabicIndicDigits = extendedArabicIndicDigits || (0x06F0...0x06F9).contains(scalar.value)
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if let problem = problem(with: scalar, between: previous, and: next) { return problem }
        }
        if arabicIndicDigits && extendedArabicIndicDigits {
            return (
                "mixes Arabic-Indic and extended Arabic-Indic digits (RFC 5892 A.8, A.9)", "use one set of digits"
            )
        }
        return nil
    }

    /// RFC 5892's derived property for one code point, in the order of its §3 rules.
    private static func problem(
        with scalar: Unicode.Scalar, between previous: Unicode.Scalar?, and next: Unicode.Scalar?
    )
        -> (reason: String, hint: String)?
    {
        let properties = scalar.properties
        let value = scalar.value
        if scalar.isASCII {
            let letterDigitHyphen = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
            return letterDigitHyphen ? nil : ("has \(name(scalar))", "use letters, digits and hyphens only")
        }
        // RFC 5892 §2.6 Exceptions (F.1): PVALID, CONTEXTO and DISALLOWED regardless of category.
        if [0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007].contains(value) { return nil }
        // A.3: the Catalan middle dot, as in `l·l`. The other CONTEXTO rules need the Unicode
        // script property, which Swift does not offer, so those characters are refused.
        if value == 0x00B7, previous == "l", next == "l" { return nil }
        if value == 0x00B7 {
            return ("has \(name(scalar)) not between two l's (RFC 5892 A.3)", "write the label without it")
        }
        if [0x0375, 0x05F3, 0x05F4, 0x30FB].contains(value) {
            return (
                "has \(name(scalar)), which IDNA2008 allows only in contexts linkwright cannot check (RFC 5892 A)",
                "write the label without it"
            )
        }
        let invisible = "remove it: it does not show, so the host would not read as it is written"
        // RFC 5892 §2.7 JoinControl (CONTEXTJ): A.1 and A.2 allow both after a virama; the other
        // context of ZERO WIDTH NON-JOINER, by Arabic joining types, is not checked.
        if properties.isJoinControl {
            if previous?.properties.canonicalCombiningClass == .virama { return nil }
            return ("has \(name(scalar)) not after a virama (RFC 5892 A.1, A.2)", invisible)
        }
        if properties.generalCategory == .unassigned {
            return ("has \(name(scalar)), which Unicode does not assign", "remove it")
        }
        if properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format {
            return ("has the invisible or text-reordering character \(name(scalar))", invisible)
        }
        if properties.changesWhenNFKCCaseFolded {
            let folded = String(scalar).precomposedStringWithCompatibilityMapping.lowercased()
            return (
                "has \(name(scalar)), a variant of \"\(shown(Array(folded.unicodeScalars)))\"", "write \"\(folded)\""
            )
        }
        let ignorableBlock =
            (0x20D0...0x20FF).contains(value) || (0x1D100...0x1D24F).contains(value)
            || (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value)
            || (0xD7B0...0xD7FF).contains(value)
        let disallowedException = [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B]
            .contains(value)
        let letterOrDigit: Set<Unicode.GeneralCategory> = [
            .lowercaseLetter, .uppercaseLetter, .otherLetter, .decimalNumber, .modifierLetter, .nonspacingMark,
            .spacingMark,
        ]
        if ignorableBlock || disallowedException || properties.isNoncharacterCodePoint
            || !letterOrDigit.contains(properties.generalCategory)
        {
            return ("has \(name(scalar)), which IDNA2008 does not allow in a host (RFC 5892)", "use letters and digits")
        }
        return nil
    }

    /// `U+202E RIGHT-TO-LEFT OVERRIDE`, or the character itself where it shows as it is.
    static func name(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).paddedLeft(to: 4)
        let label = scalar.properties.name ?? scalar.properties.nameAlias
        return label.map { "\(code) \($0)" } ?? code
    }

    /// Text as a message may quote it: `PrintableText.excerpt`, with the characters that do not
    /// show in a host (format characters, whitespace other than a space, unassigned and private
    /// use code points, a leading combining mark) written as `\u{…}` too, since in a host name
    /// they are the difference between two names that look alike.
    static func shown(_ scalars: some Collection<Unicode.Scalar>) -> String {
        var revealed = String.UnicodeScalarView()
        for (index, scalar) in scalars.prefix(PrintableText.excerptLimit + 1).enumerated() {
            let properties = scalar.properties
            // A leading combining mark would sit on the quote before it.
            let leadingMark =
                index == 0 && [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
            let hidden =
                !PrintableText.isEscaped(scalar)
                && (leadingMark || properties.isDefaultIgnorableCodePoint || properties.isWhitespace && scalar != " "
                    || [.format, .unassigned, .privateUse, .surrogate].contains(properties.generalCategory))
            if hidden {
                revealed.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                revealed.append(scalar)
            }
        }
        return PrintableText.excerpt(String(revealed))
    }

    static func shown(_ text: some StringProtocol) -> String { shown(text.unicodeScalars) }
}

extension String {
    fileprivate func paddedLeft(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
