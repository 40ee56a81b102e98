import Foundation

/// Reads a file named on the command line, or found where a command was told to look, without
/// trusting it: a FIFO cannot hold up the open, a device or folder is refused, and no more than
/// the cap plus one byte is ever read, so a huge sparse file costs nothing.
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
        let kind = FolderHandle.Kind(mode: status.st_mode)
        guard kind == .file else { throw .notRegularFile(kind.description) }
        guard Int(status.st_size) <= maximumBytes else {
            throw .tooLarge(bytes: Int(status.st_size), maximumBytes: maximumBytes)
        }
        // The size can change after fstat: the cap holds for what is read, not what was stated.
        guard let bytes = FolderHandle.read(descriptor, limit: maximumBytes, expected: Int(status.st_size)) else {
            throw .unreadable(String(cString: strerror(errno)))
        }
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: nil, maximumBytes: maximumBytes) }
        return bytes
    }
}
