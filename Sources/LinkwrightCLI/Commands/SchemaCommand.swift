import Foundation
import LinkwrightCore

/// `linkwright schema`: the JSON Schema of each configuration file, for editors.
struct SchemaCommand: Command {
    static let kinds = ConfigSchema.files.map(\.kind)

    static let write = Option<String?>(name: "write", valueName: "DIR", help: "Write every schema into DIR")
    static let kind = ArgumentSpec(
        name: "KIND", help: "The configuration file whose schema to print", occurrence: .optional, choices: kinds)

    static let spec = CommandSpec(
        name: "schema",
        abstract: "Print the JSON Schema of a configuration file",
        discussion: """
            Editors with yaml-language-server use it for completion and validation: put
              # yaml-language-server: $schema=../docs/schema/domain.schema.json
            at the top of a file. --write DIR writes all three as <kind>.schema.json.
            """,
        options: [write], arguments: [kind], groups: [.oneOf([.argument(kind), .option(write.spec)])])

    let kind: String?
    let folder: String?

    init(_ arguments: ParsedArguments) throws {
        kind = arguments.positionals.first
        folder = arguments[Self.write]
        if let kind, !Self.kinds.contains(kind) {
            throw UsageError(message: "unknown schema \"\(kind)\"; choose \(Self.kinds.joined(separator: ", "))")
        }
        if (kind == nil) == (folder == nil) {
            throw UsageError(message: "name one schema (\(Self.kinds.joined(separator: ", "))) or pass --write DIR")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        if let kind {
            terminal.out(JSONSchemaGenerator.document(for: kind)!.rendered())
            return .success
        }
        let directory = terminal.url(folder!)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for kind in Self.kinds {
                let text = JSONSchemaGenerator.document(for: kind)!.rendered()
                try Data(text.utf8).write(to: directory.appendingPathComponent("\(kind).schema.json"), options: .atomic)
            }
        } catch {
            throw UnusableInput(message: "cannot write schemas to \(folder!): \(error.localizedDescription)")
        }
        terminal.out("wrote \(Self.kinds.map { "\($0).schema.json" }.joined(separator: ", ")) to \(folder!)")
        return .success
    }
}
