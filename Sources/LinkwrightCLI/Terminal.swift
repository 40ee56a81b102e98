import Foundation
import LinkwrightCore

/// Standard output and error for commands. Each call writes whole lines straight to the file
/// descriptor (line-buffered), so output reaches a pipe in order even if the process is killed;
/// colour is used only on a terminal and never with a non-empty NO_COLOR. Streaming commands switch to
/// `beginBuffering()` and `flush()` at the points where a reader may be waiting.
final class Terminal {
    /// Standard output not yet written, while buffering.
    private var pending: [UInt8]?
    /// Standard output kept for a file (`--output`) instead of written, while capturing.
    private var captured: [UInt8]?
    /// Past this many bytes the buffer is written even before `flush()`.
    private static let bufferLimit = 1 << 16

    let useColor: Bool
    let environment: [String: String]
    let currentDirectory: URL

    init() {
        environment = ProcessInfo.processInfo.environment
        // NO_COLOR counts only when set to something (https://no-color.org): `NO_COLOR=` keeps colour.
        useColor =
            isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        currentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    func out(_ text: String) {
        var text = text
        // In one copy of the string's contiguous bytes: a slice of its UTF-8 view is appended
        // byte by byte.
        text.withUTF8 { bytes in
            outLine { $0.append(contentsOf: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]) }
        }
    }

    /// One line written by `build` straight into the output bytes (the newline is added): the
    /// streaming commands' hot path, with no string per line.
    func outLine(_ build: (inout [UInt8]) -> Void) {
        guard pending != nil else {
            var bytes: [UInt8] = []
            build(&bytes)
            bytes.append(UInt8(ascii: "\n"))
            return writeOut(bytes)
        }
        build(&pending!)
        pending!.append(UInt8(ascii: "\n"))
        if pending!.count >= Self.bufferLimit { flush() }
    }

    func err(_ text: String) {
        // What was answered before the error is printed first, as it would be unbuffered.
        flush()
        Self.write(Self.line(text), to: STDERR_FILENO)
    }

    /// A question on standard error, the answer typed after it on the same line.
    func prompt(_ text: String) {
        flush()
        Self.write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Collects standard output until `flush()`, instead of a system call per line.
    func beginBuffering() { pending = pending ?? [] }

    /// Writes what standard output collected. Buffering continues.
    func flush() {
        guard let bytes = pending, !bytes.isEmpty else { return }
        pending = []
        writeOut(bytes)
    }

    /// Keeps standard output from now on for `takeCaptured()`.
    func captureOutput() { captured = captured ?? [] }

    /// What standard output received since `captureOutput()`; capturing stops.
    func takeCaptured() -> [UInt8] {
        flush()
        defer { captured = nil }
        return captured ?? []
    }

    private func writeOut(_ bytes: [UInt8]) {
        if captured != nil {
            captured! += bytes
        } else {
            Self.write(bytes, to: STDOUT_FILENO)
        }
    }

    private static func line(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// The width prose is wrapped to: `COLUMNS` when set to a number, else the width of the
    /// terminal standard output is; `nil` (text as written) for a pipe or a file.
    var columns: Int? {
        if let given = environment["COLUMNS"].flatMap(Int.init), given > 0 { return max(given, 40) }
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0
        else { return nil }
        return max(Int(size.ws_col), 40)
    }

    /// Colour when standard output is a terminal that wants it.
    var style: TextStyle { TextStyle(colour: useColor) }

    /// `text` in an ANSI style when colour is on.
    func styled(_ text: String, _ emphasis: TextStyle.Emphasis) -> String { style.styled(text, emphasis) }

    /// What a command prints, in `format`: standard error, then standard output, and for the
    /// GitHub format the job summary, appended to the file GitHub names in
    /// `$GITHUB_STEP_SUMMARY` when it is set.
    func print(_ output: some CommandOutput, as format: OutputFormat) throws {
        if streams(output, as: format) { return }
        guard let printed = output.printed(as: format, style: style, version: LinkwrightCLI.version) else {
            throw UsageError(message: "--format \(format.rawValue) is not offered here")
        }
        if !printed.err.isEmpty { err(printed.err) }
        if !printed.out.isEmpty { out(printed.out) }
        if let summary = printed.stepSummary, let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            appendStepSummary(summary, to: path)
        }
    }

    /// Writes `output` as it streams it (`CommandOutput.stream`), in buffers of `bufferLimit`
    /// bytes; false, having written nothing, when it prints `format` whole.
    private func streams(_ output: some CommandOutput, as format: OutputFormat) -> Bool {
        let wasBuffering = pending != nil
        beginBuffering()
        defer {
            flush()
            if !wasBuffering { pending = nil }
        }
        return output.stream(as: format, style: style) { piece in
            pending!.append(contentsOf: piece)
            if pending!.count >= Self.bufferLimit { flush() }
        }
    }

    /// GitHub caps a step's summary at 1 MiB; the comment stays far below it. A summary that
    /// cannot be written is said, not fatal: the annotations are out already.
    private func appendStepSummary(_ summary: String, to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            return err("warning: cannot append the report to GITHUB_STEP_SUMMARY (\(PrintableText.escaped(path)))")
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Array(summary.utf8))
        } catch {
            err("warning: cannot append the report to GITHUB_STEP_SUMMARY: \(error)")
        }
    }

    /// A path given on the command line, resolved against the current directory.
    func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
    }
}
