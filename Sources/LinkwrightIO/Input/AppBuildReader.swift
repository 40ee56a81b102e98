import LinkwrightCore

/// Reads a built app named on the command line, by its kind: the bytes are parsed by the core,
/// a range at a time; nothing is extracted or written.
public enum AppBuildReader {
    /// Why a build cannot be read, in words for `error:`.
    public struct Failure: Error, Equatable {
        public var message: String
        public var hint: String
    }

    /// The build at `path`, which messages call `name` (the path as the user gave it).
    public static func read(_ path: String, name: String) throws(Failure) -> AppBuildFacts {
        let lowered = name.lowercased()
        guard lowered.hasSuffix(".apk") else {
            throw Failure(
                message: "\(name) is not a build linkwright reads",
                hint: "name an Android .apk")
        }
        let file: BuildFile
        do {
            file = try BuildFile(path)
        } catch {
            switch error {
            case .missing: throw Failure(message: "cannot read \(name): there is no such file", hint: "check the path")
            case .notRegularFile(let what):
                throw Failure(message: "\(name) is \(what), not a regular file", hint: "name the build's file itself")
            case .unreadable(let reason):
                throw Failure(message: "cannot read \(name): \(reason)", hint: "check the path and its permissions")
            case .tooLarge(let bytes, _):
                throw Failure(
                    message: "cannot read \(name): \(bytes ?? 0) bytes is too large", hint: "name the build itself")
            }
        }
        do {
            return .android(try AndroidBuild.apk(file, inflater: ZlibInflater()))
        } catch {
            throw Failure(
                message: "\(name): \(error)",
                hint: "the build is damaged or was made to mislead its readers; rebuild it with the platform's tools")
        }
    }
}
