import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCLI

/// Every command's help, usage and formats, checked from what the command declares, so a new
/// command or option is covered without touching these tests.
@Suite struct CommandDeclarationTests {
    static let specs = LinkwrightCLI.commands.map { $0.spec }
    static let names = specs.map(\.name)

    static func spec(_ name: String) -> CommandSpec { specs.first { $0.name == name }! }

    @Test(arguments: names)
    func helpIsTheSameAsCommandHelpAndListsEveryOption(_ name: String) throws {
        let spec = Self.spec(name)
        let asked = try runLinkwright(["help", name])
        let flagged = try runLinkwright([name, "--help"])
        #expect(asked.status == 0)
        #expect(flagged.status == 0)
        #expect(asked.stderr.isEmpty && flagged.stderr.isEmpty)
        #expect(asked.stdout == flagged.stdout)
        #expect(asked.stdout.contains("\nUsage: linkwright \(spec.usage)\n"))
        for option in spec.options + [OptionSpec.help] {
            #expect(asked.stdout.contains("\n  \(option.label) "), "\(name) --help misses --\(option.name)")
        }
        for argument in spec.arguments {
            #expect(asked.stdout.contains("\n  \(argument.name) "), "\(name) --help misses \(argument.name)")
        }
    }

    @Test(arguments: names)
    func theUsageLineNamesEveryOptionAndArgument(_ name: String) {
        let spec = Self.spec(name)
        for option in spec.options {
            #expect(spec.usage.contains(option.written), "\(spec.usage) misses --\(option.name)")
        }
        for argument in spec.arguments {
            #expect(spec.usage.contains(Syntax.argument(argument).rendered), "\(spec.usage) misses \(argument.name)")
        }
    }

    @Test(arguments: names)
    func aUsageErrorShowsTheDeclaredUsage(_ name: String) throws {
        let result = try runLinkwright([name, "--no-such-option"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "error: unknown option --no-such-option for \(name)\nUsage: linkwright \(Self.spec(name).usage)\n"))
    }

    /// Each `--format` choice gets past the parser and into the command, which then stops on
    /// the empty folder (or a missing argument) in its own way, not on the format.
    @Test(arguments: names.filter { spec($0).options.contains { $0.name == "format" } })
    func everyDeclaredFormatIsAccepted(_ name: String) throws {
        let spec = Self.spec(name)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let required = spec.options.filter(\.isRequired).flatMap { ["--\($0.name)", "x"] }
        for format in spec.options.first(where: { $0.name == "format" })!.choices! {
            let result = try runLinkwright([name, "--format", format] + required, in: folder.url)
            #expect((0...2).contains(result.status), "\(name) --format \(format): \(result)")
            let error = result.stderr.prefix { $0 != "\n" }
            #expect(!error.contains("--format"), "\(name) --format \(format): \(result.stderr)")
        }
    }

    @Test func aRequiredOptionIsNamedWhenMissing() throws {
        let result = try runLinkwright(["monitor"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: monitor needs --state FILE\nUsage: linkwright monitor --state FILE "))
    }

    @Test func completionOffersTheCommands() throws {
        let script = try runLinkwright(["completions", "bash"]).stdout
        #expect(try Self.complete([""], with: script) == Self.names + ["help"])
        #expect(try Self.complete(["help", "bu"], with: script) == ["build"])
    }

    @Test(arguments: names)
    func completionOffersEveryOptionAndChoice(_ name: String) throws {
        let spec = Self.spec(name)
        let script = try runLinkwright(["completions", "bash"]).stdout
        #expect(
            try Self.complete([name, "--"], with: script) == (spec.options + [OptionSpec.help]).map { "--\($0.name)" })
        for option in spec.options where option.choices != nil {
            #expect(try Self.complete([name, "--\(option.name)", ""], with: script) == option.choices)
        }
        let choices = spec.arguments.flatMap { $0.choices ?? [] }
        #expect(try Self.complete([name, ""], with: script) == choices)
    }

    /// Whether `shell` can be run here: zsh and fish are optional (scripts/install-deps.sh leaves
    /// them out), and their tests say so when they are skipped.
    static func installed(_ shell: String) -> Bool {
        (try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "command -v \(shell)"]))?.status == 0
    }

    @Test func theBashScriptParses() throws {
        let script = try runLinkwright(["completions", "bash"]).stdout
        let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["bash", "-n"], input: Data(script.utf8))
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "\(parsed)")
    }

    /// zsh parses the script, and loading it under compinit defines the completion function.
    @Test(.enabled(if: installed("zsh"), "zsh is not installed: its completion script is not checked"))
    func theZshScriptParsesAndLoads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = try runLinkwright(["completions", "zsh"]).stdout
        let path = try folder.write("_linkwright", script).path
        let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["zsh", "-n", path])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "\(parsed)")
        let loaded = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "zsh", "-f", "-c",
                "autoload -U compinit && compinit -u -D && source \(path) && print -r -- ${_comps[linkwright]}",
            ], environment: ["HOME": folder.url.path])
        #expect(loaded.status == 0 && loaded.stdout == "_linkwright\n", "\(loaded)")
        for spec in CommandDeclarationTests.specs {
            #expect(script.contains("        \(spec.name))\n"), "\(spec.name) has no case")
        }
    }

    /// fish parses the script and, asked what follows, offers each command's options and the
    /// choices of its arguments, as declared.
    @Test(.enabled(if: installed("fish"), "fish is not installed: its completion script is not checked"))
    func theFishScriptOffersWhatIsDeclared() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("linkwright.fish", try runLinkwright(["completions", "fish"]).stdout).path
        let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["fish", "--no-execute", path])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "\(parsed)")
        func complete(_ line: String) throws -> [String] {
            let result = try runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path, line],
                environment: ["HOME": folder.url.path, "XDG_CONFIG_HOME": folder.url.path])
            #expect(result.status == 0, "\(result)")
            return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try complete("linkwright ").sorted() == (Self.names + ["help"]).sorted())
        for name in Self.names {
            let spec = Self.spec(name)
            let options = (spec.options + [OptionSpec.help]).map { "--\($0.name)" }
            #expect(try complete("linkwright \(name) --").sorted() == options.sorted(), "\(name)")
            for option in spec.options where option.choices != nil {
                #expect(try complete("linkwright \(name) --\(option.name) ").sorted() == option.choices!.sorted())
            }
        }
    }

    /// What the bash completion `script` offers for the last of `words`, typed after `linkwright`.
    static func complete(_ words: [String], with script: String) throws -> [String] {
        let run = """
            source /dev/stdin
            COMP_WORDS=(linkwright "$@")
            COMP_CWORD=$#
            _linkwright
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["bash", "-c", run, "bash"] + words, input: Data(script.utf8))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The README's command summary is the usage lines, names aligned.
    @Test func theReadmeListsTheDeclaredUsageOfEveryCommand() throws {
        let readme = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Commands\n\n```\n"))
        let block = readme[section.upperBound...].prefix { $0 != "`" }
        // Names up to seven letters line up; longer ones are followed by one space.
        let generated = Self.specs.map { spec in
            let name = spec.name.padding(toLength: max(7, spec.name.count), withPad: " ", startingAt: 0)
            return "linkwright \(name) \(spec.synopsis)\n"
        }
        #expect(
            String(block) == generated.joined(), "README.md's ## Commands block should read:\n\(generated.joined())")
    }
}
