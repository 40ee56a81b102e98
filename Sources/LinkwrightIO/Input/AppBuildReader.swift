import Foundation
import LinkwrightCore

/// Reads a built app named on the command line, by its kind: the bytes are parsed by the core,
/// a range at a time; nothing is extracted or written.
public enum AppBuildReader {
    /// Why a build cannot be read, in words for `error:`.
    public struct Failure: Error, Equatable {
        public var message: String
        public var hint: String
    }

    /// The build at `path`, which messages call `name` (the path as the user gave it): an Android
    /// `.apk` or `.aab`, an iOS `.ipa`, `.app` folder or `.xcarchive`.
    public static func read(_ path: String, name: String) throws(Failure) -> AppBuildFacts {
        let last = name.lowercased().split(separator: "/").last { !$0.isEmpty } ?? ""
        let kind = last.contains(".") ? String(last.split(separator: ".").last ?? "") : ""
        let misleading = "the build is damaged or was made to mislead its readers; rebuild it with the platform's tools"
        do {
            switch kind {
            case "apk":
                return .android(try AndroidBuild.apk(try file(path, name: name), inflater: ZlibInflater()))
            case "aab":
                return .android(try AndroidBuild.aab(try file(path, name: name), inflater: ZlibInflater()))
            case "ipa":
                let files = try ZipBundleFiles(try file(path, name: name), inflater: ZlibInflater())
                return .ios(try IOSBuild.read(app: try IOSBuild.onlyApp(in: "Payload", of: files), in: files))
            case "app":
                let folder = URL(fileURLWithPath: path)
                let files = FolderBundleFiles(root: folder.deletingLastPathComponent())
                return .ios(try IOSBuild.read(app: folder.lastPathComponent, in: files))
            case "xcarchive":
                let files = FolderBundleFiles(root: URL(fileURLWithPath: path))
                return .ios(
                    try IOSBuild.read(app: try IOSBuild.onlyApp(in: "Products/Applications", of: files), in: files))
            default:
                throw Failure(
                    message: "\(name) is not a build linkwright reads",
                    hint: "name an Android .apk or .aab, or an iOS .ipa, .app folder or .xcarchive")
            }
        } catch let failure as Failure {
            throw failure
        } catch let defect as BuildDefect {
            throw Failure(message: "\(name): \(defect)", hint: misleading)
        } catch {
            throw Failure(message: "\(name): \(error)", hint: misleading)
        }
    }

    private static func file(_ path: String, name: String) throws(Failure) -> BuildFile {
        do {
            return try BuildFile(path)
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
    }
}

/// An .app folder or .xcarchive on disk as bundle files: every file read through `InputFile`
/// (regular files only, capped), folders listed without following anything outside `root`.
struct FolderBundleFiles: BundleFiles {
    let root: URL

    func children(of folder: String) throws(BuildDefect) -> [String] {
        let url = root.appendingPathComponent(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return [] }
        return names.sorted()
    }

    func read(_ path: String, maximumSize: Int) throws(BuildDefect) -> [UInt8]? {
        do {
            return try InputFile.read(root.appendingPathComponent(path).path, maximumBytes: maximumSize)
        } catch {
            switch error {
            case .missing: return nil
            case .notRegularFile(let what): throw BuildDefect("is \(what), not a regular file", in: path)
            case .unreadable(let reason): throw BuildDefect(reason, in: path)
            case .tooLarge(_, let maximum):
                throw BuildDefect("is larger than the \(maximum) bytes linkwright reads", in: path)
            }
        }
    }
}
