import Foundation

/// Standard output and error for commands. Each call writes whole lines straight to the file
/// descriptor (line-buffered), so output reaches a pipe in order even if the process is killed;
/// colour is used only on a terminal and never with NO_COLOR.
final class Terminal {
    let useColor: Bool
    let environment: [String: String]
    let currentDirectory: URL

    init() {
        environment = ProcessInfo.processInfo.environment
        useColor = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        currentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    func out(_ text: String) { Self.write(text, to: STDOUT_FILENO) }

    func err(_ text: String) { Self.write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
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

    /// `text` in an ANSI style when colour is on.
    func styled(_ text: String, _ style: Style) -> String {
        useColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    enum Style: String {
        case red = "1;31"
        case yellow = "1;33"
        case green = "32"
        case bold = "1"
        case dim = "2"
    }

    /// A path given on the command line, resolved against the current directory.
    func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
    }
}
