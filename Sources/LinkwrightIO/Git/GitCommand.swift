import Foundation
import LinkwrightCore

/// The user's own `git`, run as a child process: what must behave exactly as their `git commit`
/// does (hooks, `commit.gpgsign`, `GIT_AUTHOR_DATE` and the rest of the environment) goes through
/// it rather than libgit2, which runs no hooks and signs nothing.
public enum GitCommand {
    /// What a run of git said.
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// `git` on `PATH`, or `nil` when there is none.
    public static var executable: URL? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return folders.lazy.map { URL(fileURLWithPath: String($0)).appendingPathComponent("git") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `git arguments` in `directory` with this process's environment, `input` on its
    /// standard input, and waits for it.
    public static func run(_ arguments: [String], in directory: String, input: String = "") throws -> Output {
        guard let executable else {
            throw GitError.failed(operation: "running git \(arguments.first ?? "")", reason: "git is not on PATH")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let (inputPipe, outputPipe, errorPipe) = (Pipe(), Pipe(), Pipe())
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        do {
            try process.run()
        } catch {
            throw GitError.failed(operation: "running git \(arguments.first ?? "")", reason: "\(error)")
        }
        // Both pipes are drained at once: a hook that writes much to one must not block on it.
        let errorData = LockedValue(Data())
        let errorRead = DispatchSemaphore(value: 0)
        Thread {
            let data = errorPipe.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            errorRead.signal()
        }.start()
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try? inputPipe.fileHandleForWriting.close()
        let outputData = outputPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: errorData.withLock { String(decoding: $0, as: UTF8.self) })
    }
}
