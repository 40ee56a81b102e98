import Foundation
import LinkwrightCore
import LinkwrightIO

/// `--output FILE`: a command's standard output written to a file instead, all or nothing, and
/// never through a link a checkout holds. The file is written under a fresh name and renamed
/// into place, so a link at FILE is replaced, not followed. Inside the git working tree around
/// the current folder (what a pull request can fill with links), every folder on the way is
/// walked from the tree's top without following links, and a link in place of one is an error;
/// outside it, FILE's folder is the one the user named.
enum OutputFile {
    static let option = Option<String?>(
        name: "output", valueName: "FILE",
        help: "Write the report to FILE instead of standard output (a link there is replaced, not followed)")

    /// Runs `body` with standard output captured, then writes what it printed to the file
    /// `arguments` names, if it names one.
    static func capturing<Result>(
        _ arguments: ParsedArguments, _ terminal: Terminal, _ body: () throws -> Result
    ) throws -> Result {
        guard let path = arguments[option] else { return try body() }
        guard !path.isEmpty else { throw UsageError(message: "--output needs a file name") }
        terminal.captureOutput()
        let result: Result
        do {
            result = try body()
        } catch {
            _ = terminal.takeCaptured()
            throw error
        }
        try write(terminal.takeCaptured(), to: path, terminal)
        return result
    }

    static func write(_ bytes: [UInt8], to path: String, _ terminal: Terminal) throws {
        let target = terminal.url(path)
        do {
            if let top = GitRepository.workTreeRoot(containing: terminal.currentDirectory.path),
                target.path.hasPrefix(top + "/")
            {
                try AtomicFiles.write(
                    [(String(target.path.dropFirst(top.count + 1)), bytes)], under: URL(fileURLWithPath: top))
            } else {
                try AtomicFiles.write(bytes, to: target)
            }
        } catch let error as AtomicFiles.WriteError {
            throw UnusableInput(
                message: PrintableText.escaped(error.description),
                hint: "nothing was written; give --output a file whose folders are real folders")
        }
    }
}
