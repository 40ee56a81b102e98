import Foundation
import LinkwrightCore

/// The `linkwright` command line.
public enum LinkwrightCLI {
    public static let version = "0.1.0"

    /// In the order of the overview and the README: build and test, read association files,
    /// compare revisions, check what is served, then the helpers.
    static var commands: [any Command.Type] {
        [
            BuildCommand.self, LintCommand.self, TestCommand.self, MatchCommand.self, ExplainCommand.self,
            CheckCommand.self, DiffCommand.self, InitCommand.self, ImportCommand.self, PromoteCommand.self,
            ChangelogCommand.self,
            VerifyCommand.self, InspectCommand.self, DiagnoseCommand.self, MonitorCommand.self,
            GitDiffDriverCommand.self, RulesCommand.self, SchemaCommand.self,
            GenerateCommand.self, SyncCommand.self, CompletionsCommand.self,
        ]
    }

    /// The list of commands, its prose wrapped to `width` columns (`nil`: as written).
    static func overview(width: Int?) -> String {
        let wrap = TextWrapping(width: width)
        var text =
            wrap.paragraph(
                "iOS Universal Links and Android App Links as configuration-as-code", after: "linkwright \(version): ")
        text += """


            Usage: linkwright <command> [options]

            Commands:

            """
        for command in commands {
            let name = command.spec.name
            let label = "  \(name)\(String(repeating: " ", count: max(2, 12 - name.count)))"
            text += wrap.paragraph(command.spec.abstract, after: label, indent: label.count) + "\n"
        }
        text += wrap.prose(
            """

            Run `linkwright help <command>` or `linkwright <command> --help` for the options of a command;
            `linkwright version` (or -V, --version) prints the version.

            Exit codes: 0 nothing blocks; 1 something blocks (drift, a failing expectation, a policy
            violation, a failed live check); 2 the input cannot be used.
            """)
        return text
    }

    /// Runs the command line and exits with the command's status.
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let terminal = Terminal()
        if ProcessInfo.processInfo.environment["LINKWRIGHT_CACHES"] == "off" { Caching.switchOff() }
        let status = run(arguments, terminal: terminal)
        terminal.flush()
        exit(status.rawValue)
    }

    static func run(_ arguments: [String], terminal: Terminal) -> ExitStatus {
        guard let name = arguments.first else {
            terminal.err(overview(width: terminal.columns))
            return .unusable
        }
        switch name {
        case "help" where arguments.count > 1:
            // `help CMD` is `CMD --help`.
            guard let command = command(named: arguments[1], terminal: terminal) else { return .unusable }
            terminal.out(command.spec.help(width: terminal.columns))
            return .success
        case "--help", "-h", "help":
            terminal.out(overview(width: terminal.columns))
            return .success
        case "--version", "-V", "version":
            terminal.out("linkwright \(version)")
            return .success
        default: break
        }
        guard let command = command(named: name, terminal: terminal) else { return .unusable }
        return run(command, Array(arguments.dropFirst()), terminal: terminal)
    }

    /// The command called `name`, or `nil` once the error is printed.
    private static func command(named name: String, terminal: Terminal) -> (any Command.Type)? {
        if let command = commands.first(where: { $0.spec.name == name }) { return command }
        let suggestion = Spelling.closest(to: name, among: commands.map { $0.spec.name })
        terminal.err(
            "error: unknown command \(PrintableText.quoted(name))"
                + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
                + "\nRun `linkwright --help` for the list of commands.")
        return nil
    }

    private static func execute<C: Command>(_: C.Type, _ arguments: ParsedArguments, terminal: Terminal) throws
        -> ExitStatus
    {
        try C(arguments).run(terminal)
    }

    private static func run(_ command: any Command.Type, _ arguments: [String], terminal: Terminal) -> ExitStatus {
        do {
            let parsed = try ParsedArguments(arguments, spec: command.spec)
            if parsed.wantsHelp {
                terminal.out(command.spec.help(width: terminal.columns))
                return .success
            }
            return try execute(command, parsed, terminal: terminal)
        } catch let error as UsageError {
            // Messages name arguments, files, git objects and library errors: escaped, each a line.
            terminal.err(
                "error: \(PrintableText.escaped(error.message))\nUsage: linkwright \(command.spec.usage)\nSee `linkwright \(command.spec.name) --help`."
            )
            return .unusable
        } catch let error as UnusableInput {
            terminal.err(
                "error: \(PrintableText.escaped(error.message))"
                    + (error.hint.map { "\n  hint: \(PrintableText.escaped($0))" } ?? ""))
            return .unusable
        } catch let halt as Halt {
            return halt.status
        } catch {
            terminal.err("error: \(PrintableText.escaped(String(describing: error)))")
            return .unusable
        }
    }
}
