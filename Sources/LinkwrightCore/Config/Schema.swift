/// The shape of every configuration file, described once. The decoders check keys against it
/// (unknown keys, "did you mean", required keys) and `JSONSchemaGenerator` turns it into the
/// JSON Schema that editors use, so the two cannot drift apart.
public indirect enum SchemaType: Sendable {
    /// A string; `pattern` is a JSON Schema (ECMA 262) regular expression the editor checks.
    case string(pattern: String?)
    case boolean
    case integer(minimum: Int)
    case list(SchemaType)
    /// A mapping whose keys are chosen by the user (names, hosts, channels).
    case map(keyPattern: String?, value: SchemaType)
    case object(SchemaObject)
    case oneOf([SchemaType])
    case enumeration([String])
    /// A list with at least one item, or a mapping with at least one key.
    case nonEmpty(SchemaType)
    /// Only `true`: a flag whose `false` would say nothing (`opens_web`).
    case onlyTrue

    public static let text = SchemaType.string(pattern: nil)
}

public struct SchemaField: Sendable {
    public var name: String
    public var type: SchemaType
    public var required: Bool
    public var description: String

    public init(_ name: String, _ type: SchemaType, required: Bool = false, _ description: String) {
        self.name = name
        self.type = type
        self.required = required
        self.description = description
    }
}

public struct SchemaObject: Sendable {
    /// What the object is, in words used by messages ("an app", "a rule").
    public var noun: String
    public var description: String
    public var fields: [SchemaField]
    /// Keys of which exactly one must be written (an expectation's verdict).
    public var exactlyOneOf: [String]
    /// Keys that may be written only with another one (`route` with `opens_app`).
    public var onlyWith: [(key: String, requires: String)]
    /// A key that a value of another key requires (`route: none` needs a `reason`).
    public var requiredWhen: (key: String, value: String, requires: String)?

    public init(
        _ noun: String, _ description: String, _ fields: [SchemaField], exactlyOneOf: [String] = [],
        onlyWith: [(key: String, requires: String)] = [],
        requiredWhen: (key: String, value: String, requires: String)? = nil
    ) {
        self.noun = noun
        self.description = description
        self.fields = fields
        self.exactlyOneOf = exactlyOneOf
        self.onlyWith = onlyWith
        self.requiredWhen = requiredWhen
    }

    public func field(_ name: String) -> SchemaField? { fields.first { $0.name == name } }
}
