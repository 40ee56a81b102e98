import Foundation

/// One command run to completion, with its wall time and peak resident memory.
///
/// Memory comes from GNU time (`/usr/bin/time -f %M`), which forks the command from its own
/// small process: on Linux a process's `ru_maxrss` keeps the high-water mark of the memory it
/// had before `exec`, and a child spawned from this harness (vfork or fork) starts out as the
/// harness, whose generated inputs can weigh a hundred megabytes.
public struct Measurement: Sendable {
    public var seconds: Double
    /// Peak resident set size in kilobytes.
    public var peakKilobytes: Int
    public var status: Int32

    /// Runs `arguments[0]` with the rest as arguments, standard input from `input` and standard
    /// output to `output` (`/dev/null` when nil), in `directory`.
    public static func run(
        _ arguments: [String], input: String? = nil, output: String? = nil, directory: String? = nil
    ) throws -> Measurement {
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // `env -C` changes directory and execs the command in the same process, so its time and
        // memory are the command's.
        let memoryReport = FileManager.default.temporaryDirectory.appendingPathComponent(
            "linkwright-bench-memory-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: memoryReport) }
        let command =
            ["/usr/bin/time", "-f", "%M", "-o", memoryReport]
            + (directory.map { ["env", "-C", $0] + arguments } ?? arguments)
        let argv = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let start = DispatchTime.now()
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        // GNU time writes "Command exited with non-zero status N" first when the command fails.
        let report = (try? String(contentsOfFile: memoryReport, encoding: .utf8)) ?? ""
        guard let kilobytes = report.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw BenchmarkError("no memory figure from /usr/bin/time for \(arguments[0]): \(report)")
        }
        return Measurement(seconds: seconds, peakKilobytes: kilobytes, status: exit)
    }
}

public struct BenchmarkError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
