import Foundation

/// A file descriptor's contents as lines, read in large chunks rather than byte by byte.
public enum LineReader {
    /// Calls `line` for every line (its UTF-8 bytes, read in place, without the `\n`), then
    /// `waiting` each time every line read so far has been handled and the next read may block:
    /// a streaming command flushes there, so a pipe fed line by line gets each answer at once
    /// and a file streams through in big writes. The bytes are valid only during the call.
    public static func forEach(
        in descriptor: Int32 = STDIN_FILENO, _ line: (UnsafeBufferPointer<UInt8>) -> Void, waiting: () -> Void = {}
    ) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var carried: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBufferPointer { bytes in
                var start = 0
                for index in 0..<count where bytes[index] == UInt8(ascii: "\n") {
                    if carried.isEmpty {
                        line(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    } else {
                        carried += bytes[start..<index]
                        carried.withUnsafeBufferPointer(line)
                        carried.removeAll(keepingCapacity: true)
                    }
                    start = index + 1
                }
                carried += bytes[start..<count]
            }
            waiting()
        }
        if !carried.isEmpty { carried.withUnsafeBufferPointer(line) }
        waiting()
    }
}
