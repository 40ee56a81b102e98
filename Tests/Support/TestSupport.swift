import Foundation
import LinkwrightCore

/// Where things are, seen from the tests.
public enum RepositoryPaths {
    /// The repository root (this file is Tests/Support/TestSupport.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where `../shared/corpus` stands next to the repository: real association files written by
    /// other people.
    public static let sharedCorpusFolder = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// `sharedCorpusFolder` when it is there. CI has it; a user's fresh clone may not, and tests
    /// that need it are skipped (`.enabled(if:)`) with `sharedCorpusMissing` as the reason.
    public static var sharedCorpus: URL? {
        FileManager.default.fileExists(atPath: sharedCorpusFolder.path) ? sharedCorpusFolder : nil
    }

    public static let sharedCorpusMissing = "../shared/corpus is not here (CI has it)"

    /// The folder of the built products (the test bundle sits next to the executable).
    public static var products: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
}

/// A folder under the system's temporary directory, removed when `remove()` is called.
public struct TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("linkwright-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` at `path` relative to the folder, creating folders as needed.
    @discardableResult
    public func write(_ path: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    public func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: url.appendingPathComponent(path)), as: UTF8.self)
    }

    public func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path)
    }

    /// Copies the repository's example configuration (environments/, domains/, policies/) here.
    public func copyExampleConfiguration() throws {
        for folder in ["environments", "domains", "policies"] {
            try FileManager.default.copyItem(
                at: RepositoryPaths.root.appendingPathComponent(folder), to: url.appendingPathComponent(folder))
        }
    }
}

/// What a process printed and how it ended.
public struct ProcessResult: CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether the process was killed at the timeout given to `runProcess`.
    public var timedOut = false

    public var description: String {
        (timedOut ? "killed at the timeout" : "exit \(status)") + "\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Runs a program to completion. Standard output and error are drained concurrently so a large
/// output cannot fill a pipe and block the child. With a `timeout` (seconds), a process still
/// running then is killed, so a test of something that must not hang fails instead of hanging.
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
    input: Data? = nil, timeout: TimeInterval? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var fullEnvironment = ProcessInfo.processInfo.environment
    fullEnvironment.removeValue(forKey: "NO_COLOR")
    // A shell's width would wrap the help tests compare.
    fullEnvironment.removeValue(forKey: "COLUMNS")
    for (key, value) in environment { fullEnvironment[key] = value }
    process.environment = fullEnvironment
    let out = Pipe()
    let err = Pipe()
    let inputPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inputPipe
    try process.run()
    let pid = process.processIdentifier
    let killer = DispatchWorkItem { kill(pid, SIGKILL) }
    if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer) }
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
    if let input { inputPipe.fileHandleForWriting.write(input) }
    try? inputPipe.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    killer.cancel()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self),
        // Nothing else sends SIGKILL to the processes tests run.
        timedOut: timeout != nil && process.terminationReason == .uncaughtSignal
            && process.terminationStatus == SIGKILL)
}

/// Runs the built `linkwright` executable.
public func runLinkwright(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: Data? = nil,
    timeout: TimeInterval? = nil
) throws -> ProcessResult {
    try runProcess(
        RepositoryPaths.products.appendingPathComponent("linkwright"), arguments, in: directory,
        environment: environment,
        input: input, timeout: timeout)
}

/// Runs `linkwright build` in `folder` and returns the association files it wrote for `host`.
public func builtAssociationFiles(in folder: TemporaryFolder, host: String, environment: String = "production")
    throws -> (aasa: [UInt8], assetLinks: [UInt8])
{
    let build = try runLinkwright(["build"], in: folder.url)
    guard build.status == 0 else { throw HarnessError("linkwright build failed: \(build)") }
    let files = folder.url.appendingPathComponent("dist/\(environment)/\(host)/.well-known")
    return (
        Array(try Data(contentsOf: files.appendingPathComponent("apple-app-site-association"))),
        Array(try Data(contentsOf: files.appendingPathComponent("assetlinks.json")))
    )
}

/// Golden files: compares `actual` with the file at `url`. With `LINKWRIGHT_RECORD=1` in the
/// environment the file is (re)written instead and the comparison fails, saying so: a run that
/// records has compared nothing, so it must never pass as if it had.
public enum Golden {
    public static var recording: Bool { ProcessInfo.processInfo.environment["LINKWRIGHT_RECORD"] == "1" }

    /// `nil` when they match, else a message naming the first differing line, or saying that the
    /// file was recorded.
    public static func mismatch(_ actual: String, golden url: URL) -> String? {
        if recording {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                return "could not record golden file \(url.path): \(error)"
            }
            return "recorded golden file \(url.path); review it and run the tests again without LINKWRIGHT_RECORD"
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "golden file \(url.path) is missing; run the tests with LINKWRIGHT_RECORD=1 to create it"
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let index =
            zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let line = { (lines: [Substring]) in index < lines.count ? String(lines[index]) : "<end of file>" }
        return """
            \(url.path) differs at line \(index + 1) (re-record with LINKWRIGHT_RECORD=1 if the change is intended)
              expected: \(line(expectedLines))
              actual:   \(line(actualLines))
            """
    }
}

/// One example of one policy rule, as a test argument: the core tests run it through the policy
/// engine and the end-to-end tests through `linkwright check`.
public struct RuleExampleCase: CustomStringConvertible, Sendable {
    public let rule: RuleID
    public let example: RuleExample

    public var description: String { "\(rule.rawValue): \(example.name)" }

    public static var all: [RuleExampleCase] {
        PolicyRules.all.flatMap { rule in rule.info.examples.map { RuleExampleCase(rule: rule.info.id, example: $0) } }
    }
}

/// Programs tests run when they are installed (`plutil` from the Swift toolchain, `swiftc`,
/// `kotlinc`), found on `PATH` as a shell would.
public enum InstalledTool {
    public static func path(_ name: String) -> URL? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return folders.lazy.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// Tests that need what only Linux has here (`/proc`, GNU coreutils at /usr/bin, GNU time's `-f`)
/// run only there: on macOS (CI's macos-15 job) they are skipped, each saying what it needs.
public enum LinuxOnly {
    #if os(Linux)
        public static let here = true
    #else
        public static let here = false
    #endif
}
