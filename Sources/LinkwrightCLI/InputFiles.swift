import LinkwrightCore
import LinkwrightIO

/// A kind of file the commands read, with the cap its parser already enforces, so nothing
/// larger is ever held in memory.
struct InputFileKind {
    var name: String
    var maximumBytes: Int
    var tooLargeHint: String

    static let associationFile = InputFileKind(
        name: "an association file", maximumBytes: JSONParser().maximumBytes,
        tooLargeHint: "association files are small (Apple reads at most 128 KB); check that this is the right file")
    static let configurationFile = InputFileKind(
        name: "a configuration file", maximumBytes: YAMLParser().maximumBytes,
        tooLargeHint: "split the file, or remove generated content from it")
    static let monitorState = InputFileKind(
        name: "a monitor state file", maximumBytes: JSONParser().maximumBytes,
        tooLargeHint: "this is not a file monitor wrote; delete it to start over")
}

extension Terminal {
    /// The file at `path` (as given, relative to the current folder); any problem is an input
    /// error that names the path and the fix.
    func readInput(_ path: String, _ kind: InputFileKind) throws -> [UInt8] {
        guard let bytes = try readInputIfPresent(path, kind) else {
            throw UnusableInput(message: "cannot read \(path): there is no such file", hint: "check the path")
        }
        return bytes
    }

    /// Like `readInput`, but `nil` when nothing is at `path`.
    func readInputIfPresent(_ path: String, _ kind: InputFileKind) throws -> [UInt8]? {
        do {
            return try InputFile.read(url(path).path, maximumBytes: kind.maximumBytes)
        } catch .missing {
            return nil
        } catch .unreadable(let reason) {
            throw UnusableInput(message: "cannot read \(path): \(reason)", hint: "check the path and its permissions")
        } catch .notRegularFile(let what) {
            throw UnusableInput(
                message: "\(path) is \(what), not a regular file", hint: "give the path of \(kind.name) itself")
        } catch .tooLarge(let bytes, let maximum) {
            let size = bytes.map { "is \($0) bytes" } ?? "grew while it was read"
            throw UnusableInput(
                message: "\(path) \(size): too large for \(kind.name), whose limit is \(maximum) bytes",
                hint: kind.tooLargeHint)
        }
    }
}
