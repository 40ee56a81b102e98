import Foundation

/// Writes a set of files all or nothing: each is first written to a temporary file next to its
/// destination, and only when every one is written are they renamed into place. A failure
/// leaves no partial file and no half-updated set.
public enum AtomicFiles {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    public static func write(_ files: [(url: URL, bytes: [UInt8])]) throws {
        var staged: [(temporary: URL, destination: URL)] = []
        func discard() { for file in staged { try? FileManager.default.removeItem(at: file.temporary) } }
        for file in files {
            let folder = file.url.deletingLastPathComponent()
            let temporary = folder.appendingPathComponent(".\(file.url.lastPathComponent).linkwright-tmp")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(file.bytes).write(to: temporary)
            } catch {
                discard()
                throw WriteError(path: file.url.path, reason: reason(error))
            }
            staged.append((temporary, file.url))
        }
        for file in staged {
            guard rename(file.temporary.path, file.destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw WriteError(path: file.destination.path, reason: reason)
            }
        }
    }

    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            let posix = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(posix.rawValue))
        }
        return nsError.localizedDescription
    }
}
