import LinkwrightCore

/// What a subcommand accepts, used both to parse its arguments and to print its help.
struct CommandSpec {
    var name: String
    var abstract: String
    var usage: String
    var discussion: String = ""
    var options: [OptionSpec] = []
    /// Positional arguments, for help only; `maximumPositionals` bounds how many are accepted.
    var positionals: [(name: String, help: String)] = []
    var maximumPositionals = 0

    var help: String {
        var text = "\(abstract)\n\nUsage: linkwright \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        if !positionals.isEmpty {
            text += "\nArguments:\n"
            for positional in positionals { text += Self.row(positional.name, positional.help) }
        }
        text += "\nOptions:\n"
        for option in options + [OptionSpec.help] {
            let label = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
            var help = option.help
            if let choices = option.choices { help += " (\(choices.joined(separator: ", ")))" }
            if option.repeatable { help += "; repeatable" }
            text += Self.row(label, help)
        }
        return text
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 22 ? label + String(repeating: " ", count: 22 - label.count) : label + "  "
        return "  \(padded)\(help)\n"
    }
}

struct OptionSpec {
    var name: String
    /// `nil` for a flag that takes no value.
    var valueName: String?
    var help: String
    var repeatable = false
    var choices: [String]?

    static let help = OptionSpec(name: "help", valueName: nil, help: "Show this help")
    static let config = OptionSpec(
        name: "config", valueName: "DIR", help: "Folder holding environments/, domains/ and policies/ (default: .)")
    static func format(_ choices: [String]) -> OptionSpec {
        OptionSpec(
            name: "format", valueName: "FORMAT", help: "Output format (default: \(choices[0]))", choices: choices)
    }
}

/// A command line that does not fit the command's spec: exit code 2, with the command's usage.
struct UsageError: Error {
    var message: String
}

/// Parsed options and positionals of one command.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    /// Every option with a value, in command-line order, for options that group (`import`).
    private(set) var ordered: [(name: String, value: String)] = []
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    private(set) var wantsHelp = false

    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
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
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "--\(name) needs a value (\(option.valueName!))")
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(
                    message: "--\(name) must be one of \(choices.joined(separator: ", ")), not \"\(value)\"")
            }
            if values[name] != nil && !option.repeatable {
                throw UsageError(message: "--\(name) is given twice")
            }
            values[name, default: []].append(value)
            ordered.append((name, value))
        }
        if !wantsHelp && positionals.count > spec.maximumPositionals {
            throw UsageError(
                message: spec.maximumPositionals == 0
                    ? "\(spec.name) takes no arguments, got \"\(positionals[0])\""
                    : "too many arguments: \(positionals.joined(separator: " "))")
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
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
