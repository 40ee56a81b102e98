import Foundation
import LinkwrightCore

/// A built app's file (an .apk, .ipa, Mach-O), read a range at a time with `pread`, opened as
/// `InputFile` opens files: no FIFO can hold up the open, anything but a regular file is refused.
public final class BuildFile: BuildBytes {
    private let descriptor: Int32
    public let count: Int

    public init(_ path: String) throws(InputFile.Failure) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw .unreadable(String(cString: strerror(errno)))
        }
        let kind = FolderHandle.Kind(mode: status.st_mode)
        guard kind == .file else {
            close(descriptor)
            throw .notRegularFile(kind.description)
        }
        self.descriptor = descriptor
        count = Int(status.st_size)
    }

    deinit { close(descriptor) }

    public func read(_ range: Range<Int>) throws(BuildDefect) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw BuildDefect(got == 0 ? "the file got shorter while being read" : String(cString: strerror(errno)))
            }
            done += got
        }
        return bytes
    }
}

/// ZIP's method 8 inflated with zlib, never past the declared size.
public struct ZlibInflater: Inflating {
    public init() {}

    public func inflate(_ compressed: [UInt8], size: Int) throws(BuildDefect) -> [UInt8] {
        let inflater = Inflater(compressed, format: .raw)
        let data: [UInt8]
        do throws(InflateFailure) {
            try inflater.start()
            // One byte more than declared shows data that runs on past its size.
            data = try inflater.inflate(atMost: size + 1)
        } catch {
            switch error {
            case .truncated: throw BuildDefect("its compressed data ends early")
            case .damaged(let reason): throw BuildDefect("its compressed data is damaged (\(reason))")
            }
        }
        guard data.count == size else {
            throw BuildDefect(
                "it inflates to \(data.count > size ? "more" : "fewer") than the \(size) bytes it declares "
                    + "(a zip bomb, or damaged)")
        }
        return data
    }
}
