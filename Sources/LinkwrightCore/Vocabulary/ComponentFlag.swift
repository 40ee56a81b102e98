/// A boolean setting of an AASA component (or `defaults`) that changes how a URL is read before
/// patterns compare it. Each flag is declared here once: its keys, its default, what it does to
/// the compared value, what it means on Android, and the words people read about it (the
/// engine's reading of it as `PatternOptions` is `Matching/ComponentFlagReading.swift`). Readers,
/// writers, the configuration, the schema, the matcher, the proof, the diff, `import` and
/// `explain` all iterate `allCases`; none names a flag except through this declaration.
///
/// Apple: https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary/components-swift.dictionary
/// (`caseSensitive` and `percentEncoded`, both "default: true").
public enum ComponentFlag: String, CaseIterable, Hashable, Sendable {
    case caseSensitive
    case percentEncoded

    /// The key in an AASA component or `defaults` (Apple's spelling).
    var key: ComponentKey { ComponentKey(rawValue: rawValue) }

    /// The key in a configuration rule or `defaults` block.
    public var configurationKey: String {
        switch self {
        case .caseSensitive: "case_sensitive"
        case .percentEncoded: "percent_encoded"
        }
    }

    /// Apple's value when no level writes the flag.
    public var appleDefault: Bool { true }

    /// The value Android's dynamic rules always have: they compare case-sensitively, and with the
    /// decoded `Uri` accessors (`UriRelativeFilter.matchData`, see `CompiledDynamicRules`).
    var androidValue: Bool {
        switch self {
        case .caseSensitive: true
        case .percentEncoded: false
        }
    }

    /// What the flag does, for the JSON Schema's hover text and the reference.
    var summary: String {
        switch self {
        case .caseSensitive:
            "Whether patterns match case-sensitively (Apple's caseSensitive, default true)."
        case .percentEncoded:
            "Whether patterns are compared with the URL as written, escapes included (Apple's percentEncoded, default true). With false the URL is decoded first."
        }
    }

    /// A word shown beside a rule whose value departs from Apple's default, as in
    /// `/help/* (decoded)`.
    public var departure: String {
        switch self {
        case .caseSensitive: "case-insensitive"
        case .percentEncoded: "decoded"
        }
    }

    /// Why a rule with the departing value cannot be an iOS 12 legacy path, which has no flags.
    var legacyPathLoss: String {
        switch self {
        case .caseSensitive: "it is case-insensitive"
        case .percentEncoded: "it matches decoded URLs"
        }
    }

    /// Whether a literal `scalar` of a pattern with this flag at `value` reads the same on Android,
    /// where the flag is `androidValue`: a letter that has a case differs when Apple folds, a `%`
    /// differs when Apple compares escapes as written and Android decodes them.
    func androidReadsAlike(_ scalar: Unicode.Scalar, at value: Bool) -> Bool {
        guard value != androidValue else { return true }
        switch self {
        case .caseSensitive: return !scalar.properties.changesWhenCaseMapped
        case .percentEncoded: return scalar != "%"
        }
    }

    /// The warning for a rule that writes a value Android cannot follow, or `nil` when Android
    /// reads the rule as Apple does (Android decodes, as `percentEncoded: false` asks).
    var androidLoss: (id: DiagnosticID, message: String, hint: String)? {
        switch self {
        case .caseSensitive:
            (
                .androidCaseSensitive,
                "Android dynamic rules have no caseSensitive; on Android this rule matches only the case written",
                "write the pattern in the case URLs use, or accept the difference"
            )
        case .percentEncoded: nil
        }
    }
}

/// The flags written at one level (a rule, an entry's or a file's `defaults`), each possibly
/// absent: `Value` is `Bool` in association files and `Located<Bool>` in the configuration.
public struct ComponentFlags<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Each flag's value in declaration order; empty until one is written. Most rules write
    /// none, and each revision's rules were given an array each (through the unspecialized
    /// allocation a generic type makes).
    private var values: [Value?] = []

    public init() {}

    public init(_ written: [ComponentFlag: Value]) {
        for (flag, value) in written { self[flag] = value }
    }

    public subscript(flag: ComponentFlag) -> Value? {
        get { values.isEmpty ? nil : values[flag.position] }
        set {
            if values.isEmpty {
                guard newValue != nil else { return }
                values = Array(repeating: nil, count: ComponentFlag.declared.count)
            }
            values[flag.position] = newValue
        }
    }

    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }

    /// The same value for every flag, whether or not the levels were ever written.
    public static func == (left: Self, right: Self) -> Bool {
        left.values.isEmpty || right.values.isEmpty ? left.isEmpty && right.isEmpty : left.values == right.values
    }

    /// The flags written, in declaration order.
    public var written: [(flag: ComponentFlag, value: Value)] {
        ComponentFlag.allCases.compactMap { flag in self[flag].map { (flag, $0) } }
    }

    public func map<Other>(_ transform: (Value) -> Other) -> ComponentFlags<Other> {
        var result = ComponentFlags<Other>()
        for (flag, value) in written { result[flag] = transform(value) }
        return result
    }
}

extension ComponentFlags: Hashable where Value: Hashable {
    /// As `==` compares: levels writing no flag hash alike, their values never written or unset.
    public func hash(into hasher: inout Hasher) {
        if isEmpty { hasher.combine(0) } else { hasher.combine(values) }
    }
}

extension ComponentFlags where Value == Bool {
    /// Every flag as it applies here: the first level that writes it, in `levels`' order
    /// (this one, then the `defaults` above it), else Apple's default.
    public func effective(inheriting levels: [ComponentFlags<Bool>?] = []) -> EffectiveFlags {
        EffectiveFlags { flag in self[flag] ?? levels.lazy.compactMap({ $0?[flag] }).first }
    }
}

extension ComponentFlags where Value == Located<Bool> {
    /// The written values without their locations.
    public var values: ComponentFlags<Bool> { map(\.value) }

    /// `values.effective(inheriting: [entry.values, file.values])`, read in place: a rule's
    /// flags are resolved for each of its translations and each environment, and building the
    /// levels' copies cost more than resolving them.
    func effective(inheriting entry: Self, _ file: Self) -> EffectiveFlags {
        EffectiveFlags { flag in (self[flag] ?? entry[flag] ?? file[flag])?.value }
    }
}

/// Every flag with its value after the defaults hierarchy: what a rule compares with.
public struct EffectiveFlags: Hashable, Sendable {
    private var bits: UInt8

    public static let appleDefaults = EffectiveFlags(
        bits: ComponentFlag.allCases.reduce(0) { $0 | ($1.appleDefault ? $1.bit : 0) })
    /// Android dynamic rules' fixed reading (`ComponentFlag.androidValue`).
    public static let android = EffectiveFlags(
        bits: ComponentFlag.allCases.reduce(0) { $0 | ($1.androidValue ? $1.bit : 0) })

    public subscript(flag: ComponentFlag) -> Bool {
        get { bits & flag.bit != 0 }
        set { bits = newValue ? bits | flag.bit : bits & ~flag.bit }
    }

    /// The flags whose value departs from Apple's default, in declaration order.
    public var departures: [ComponentFlag] { ComponentFlag.declared.filter { self[$0] != $0.appleDefault } }

    /// Whether Android's dynamic rules can follow every departure from Apple's defaults
    /// (`ComponentFlag.androidLoss`).
    public var androidFollows: Bool { departures.allSatisfy { $0.androidLoss == nil } }
}

extension EffectiveFlags {
    /// Each flag as `written` gives it (the nearest level writing it), else Apple's default: the
    /// one resolution every way of holding the levels goes through.
    init(_ written: (ComponentFlag) -> Bool?) {
        self = .appleDefaults
        for flag in ComponentFlag.declared {
            if let value = written(flag) { self[flag] = value }
        }
    }
}

extension ComponentFlag {
    /// The cases in declaration order, made once: `allCases` builds a new array on each use.
    fileprivate static let declared = allCases
    fileprivate var position: Int { Self.declared.firstIndex(of: self)! }
    fileprivate var bit: UInt8 { 1 << UInt8(position) }
}
