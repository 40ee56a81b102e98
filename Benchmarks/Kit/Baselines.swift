import CYaml
import Foundation
import LinkwrightIO

/// The floors and the usual approach each measured figure is compared with.
public enum Baselines {
    /// Every event of every YAML file under `folder`, read with libyaml alone: the floor for
    /// reading a configuration. Returns the number of events.
    public static func parseYAML(in folder: URL) throws -> Int {
        var events = 0
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "yaml" else { continue }
            let bytes = Array(try Data(contentsOf: url))
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            defer { parser.deallocate() }
            yaml_parser_initialize(parser)
            defer { yaml_parser_delete(parser) }
            bytes.withUnsafeBufferPointer { buffer in
                yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
                var event = yaml_event_t()
                while yaml_parser_parse(parser, &event) == 1 {
                    events += 1
                    let done = event.type == YAML_STREAM_END_EVENT
                    yaml_event_delete(&event)
                    if done { break }
                }
            }
        }
        return events
    }

    /// What most tools do: each rule's path pattern becomes a regular expression, tried in order
    /// on each URL's path. Returns how many URLs matched a non-exclude rule first.
    public static func regexMatch(aasa: URL, urls input: FileHandle) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: aasa)) as? [String: Any]
        let applinks = object?["applinks"] as? [String: Any]
        let details = (applinks?["details"] as? [[String: Any]])?.first
        let components = details?["components"] as? [[String: Any]] ?? []
        let rules = try components.map { component -> (NSRegularExpression, Bool) in
            let pattern = component["/"] as? String ?? "*"
            var regex = "^"
            for character in pattern {
                switch character {
                case "*": regex += ".*"
                case "?": regex += "."
                default: regex += NSRegularExpression.escapedPattern(for: String(character))
                }
            }
            return (try NSRegularExpression(pattern: regex + "$"), component["exclude"] as? Bool ?? false)
        }
        var matched = 0
        try lines(input) { line in
            guard let url = URLComponents(string: String(decoding: line, as: UTF8.self)) else { return }
            let path = url.percentEncodedPath
            let range = NSRange(path.startIndex..., in: path)
            for (regex, exclude) in rules where regex.firstMatch(in: path, range: range) != nil {
                if !exclude { matched += 1 }
                break
            }
        }
        return matched
    }

    /// Reads the input and counts its lines: the floor for anything that reads URLs one per line.
    public static func scan(_ input: FileHandle) throws -> Int {
        var count = 0
        try lines(input) { _ in count += 1 }
        return count
    }

    /// Calls `body` with each line of `input` as bytes, read in large blocks as `linkwright match`
    /// reads.
    static func lines(_ input: FileHandle, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws {
        LineReader.forEach(in: input.fileDescriptor, body)
    }
}
