import Foundation

/// A file descriptor's contents as lines, read in large chunks rather than byte by byte.
public enum LineReader {
    /// The longest line held: 1 MiB, the size of the largest configuration file. A URL per line
    /// never comes near it (browsers stop at 2 MiB for a whole URL, servers at 8 KB).
    public static let defaultMaximumLineBytes = 1 << 20

    /// Calls `line` for every line (its UTF-8 bytes, read in place, without the `\n`), then
    /// `waiting` each time every line read so far has been handled and the next read may block:
    /// a streaming command flushes there, so a pipe fed line by line gets each answer at once
    /// and a file streams through in big writes. The bytes are valid only during the call.
    ///
    /// A line longer than `maximumLineBytes` is not collected: `tooLong` gets its number (from
    /// 1) as soon as it passes the limit, the rest of it is skipped, and reading goes on with the
    /// next line. So memory stays under the limit plus one chunk, whatever the input.
    public static func forEach(
        in descriptor: Int32 = STDIN_FILENO, maximumLineBytes: Int = defaultMaximumLineBytes,
        _ line: (UnsafeBufferPointer<UInt8>) -> Void, tooLong: (_ lineNumber: Int) -> Void, waiting: () -> Void = {}
    ) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var carried: [UInt8] = []
        var lineNumber = 1
        // Inside a line already reported as too long, until its newline.
        var skipping = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBufferPointer { bytes in
                var start = 0
                for index in 0..<count where bytes[index] == UInt8(ascii: "\n") {
                    if skipping {
                        skipping = false
                    } else if carried.count + index - start > maximumLineBytes {
                        tooLong(lineNumber)
                    } else if carried.isEmpty {
                        line(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    } else {
                        carried += bytes[start..<index]
                        carried.withUnsafeBufferPointer(line)
                    }
                    carried.removeAll(keepingCapacity: true)
                    lineNumber += 1
                    start = index + 1
                }
                guard !skipping else { return }
                if carried.count + count - start > maximumLineBytes {
                    tooLong(lineNumber)
                    skipping = true
                    carried = []
                } else {
                    carried += bytes[start..<count]
                }
            }
            waiting()
        }
        if !carried.isEmpty { carried.withUnsafeBufferPointer(line) }
        waiting()
    }
}
