import Foundation

public struct GitCommandFailure: Error, CustomStringConvertible {
    public let description: String
}

/// A throwaway repository built with the git CLI in a temporary folder, removed with the fixture.
/// The git CLI runs without global or system configuration; commit and tag times advance one
/// minute per command from a fixed start, so every run produces the same history shape.
public final class GitFixture {
    /// The temporary folder: the repository and any clones or copies of it live inside.
    public let folder: String
    /// The main repository, on branch `main`.
    public let repository: String
    private var clock = 1_700_000_000

    public init() throws {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("linkwright-git-XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template), let resolved = realpath(created, nil) else {
            throw GitCommandFailure(description: "cannot create a temporary folder")
        }
        defer { free(resolved) }
        folder = String(cString: resolved)
        repository = folder + "/repo"
        try git("init", "-q", "-b", "main", repository, in: folder)
        try setIdentity(in: repository)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Runs git in `directory` (the repository by default) and returns its standard output
    /// without the final newline.
    @discardableResult
    public func git(_ arguments: String..., in directory: String? = nil, environment: [String: String] = [:]) throws
        -> String
    {
        clock += 60
        return try run(
            ["git"] + arguments, in: directory ?? repository,
            environment: [
                "GIT_AUTHOR_DATE": "@\(clock) +0000",
                "GIT_COMMITTER_DATE": "@\(clock) +0000",
            ].merging(environment) { $1 })
    }

    /// Runs a command line through `sh -c`, as a user would paste it.
    @discardableResult
    public func shell(_ commandLine: String, environment: [String: String] = [:]) throws -> String {
        try run(["sh", "-c", commandLine], in: folder, environment: environment)
    }

    public func setIdentity(in directory: String) throws {
        try git("config", "user.name", "Fixture Author", in: directory)
        try git("config", "user.email", "fixture@example.invalid", in: directory)
    }

    /// Writes `files` (path relative to the repository → text; nil deletes), then commits every
    /// change in the working tree and returns the new commit's ID.
    @discardableResult
    public func commit(_ message: String, _ files: [String: String?] = [:]) throws -> String {
        try write(files)
        try git("add", "-A")
        try git("commit", "-q", "--allow-empty", "-m", message)
        return try git("rev-parse", "HEAD")
    }

    /// Writes `files` (path relative to the repository → text; nil deletes) without committing.
    public func write(_ files: [String: String?]) throws {
        for (path, text) in files {
            let url = URL(fileURLWithPath: repository + "/" + path)
            guard let text else {
                try FileManager.default.removeItem(at: url)
                continue
            }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// The file that holds `id` as a loose object in the repository (or in `repository`).
    public func looseObjectFile(_ id: String, in repository: String? = nil) -> String {
        (repository ?? self.repository) + "/.git/objects/" + id.prefix(2) + "/" + id.dropFirst(2)
    }

    /// Replaces the file of the loose object `id` with `bytes`, as damage or an attacker would.
    public func replaceLooseObject(_ id: String, with bytes: [UInt8], in repository: String? = nil) throws {
        let file = looseObjectFile(id, in: repository)
        // git makes object files read-only.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    /// Cuts the file of the loose object `id` to half its length, as an interrupted copy or a
    /// full disk leaves it.
    public func truncateLooseObject(_ id: String, in repository: String? = nil) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: looseObjectFile(id, in: repository)))
        try replaceLooseObject(id, with: Array(bytes.prefix(bytes.count / 2)), in: repository)
    }

    private func run(_ arguments: [String], in directory: String, environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // Variables such as GIT_DIR, set when tests run from a git hook, would redirect every command.
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        variables["HOME"] = folder
        variables["GIT_CONFIG_GLOBAL"] = "/dev/null"
        variables["GIT_CONFIG_NOSYSTEM"] = "1"
        variables["LC_ALL"] = "C"
        process.environment = variables.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GitCommandFailure(
                description: "\(arguments.joined(separator: " ")) failed: \(String(decoding: errorData, as: UTF8.self))"
            )
        }
        var text = String(decoding: outputData, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

extension GitFixture {
    /// The repository's example configuration (environments/, domains/ and policies/), as
    /// `commit` takes files.
    public static func exampleFiles() throws -> [String: String?] {
        var files: [String: String?] = [:]
        for folder in ["environments", "domains", "policies"] {
            let root = RepositoryPaths.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
                files["\(folder)/\(name)"] = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            }
        }
        return files
    }
}
