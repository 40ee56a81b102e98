/// How the generated routers spell every name that comes from configuration, one way per
/// language. Route and parameter names are lowerCamelCase ASCII (`ConfigDecoder.isIdentifier`),
/// and app, domain and environment names lowercase letters, digits, `-` and `_`, so a name is
/// never anything but ASCII letters and digits once made into an identifier; what remains is
/// that it may be a keyword, or the name of something the generated code declares or uses.
///
/// - Names an app sees (destinations and their parameters) keep their spelling: a keyword is
///   written in backticks, which both languages allow for every keyword; a Kotlin class that
///   would hide a type the file uses gets a `_` (a route name never holds one, so it cannot meet
///   another route's class).
/// - Names only the file uses (the rule lists) are made distinct by `NameScope`: a keyword or a
///   name the file declares itself gets a number, as does the second of two lists one name.
enum SwiftNames {
    /// Every keyword of Swift 6 (The Swift Programming Language, Lexical Structure: "Keywords
    /// and Punctuation"), the context-specific ones included: backticks are harmless on those.
    static let keywords: Set<String> = [
        // Declarations.
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types.
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Context-specific.
        "associativity", "async", "convenience", "didSet", "dynamic", "final", "get", "indirect", "infix", "lazy",
        "left", "mutating", "none", "nonmutating", "optional", "override", "postfix", "precedence", "prefix",
        "Protocol", "required", "right", "set", "some", "Type", "unowned", "weak", "willSet", "macro", "each", "any",
        "consume", "copy", "discard", "sending", "isolated", "actor", "distributed",
    ]

    /// A declared name: a destination case, a parameter, a local binding.
    static func identifier(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// An argument label where a value is passed: only `inout` needs backticks there (Swift
    /// warns when `let` or `var` have them).
    static func label(_ name: String) -> String { name == "inout" ? "`inout`" : name }

    /// What a rule list's name would hide where lists are named: the router's members, the locals
    /// of `site(for:)`, and the file's functions and constants list initializers call.
    static let routerMembers: Set<String> = [
        "destination", "site", "Site", "Rule", "Link", "Query", "link", "host", "text", "url", "isSubdomain",
        "isoLanguageCodes", "isoRegionCodes",
    ]
}

enum KotlinNames {
    /// Kotlin's hard, soft and modifier keywords and its special identifiers
    /// (https://kotlinlang.org/docs/keyword-reference.html). Only the hard ones must be quoted;
    /// quoting the others is harmless and keeps one rule.
    static let keywords: Set<String> = [
        // Hard.
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is",
        "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val",
        "var", "when", "while",
        // Soft.
        "by", "catch", "constructor", "delegate", "dynamic", "field", "file", "finally", "get", "import", "init",
        "param", "property", "receiver", "set", "setparam", "value", "where",
        // Modifiers.
        "abstract", "actual", "annotation", "companion", "const", "crossinline", "data", "enum", "expect",
        "external", "final", "infix", "inline", "inner", "internal", "lateinit", "noinline", "open", "operator",
        "out", "override", "private", "protected", "public", "reified", "sealed", "suspend", "tailrec", "vararg",
        // Special identifiers.
        "it",
    ]

    /// A declared property, parameter or package segment.
    static func identifier(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// The names a destination's nested class may not take: the companion object, and the types
    /// the sealed class's body names (a nested `String` would hide `kotlin.String` there).
    static let typesInScope: Set<String> = ["Companion", "String", "Long", "Int", "Boolean", "Any", "Unit", "Nothing"]

    /// A destination's class: `exhibitionPreview` → `ExhibitionPreview`, `companion` →
    /// `Companion_`; `sealedClass` is the enclosing class, which a nested one may not hide.
    static func className(_ destination: String, in sealedClass: String) -> String {
        let name = destination.prefix(1).uppercased() + destination.dropFirst()
        return typesInScope.contains(name) || name == sealedClass ? name + "_" : name
    }

    /// What a property of the router object would hide where its properties are named: its
    /// members, the parameters of its functions, and the functions its initializers call.
    static let routerMembers: Set<String> = [
        "destination", "claimsOf", "builds", "schemeRoutes", "url", "androidApiLevel", "host", "scheme", "listOf",
        "emptyList", "literal", "prefix", "simpleGlob", "advancedGlob",
    ]
}

/// Names made distinct within one scope of a generated file, in the order they are asked for:
/// the first keeps its name, later ones (and any reserved name) get the lowest free number.
struct NameScope {
    private var taken: Set<String>

    init(reserved: Set<String>) { taken = reserved }

    /// `candidate`, or `candidate2`, `candidate3`, … when it is taken.
    mutating func claim(_ candidate: String) -> String {
        var name = candidate
        var number = 2
        while taken.contains(name) {
            name = candidate + String(number)
            number += 1
        }
        taken.insert(name)
        return name
    }
}

/// Who may use a generated router's destination type and entry point (`generate --access`):
/// internal by default, public or package for an app split into modules.
public enum GeneratedAccess: String, CaseIterable, Sendable {
    case `public`
    case package
    case `internal`

    /// The modifier written before a declaration; none for internal, Swift's default.
    var swiftModifier: String { self == .internal ? "" : rawValue + " " }

    /// Kotlin's modifier, none for public, its default; `nil` for package, which Kotlin lacks.
    public var kotlinModifier: String? {
        switch self {
        case .public: ""
        case .internal: "internal "
        case .package: nil
        }
    }
}
