import Foundation

/// Reads a file named on the command line, or found where a command was told to look, without
/// trusting it: a FIFO cannot hold up the open, a device or folder is refused, and no more than
/// the cap plus one byte is ever read, so a 3 GB sparse file costs nothing (it took 4.1 GB).
public enum InputFile {
    /// Why a file was not read.
    public enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// The open or a read failed, with the system's reason.
        case unreadable(String)
        /// Not a regular file: a folder, FIFO, device or socket, named.
        case notRegularFile(String)
        /// Larger than the cap: its size as the system gives it, `nil` when it grew past the cap
        /// while being read.
        case tooLarge(bytes: Int?, maximumBytes: Int)
    }

    /// The contents of the regular file at `path`, at most `maximumBytes` long.
    public static func read(_ path: String, maximumBytes: Int) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else { throw .notRegularFile(kindName(kind)) }
        guard Int(status.st_size) <= maximumBytes else {
            throw .tooLarge(bytes: Int(status.st_size), maximumBytes: maximumBytes)
        }
        // The size can change after fstat: the cap holds for what is read, not what was stated.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= maximumBytes {
            let wanted = min(chunk.count, maximumBytes + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, wanted) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
        throw .tooLarge(bytes: nil, maximumBytes: maximumBytes)
    }

    private static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
