import LinkwrightCore

/// What a subcommand accepts, declared once: the parser, the usage line and the help all read
/// it, so none of them can drift from the options the command really takes.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var discussion: String
    var options: [OptionSpec]
    var arguments: [ArgumentSpec]
    /// Where the grammar is more than "each option is optional": options that exclude each other
    /// or go together, groups that repeat. Whatever they do not name is shown the usual way.
    var groups: [Syntax]

    init(
        name: String, abstract: String, discussion: String = "", options: [any CommandOption] = [],
        arguments: [ArgumentSpec] = [], groups: [Syntax] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options.map(\.spec)
        self.arguments = arguments
        self.groups = groups
    }

    /// How many positional arguments the parser accepts.
    var maximumPositionals: Int { arguments.contains { $0.occurrence == .repeated } ? .max : arguments.count }

    /// `build [--config DIR] [--out DIR] …`
    var usage: String { synopsis.isEmpty ? name : "\(name) \(synopsis)" }

    /// What follows the command's name in its usage: the arguments not in a group, the groups,
    /// then the options not in a group, each as it is declared.
    var synopsis: String {
        let named = groups.flatMap(\.names)
        let arguments = self.arguments.filter { !named.contains($0.name) }.map(Syntax.usual)
        let options = self.options.filter { !named.contains("--" + $0.name) }.map(Syntax.usual)
        return (arguments + groups + options).map(\.rendered).joined(separator: " ")
    }

    var help: String { help(width: nil) }

    /// The help, its prose wrapped to `width` columns (a terminal's), or as written for `nil`.
    func help(width: Int?) -> String {
        let wrap = TextWrapping(width: width)
        var text =
            wrap.paragraph(abstract) + "\n\n" + wrap.paragraph(usage, after: "Usage: linkwright ", indent: 4) + "\n"
        if !discussion.isEmpty { text += "\n\(wrap.prose(discussion))\n" }
        if !arguments.isEmpty {
            text += "\nArguments:\n"
            for argument in arguments {
                text += Self.row(argument.name, argument.help + Self.listed(argument.choices), wrap)
            }
        }
        text += "\nOptions:\n"
        for option in options + [OptionSpec.help] {
            var help = option.help
            if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
            help += Self.listed(option.choices)
            if option.isRepeatable { help += "; repeatable" }
            text += Self.row(option.label, help, wrap)
        }
        return text
    }

    /// ` (text, json)`
    private static func listed(_ choices: [String]?) -> String {
        choices.map { " (\($0.joined(separator: ", ")))" } ?? ""
    }

    private static func row(_ label: String, _ help: String, _ wrap: TextWrapping) -> String {
        let padded = label.count < 22 ? label + String(repeating: " ", count: 22 - label.count) : label + "  "
        return wrap.paragraph(help, after: "  \(padded)", indent: 24) + "\n"
    }
}

/// One option as the parser and the help see it, whatever the type of its value.
struct OptionSpec: Sendable {
    var name: String
    /// `nil` for a flag that takes no value.
    var valueName: String?
    var help: String
    /// The value used when the option is absent, as the help shows it.
    var defaultValue: String?
    var choices: [String]?
    var isRepeatable = false
    /// The command cannot run without it: the parser says so.
    var isRequired = false

    static let help = OptionSpec(name: "help", valueName: nil, help: "Show this help")

    /// `--format text|json`, `--out DIR`, `--check`: how a command line writes it.
    var written: String {
        "--\(name)" + (valueName.map { " " + (choices?.joined(separator: "|") ?? $0) } ?? "")
    }

    /// `--format FORMAT`: how the help lists it.
    var label: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }
}

/// An option of any value type, for the lists a command declares.
protocol CommandOption: Sendable {
    var spec: OptionSpec { get }
}

/// One option of a command with the type of its value: declared once with its name, default and
/// help, read with `arguments[option]`, which applies the default.
struct Option<Value: Sendable>: CommandOption {
    let spec: OptionSpec
    /// The value, from what the command line gave for it in order (empty when it is absent).
    fileprivate let value: @Sendable ([String]) -> Value
}

extension Option where Value == Bool {
    /// A flag: true when given.
    init(name: String, help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help)
        value = { !$0.isEmpty }
    }
}

extension Option where Value == String? {
    init(name: String, valueName: String, help: String) {
        spec = OptionSpec(name: name, valueName: valueName, help: help)
        value = { $0.last }
    }
}

extension Option where Value == String {
    init(name: String, valueName: String, default defaultValue: String, help: String) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, defaultValue: defaultValue)
        value = { $0.last ?? defaultValue }
    }

    /// An option the command cannot run without: the parser stops with "CMD needs --NAME VALUE".
    static func required(name: String, valueName: String, help: String) -> Option {
        // The parser has checked that it is there.
        Option(spec: OptionSpec(name: name, valueName: valueName, help: help, isRequired: true)) { $0.last! }
    }
}

extension Option where Value == [String] {
    /// An option that may be given any number of times; every value, in order.
    init(name: String, valueName: String, help: String) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: true)
        value = { $0 }
    }
}

extension Option where Value: RawRepresentable<String> {
    /// One of `choices`, `defaultValue` when absent.
    init(name: String, valueName: String, choices: [Value], default defaultValue: Value, help: String) {
        spec = OptionSpec(
            name: name, valueName: valueName, help: help, defaultValue: defaultValue.rawValue,
            choices: choices.map(\.rawValue))
        // The parser has checked that the value is one of the choices.
        value = { $0.last.map { Value(rawValue: $0)! } ?? defaultValue }
    }

    /// `--format`: one of `choices`, the first when absent.
    static func format(_ choices: [Value]) -> Option {
        Option(name: "format", valueName: "FORMAT", choices: choices, default: choices[0], help: "Output format")
    }
}

extension Option {
    /// One of `choices`, or `nil` when absent.
    init<Choice: RawRepresentable<String> & Sendable>(
        name: String, valueName: String, choices: [Choice], help: String
    ) where Value == Choice? {
        spec = OptionSpec(name: name, valueName: valueName, help: help, choices: choices.map(\.rawValue))
        value = { $0.last.map { Choice(rawValue: $0)! } }
    }
}

/// A positional argument. The command checks its value.
struct ArgumentSpec: Sendable {
    enum Occurrence: Sendable { case required, optional, repeated }

    var name: String
    var help: String
    var occurrence = Occurrence.required
    var choices: [String]?
}

/// A piece of a usage line.
indirect enum Syntax: Sendable {
    /// `--aasa FILE`: written as is, required where it stands.
    case option(OptionSpec)
    case argument(ArgumentSpec)
    /// `[…]`
    case optional(Syntax)
    /// `…...`
    case repeated(Syntax)
    /// Pieces written together.
    case all([Syntax])
    /// `(a | b)`: exactly one of them.
    case oneOf([Syntax])

    /// How the declaration alone shows it: required or `[optional]`, with `...` when repeatable.
    static func usual(_ option: OptionSpec) -> Syntax {
        if option.isRequired { return .option(option) }
        return option.isRepeatable ? .repeated(.optional(.option(option))) : .optional(.option(option))
    }

    static func usual(_ argument: ArgumentSpec) -> Syntax {
        switch argument.occurrence {
        case .required: .argument(argument)
        case .optional: .optional(.argument(argument))
        case .repeated: .repeated(.optional(.argument(argument)))
        }
    }

    var rendered: String {
        switch self {
        case .option(let option): option.written
        case .argument(let argument): argument.choices?.joined(separator: "|") ?? argument.name
        case .optional(.oneOf(let alternatives)): "[\(alternatives.map(\.rendered).joined(separator: " | "))]"
        case .optional(let syntax): "[\(syntax.rendered)]"
        case .repeated(.all(let pieces)): "(\(Syntax.all(pieces).rendered))..."
        case .repeated(let syntax): "\(syntax.rendered)..."
        case .all(let pieces): pieces.map(\.rendered).joined(separator: " ")
        case .oneOf(let alternatives): "(\(alternatives.map(\.rendered).joined(separator: " | ")))"
        }
    }

    /// The options (`--name`) and arguments it mentions.
    var names: [String] {
        switch self {
        case .option(let option): ["--" + option.name]
        case .argument(let argument): [argument.name]
        case .optional(let syntax), .repeated(let syntax): syntax.names
        case .all(let pieces), .oneOf(let pieces): pieces.flatMap(\.names)
        }
    }
}

/// A command line that does not fit the command's spec: exit code 2, with the command's usage.
struct UsageError: Error {
    var message: String
}

/// Parsed options and positionals of one command.
struct ParsedArguments {
    /// What each option was given, in order; a flag gets an empty string each time it is given.
    private var given: [String: [String]] = [:]
    /// Every option with a value, in command-line order, for options that group (`import`).
    private(set) var ordered: [(name: String, value: String)] = []
    private(set) var positionals: [String] = []
    private(set) var wantsHelp = false
    private let declared: Set<String>

    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        declared = Set(spec.options.map(\.name))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError(message: "unknown option \(argument) (options are written --name)")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let suggestion = Spelling.closest(to: name, among: spec.options.map(\.name) + ["help"])
                throw UsageError(
                    message: "unknown option --\(name) for \(spec.name)"
                        + (suggestion.map { "; did you mean --\($0)?" } ?? ""))
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw UsageError(message: "--\(name) takes no value") }
                given[name, default: []].append("")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "--\(name) needs a value (\(valueName))")
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(
                    message: "--\(name) must be one of \(choices.joined(separator: ", ")), not \"\(value)\"")
            }
            if given[name] != nil && !option.isRepeatable {
                throw UsageError(message: "--\(name) is given twice")
            }
            given[name, default: []].append(value)
            ordered.append((name, value))
        }
        // Help is printed whatever else the command line says.
        guard !wantsHelp else { return }
        if positionals.count > spec.maximumPositionals {
            throw UsageError(
                message: spec.maximumPositionals == 0
                    ? "\(spec.name) takes no arguments, got \"\(positionals[0])\""
                    : "too many arguments: \(positionals.joined(separator: " "))")
        }
        if let missing = spec.options.first(where: { $0.isRequired && given[$0.name] == nil }) {
            throw UsageError(message: "\(spec.name) needs \(missing.label)")
        }
    }

    /// The option's value, its default when it was not given.
    subscript<Value>(_ option: Option<Value>) -> Value {
        assert(declared.contains(option.spec.name), "--\(option.spec.name) is not declared by the command")
        return option.value(given[option.spec.name] ?? [])
    }

    /// Whether the command line gave the option, where its default must not hide that it did not.
    func contains(_ option: some CommandOption) -> Bool {
        assert(declared.contains(option.spec.name), "--\(option.spec.name) is not declared by the command")
        return given[option.spec.name] != nil
    }
}

extension LinkwrightCore.Host {
    /// A host named on the command line (`given` says where, as `--host`), held to the
    /// configuration's rules: IDNA2008 labels, lengths, no scheme or port. Uppercase is folded,
    /// as in a URL.
    static func argument(_ text: String, given: String = "--host") throws -> LinkwrightCore.Host {
        switch parse(text.lowercased()) {
        case .success(let host): return host
        case .failure(let problem): throw UsageError(message: "\(given): \(problem.message) (\(problem.hint))")
        }
    }
}
