import Foundation

/// A file descriptor's contents as lines, read in large chunks rather than byte by byte.
public enum LineReader {
    /// Calls `line` for every line (without its `\n`), then `waiting` each time every line read
    /// so far has been handled and the next read may block: a streaming command flushes there, so
    /// a pipe fed line by line gets each answer at once and a file streams through in big writes.
    public static func forEach(
        in descriptor: Int32 = STDIN_FILENO, _ line: (String) -> Void, waiting: () -> Void = {}
    ) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var carried: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                if carried.isEmpty {
                    line(String(decoding: buffer[start..<index], as: UTF8.self))
                } else {
                    carried += buffer[start..<index]
                    line(String(decoding: carried, as: UTF8.self))
                    carried.removeAll(keepingCapacity: true)
                }
                start = index + 1
            }
            carried += buffer[start..<count]
            waiting()
        }
        if !carried.isEmpty { line(String(decoding: carried, as: UTF8.self)) }
        waiting()
    }
}
