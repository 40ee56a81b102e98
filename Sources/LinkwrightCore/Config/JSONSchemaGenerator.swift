/// Turns `ConfigSchema` into JSON Schema (draft-07, the dialect yaml-language-server supports
/// best), published in `docs/schema/` and printed by `linkwright schema`.
public enum JSONSchemaGenerator {
    public static let baseURL = "https://linkwright.dev/schema/"

    /// The first line of a configuration file of `kind` that points yaml-language-server at its
    /// schema, relative to the file as the example configuration and `import` write it.
    public static func editorComment(for kind: String) -> String {
        "# yaml-language-server: $schema=../docs/schema/\(kind).schema.json"
    }

    /// The schema document for one file kind (`environment`, `domain`, `policy`).
    public static func document(for kind: String) -> JSON? {
        guard let file = ConfigSchema.files.first(where: { $0.kind == kind }) else { return nil }
        guard case .object(var members) = object(file.object) else { return nil }
        members.insert(("$schema", .string("http://json-schema.org/draft-07/schema#")), at: 0)
        members.insert(("$id", .string(baseURL + kind + ".schema.json")), at: 1)
        members.insert(("title", .string("Linkwright \(kind) file (\(file.folder)/*.yaml)")), at: 2)
        return .object(members)
    }

    static func object(_ object: SchemaObject) -> JSON {
        var members: [(String, JSON)] = [
            ("description", .string(object.description)),
            ("type", .string("object")),
            ("properties", .object(object.fields.map { ($0.name, schema($0.type, description: $0.description)) })),
        ]
        let required = object.fields.filter(\.required).map { JSON.string($0.name) }
        if !required.isEmpty { members.append(("required", .array(required))) }
        if !object.exactlyOneOf.isEmpty {
            let choices = object.exactlyOneOf.map { JSON.object([("required", .array([.string($0)]))]) }
            members.append(("oneOf", .array(choices)))
        }
        if !object.onlyWith.isEmpty {
            let pairs = object.onlyWith.map { ($0.key, JSON.array([.string($0.requires)])) }
            members.append(("dependencies", .object(pairs)))
        }
        if let condition = object.requiredWhen {
            let value = JSON.object([("const", .string(condition.value))])
            members.append(
                (
                    "if",
                    .object([
                        ("properties", .object([(condition.key, value)])),
                        ("required", .array([.string(condition.key)])),
                    ])
                ))
            members.append(("then", .object([("required", .array([.string(condition.requires)]))])))
        }
        members.append(("additionalProperties", .bool(false)))
        return .object(members)
    }

    static func schema(_ type: SchemaType, description: String? = nil) -> JSON {
        var members: [(String, JSON)] = description.map { [("description", .string($0))] } ?? []
        switch type {
        case .string(let pattern):
            members.append(("type", .string("string")))
            if let pattern { members.append(("pattern", .string(pattern))) }
        case .boolean:
            members.append(("type", .string("boolean")))
        case .integer(let minimum):
            members += [("type", .string("integer")), ("minimum", .int(minimum))]
        case .list(let items):
            members += [("type", .string("array")), ("items", schema(items))]
        case .map(let keyPattern, let value):
            members.append(("type", .string("object")))
            if let keyPattern { members.append(("propertyNames", .object([("pattern", .string(keyPattern))]))) }
            members.append(("additionalProperties", schema(value)))
        case .object(let nested):
            guard case .object(let fields) = object(nested) else { break }
            members += fields.filter { $0.0 != "description" || description == nil }
        case .oneOf(let choices):
            members.append(("oneOf", .array(choices.map { schema($0) })))
        case .enumeration(let values):
            members.append(("enum", .array(values.map(JSON.string))))
        case .nonEmpty(let collection):
            guard case .object(let fields) = schema(collection) else { break }
            members += fields
            if case .list = collection {
                members.append(("minItems", .int(1)))
            } else {
                members.append(("minProperties", .int(1)))
            }
        case .onlyTrue:
            members.append(("enum", .array([.bool(true)])))
        }
        return .object(members)
    }
}
