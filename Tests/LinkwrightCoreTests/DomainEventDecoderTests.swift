import Foundation
import Testing

@testable import LinkwrightCore

/// The domain read straight from libyaml's events (`DomainEventDecoder`) against the node tree's
/// reading (`ConfigDecoder`), the reference: seeded random domain files, valid and broken, must
/// load into the same domains with the same diagnostics either way, and every file the events
/// take must be one the node tree reads without a diagnostic into the same domain.
@Suite struct DomainEventDecoderTests {
    static let environment = SourceFile(
        path: "environments/production.yaml",
        bytes: Array(
            """
            tier: production
            team_id: A1B2C3D4E5
            apps:
              app0: {ios: {bundle_id: com.example.zero}}
              app1:
                android:
                  package: com.example.one
                  fingerprints: {play: "\(Array(repeating: "AB", count: 32).joined(separator: ":"))"}
            hosts:
              d.example: d
              e.example: e

            """.utf8))

    /// A random domain file in one of YAML's many spellings: block and flow collections,
    /// plain, single- and double-quoted and block scalars, keys quoted or not, comments.
    struct DomainText {
        var random: SplitMix64

        mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        mutating func count(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next() % UInt64(range.count))
        }

        /// A string value: plain only where it reads as a string; a block scalar only in block context.
        mutating func scalar(_ text: String, indent: String, block: Bool = false) -> String {
            let plainSafe =
                YAMLScalar.resolvePlain(text) == .string && !text.contains(": ") && !text.contains(" #")
                && text.first.map { !"*&!|>'\"%@`[]{},?#-".contains($0) } ?? false
            switch random.next() % 4 {
            case 0 where plainSafe, 1 where plainSafe: return text
            case 2 where !text.contains("'"): return "'" + text + "'"
            case 3 where block && !text.hasSuffix(" ") && chance(30):
                return "|-\n\(indent)  \(text)"
            default:
                return "\""
                    + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }
        }

        mutating func key(_ name: String) -> String { chance(10) ? "\"\(name)\"" : name }

        mutating func list(_ items: [String], indent: String, flow: Bool = false) -> String {
            if flow || items.isEmpty || chance(50) { return "[" + items.joined(separator: ", ") + "]" }
            return items.map { "\n\(indent)  - \($0)" }.joined()
        }

        mutating func flags(indent: String) -> String {
            let written = ComponentFlag.allCases.filter { _ in chance(50) }
            if written.isEmpty { return "{}" }
            if chance(50) {
                return "{" + written.map { "\($0.configurationKey): \(chance(50))" }.joined(separator: ", ") + "}"
            }
            return written.map { "\n\(indent)  \(key($0.configurationKey)): \(chance(50))" }.joined()
        }

        static let patterns = [
            "/a/*", "/b/?*", "/$(section)/c", "*", "/café/é", "/d?", "/x y", "/e/#f", "/tickets/annual", "/Z%2F",
            "/a: b", "/q #r", "-dash", "true", "12", "null", "~", "0x1F", "1.5e3", "yes",
        ]
        static let urls = ["/a/x", "/b/1?ref=2", "https://d.example/c", "/café", "/y#z", "/$(section)/c"]

        mutating func rule(indent: String) -> String {
            let flow = chance(25)
            var fields: [String] = []
            let written = ["path", "query", "fragment"].filter { _ in chance(45) }
            for field in written.isEmpty ? ["path"] : written {
                if field == "query", chance(50) {
                    let names = ["ref", "source", "id"].filter { _ in chance(60) }
                    let items = (names.isEmpty ? ["ref"] : names).map {
                        "\($0): \(scalar(pick(Self.patterns), indent: indent + "    "))"
                    }
                    fields.append("query: {" + items.joined(separator: ", ") + "}")
                } else {
                    fields.append("\(key(field)): \(scalar(pick(Self.patterns), indent: indent + "  ", block: !flow))")
                }
            }
            if chance(20) { fields.append("exclude: \(chance(50))") }
            if chance(15) {
                fields.append("comment: \(scalar("why: \(random.next() % 9)", indent: indent + "  ", block: !flow))")
            }
            if chance(15) { fields.append("environments: \(list(["production"], indent: indent + "  ", flow: flow))") }
            for flag in ComponentFlag.allCases where chance(10) { fields.append("\(flag.configurationKey): true") }
            if chance(25) {
                switch random.next() % 3 {
                case 0: fields.append("route: home")
                case 1:
                    fields += ["route: none", "reason: \(scalar("signed out", indent: indent + "  ", block: !flow))"]
                default:
                    fields += [
                        "route: exhibition",
                        "params: {slug: segment 2, \"source?\": query source, id: \"segment 3 as int\"}",
                    ]
                }
            }
            fields.shuffle(using: &random)
            if flow { return "{" + fields.joined(separator: ", ") + "}" }
            return fields.joined(separator: "\n" + indent + "  ")
        }

        mutating func expectation(indent: String) -> String {
            let flow = chance(25)
            var fields = ["\(key("url")): \(scalar(pick(Self.urls), indent: indent + "  ", block: !flow))"]
            switch random.next() % 4 {
            case 0: fields.append("opens_web: true")
            case 1: fields.append("opens_app: \(pick(["true", "True"]))")
            case 2: fields.append("opens_app: \(scalar(pick(["app0", "app1"]), indent: indent + "  "))")
            default: fields.append("opens_app: \"true\"")
            }
            if chance(40) {
                // One platform mostly, in any style (a block scalar in a block list only); now
                // and then two, the same one or not.
                if !flow, chance(10) {
                    fields.append("platforms:\n\(indent)    - |-\n\(indent)      \(pick(["ios", "android"]))")
                } else {
                    let names = ["ios", "android", "ios", "android", "'ios'", "\"android\""]
                    let platforms = (0..<(chance(80) ? 1 : 2)).map { _ in pick(names) }
                    fields.append("platforms: \(list(platforms, indent: indent + "  ", flow: flow))")
                }
            }
            if chance(15) { fields.append("environments: [production]") }
            if chance(15) { fields.append("comment: \(scalar("a # b", indent: indent + "  ", block: !flow))") }
            if chance(20), !fields.contains("opens_web: true") {
                fields.append(
                    "route: \(scalar(pick(["home", "exhibition(slug: monet)", "none"]), indent: indent + "  "))")
            }
            fields.shuffle(using: &random)
            if flow { return "{" + fields.joined(separator: ", ") + "}" }
            return fields.joined(separator: "\n" + indent + "  ")
        }

        mutating func domain() -> String {
            var sections: [String] = []
            if chance(30) { sections.append("defaults: \(flags(indent: ""))") }
            if chance(50) {
                sections.append("variables:\n  section: \(list(["shop", "news", "\"b c\""], indent: "  "))")
            }
            var entries: [String] = []
            for _ in 0..<count(1...2) {
                var entry = ["apps: \(list([pick(["app0", "app1"])], indent: "    "))"]
                if chance(20) { entry.append("defaults: \(flags(indent: "    "))") }
                if chance(10) { entry.append("android_semantics: \(chance(50))") }
                if chance(10) { entry.append("environments: [production]") }
                entry.append(
                    "rules:" + (0..<count(1...5)).map { _ in "\n      - " + rule(indent: "      ") }.joined())
                entry.shuffle(using: &random)
                entries.append("  - " + entry.joined(separator: "\n    "))
            }
            sections.append("applinks:\n" + entries.joined(separator: "\n"))
            if chance(20) { sections.append("webcredentials: \(list(["app0"], indent: ""))") }
            if chance(15) { sections.append("emit: {legacy_paths: true, size_budget: 4096}") }
            if chance(70) {
                sections.append(
                    "expectations:"
                        + (0..<count(1...6)).map { _ in "\n  - " + expectation(indent: "  ") }.joined())
            }
            sections.shuffle(using: &random)
            if chance(20) { sections.insert("# a comment", at: 0) }
            if chance(10) { sections.insert("---", at: 0) }
            return sections.joined(separator: "\n") + (chance(90) ? "\n" : "")
        }
    }

    /// What breaks or bends a valid file: every kind of error the node tree reports, and the
    /// YAML the events decline though it is valid (anchors, tags, keys they do not read).
    static let mutationCount = 36

    /// Applies mutation `kind` to `bytes` and names it.
    static func mutate(_ kind: Int, _ bytes: inout [UInt8], _ random: inout SplitMix64) -> String {
        switch kind {
        case 0: replaceValue(of: "path", with: ["12", "true", "[a]", "{a: b}", "", "~"], &bytes, &random)
        case 1: replaceValue(of: "url", with: ["1.5", "[/a]", "null", "!!str 12"], &bytes, &random)
        case 2: replaceValue(of: "opens_app", with: ["false", "12", "yes", "[app0]"], &bytes, &random)
        case 3: replaceValue(of: "opens_app", with: ["true\n    opens_web: true"], &bytes, &random)
        case 4: replaceValue(of: "opens_web", with: ["false", "\"true\"", "yes"], &bytes, &random)
        case 5: replaceValue(of: "apps", with: ["[]", "app0", "{a: b}", "[1]"], &bytes, &random)
        case 6: replaceValue(of: "platforms", with: ["[windows]", "ios", "[]", "[IOS]"], &bytes, &random)
        case 7: replaceValue(of: "query", with: ["{}", "[a]", "{a: 1}", "\"?*\""], &bytes, &random)
        case 8: replaceValue(of: "applinks", with: ["{}", "[1]", "[[1]]", "~"], &bytes, &random)
        case 9: replaceValue(of: "exclude", with: ["yes", "\"true\"", "on", "1"], &bytes, &random)
        case 10: duplicateLine(containing: ["path:", "url:", "exclude:", "section:"], &bytes, &random)
        case 11: insertAfter(key: "path", line: ["pahth: /x", "zzz: 1", "route: none", "params: {}"], &bytes, &random)
        case 12: insertAfter(key: "url", line: ["opens_ap: app0", "route: home", "rout: x"], &bytes, &random)
        case 13:
            bytes += Array(
                "\nemit: {\(["legacy_paths: 1", "size_budget: 0", "size_budget: \"9\"", "zz: 1"][Int(random.next() % 4)])}\n"
                    .utf8)
        case 14: bytes += Array("\nasset_statements: [{relation: [x], site: https://a.example}]\n".utf8)
        case 15: replaceValue(of: "path", with: ["&a /x", "&b [x]"], &bytes, &random)
        case 16: bytes = Array("anchor: &a [x]\n".utf8) + bytes + Array("\nalias: *a\n".utf8)
        case 17: replaceValue(of: "path", with: ["!!str 12", "!custom /x", "!!null ''"], &bytes, &random)
        case 18: replaceValue(of: "rules", with: ["!!seq []"], &bytes, &random)
        case 19: bytes += Array("\n---\napplinks: []\n".utf8)
        case 20: bytes += Array("\n...\n".utf8)
        case 21: insertByte(0x09, &bytes, &random)
        case 22: insertByte(0xFF, &bytes, &random)
        case 23: insertByte(0xC3, &bytes, &random)
        case 24:
            bytes += Array("\nzz: \"".utf8)
            bytes += Array(repeating: UInt8(ascii: "a"), count: 1 << 20)
            bytes.append(UInt8(ascii: "\""))
        case 25: replaceValue(of: "comment", with: [String(repeating: "long ", count: 20_000)], &bytes, &random)
        case 26:
            let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
            replaceValue(of: "path", with: [nested], &bytes, &random)
        case 27:
            let roots = ["- a\n", "just text\n", "", "~\n", "{}\n"]
            bytes = Array(roots[Int(random.next() % UInt64(roots.count))].utf8)
        case 28: bytes += Array("\n? [a]\n: b\n".utf8)
        case 29: if !bytes.isEmpty { bytes.remove(at: Int(random.next() % UInt64(bytes.count))) }
        case 30:
            replaceValue(of: "route", with: ["Bad-name", "12", "none", "exhibition(slug", "[home]"], &bytes, &random)
        case 31: insertAfter(key: "path", line: ["params: {a: segment 1}", "reason: why"], &bytes, &random)
        case 32:
            replaceValue(
                of: "params",
                with: [
                    "{a: segment 0}", "{a: query}", "{a: x, b: segment 1}", "{a: segment 1, a?: segment 2}", "~",
                    "{Bad: segment 1}",
                ], &bytes, &random)
        case 33: replaceValue(of: "reason", with: ["", "~", "12"], &bytes, &random)
        case 34: insertAfter(key: "url", line: ["route: home", "route: none", "route: \"x(\""], &bytes, &random)
        default: duplicateLine(containing: [""], &bytes, &random)
        }
        return [
            "wrong path", "wrong url", "wrong opens_app", "both outcomes", "wrong opens_web", "wrong apps",
            "wrong platforms", "wrong query", "wrong applinks", "YAML 1.1 boolean", "duplicate key", "unknown rule key",
            "unknown expectation key", "emit", "asset statements", "anchor", "alias", "tag", "tagged list",
            "second document", "document end", "tab", "byte 0xFF", "cut UTF-8", "huge scalar", "big scalar",
            "nesting", "other root", "complex key", "byte deleted", "wrong route", "params or reason without route",
            "wrong params", "wrong reason", "expectation route", "line duplicated",
        ][kind]
    }

    /// The value after the first `key:` on a random line that has one replaced by one of `values`.
    static func replaceValue(of key: String, with values: [String], _ bytes: inout [UInt8], _ random: inout SplitMix64)
    {
        var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
        let candidates = lines.indices.filter { lines[$0].contains(key + ":") }
        guard !candidates.isEmpty else { return }
        let line = candidates[Int(random.next() % UInt64(candidates.count))]
        let range = lines[line].range(of: key + ":")!
        let rest = lines[line][range.upperBound...]
        // In a flow mapping the value ends at the next comma or brace.
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        let value = values[Int(random.next() % UInt64(values.count))]
        lines[line].replaceSubrange(range.upperBound..<end, with: " " + value)
        bytes = Array(lines.joined(separator: "\n").utf8)
    }

    static func duplicateLine(containing keys: [String], _ bytes: inout [UInt8], _ random: inout SplitMix64) {
        var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
        let candidates = lines.indices.filter { line in keys.contains { lines[line].contains($0) } }
        guard !candidates.isEmpty else { return }
        let line = candidates[Int(random.next() % UInt64(candidates.count))]
        lines.insert(lines[line], at: line)
        bytes = Array(lines.joined(separator: "\n").utf8)
    }

    /// A line at the indentation of a random `key:` line, after it.
    static func insertAfter(key: String, line new: [String], _ bytes: inout [UInt8], _ random: inout SplitMix64) {
        var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
        let candidates = lines.indices.filter {
            lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix(key + ":")
                || lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("- " + key + ":")
        }
        guard !candidates.isEmpty else { return }
        let line = candidates[Int(random.next() % UInt64(candidates.count))]
        let column = lines[line].range(of: key + ":")!.lowerBound
        let indent = String(repeating: " ", count: lines[line].distance(from: lines[line].startIndex, to: column))
        lines.insert(indent + new[Int(random.next() % UInt64(new.count))], at: line + 1)
        bytes = Array(lines.joined(separator: "\n").utf8)
    }

    static func insertByte(_ byte: UInt8, _ bytes: inout [UInt8], _ random: inout SplitMix64) {
        bytes.insert(byte, at: Int(random.next() % UInt64(bytes.count + 1)))
    }

    /// The domains and the diagnostics of loading `domain` beside the environment.
    static func load(_ domain: [UInt8], fromEvents: Bool, parser: YAMLParser) -> ([Domain]?, [Diagnostic]) {
        var loader = ConfigLoader()
        loader.parser = parser
        loader.readsDomainsFromEvents = fromEvents
        let files = [environment, SourceFile(path: "domains/d.yaml", bytes: domain)]
        let (configuration, diagnostics) = loader.load(files)
        return (configuration?.domains, diagnostics)
    }

    /// The node tree's reading of one file alone: the domain and every diagnostic of parsing and decoding.
    static func reference(_ bytes: [UInt8], parser: YAMLParser) -> (Domain?, [Diagnostic]) {
        let (root, syntax) = parser.parse(bytes, file: "domains/d.yaml")
        guard let root, !syntax.contains(where: { $0.severity == .error }) else { return (nil, syntax) }
        var decoder = ConfigDecoder()
        let domain = decoder.domain(name: "d", file: "domains/d.yaml", root: root)
        return (domain, syntax + decoder.diagnostics.items)
    }

    @Test(arguments: 0..<3)
    func seededDomainsReadAlikeFromEventsAndFromTheNodeTree(seed: UInt64) {
        var random = SplitMix64(seed: 0x51D0 &+ seed)
        var taken = 0
        var cases = 0
        for round in 0..<150 {
            var text = DomainText(random: SplitMix64(seed: random.next()))
            var bytes = Array(text.domain().utf8)
            let valid = bytes
            // A third stay valid; the others get one or two mutations.
            var applied: [String] = []
            for _ in 0..<(round % 3 == 0 ? 0 : 1 + Int(random.next() % 2)) {
                applied.append(Self.mutate(Int(random.next() % UInt64(Self.mutationCount)), &bytes, &random))
            }
            // The limits the loader is given, tight now and then, stay enforced on both paths.
            let parser =
                round % 10 == 9
                ? YAMLParser(
                    maximumBytes: 1 + Int(random.next() % UInt64(bytes.count + 1)), maximumDepth: 3 + round % 4)
                : YAMLParser()
            let shown = "\(applied) in\n" + String(decoding: bytes, as: UTF8.self).prefix(3_000)
            cases += 1
            let events = Self.load(bytes, fromEvents: true, parser: parser)
            let tree = Self.load(bytes, fromEvents: false, parser: parser)
            #expect(events.0 == tree.0, "\(shown)")
            // Diagnostics are printed sorted by place, ID and message; two that differ only in
            // their hints come in either order (`DiagnosticBag.sorted`), so they compare as written.
            #expect(
                events.1.map(String.init(describing:)).sorted() == tree.1.map(String.init(describing:)).sorted(),
                "\(shown)")
            // What the events take, the node tree reads without a word into the same domain.
            if let domain = DomainEventDecoder.domain(name: "d", file: "domains/d.yaml", bytes: bytes, parser: parser) {
                taken += 1
                let (reference, diagnostics) = Self.reference(bytes, parser: parser)
                #expect(diagnostics.isEmpty, "\(shown)")
                #expect(reference == domain, "\(shown)")
            }
            if applied.isEmpty, parser.maximumBytes == YAMLParser().maximumBytes {
                #expect(
                    DomainEventDecoder.domain(name: "d", file: "domains/d.yaml", bytes: valid, parser: parser) != nil,
                    "a valid file the events should take:\n\(String(decoding: valid, as: UTF8.self))")
            }
        }
        // Both paths were exercised.
        #expect(taken >= cases / 4 && taken < cases, "\(taken) of \(cases) taken from events")
    }

    /// Every key the events read is a key the schema declares: the schema stays the one list.
    @Test func theKeysReadFromEventsAreTheSchemas() {
        func check<Key>(_ keys: SchemaKeys<Key>, _ object: SchemaObject) {
            let read = keys.entries.compactMap { entry -> String? in
                if case .key(let key) = entry { return key.rawValue }
                return nil
            }
            #expect(Set(read) == Set(Key.allCases.map(\.rawValue)), "\(object.noun)")
            #expect(keys.names.map { String(decoding: $0, as: UTF8.self) } == object.fields.map(\.name))
        }
        check(DomainEventDecoder.domainKeys, ConfigSchema.domain)
        check(DomainEventDecoder.applinksEntryKeys, ConfigSchema.applinksEntry)
        check(DomainEventDecoder.ruleKeys, ConfigSchema.rule)
        check(DomainEventDecoder.expectationKeys, ConfigSchema.expectation)
        check(DomainEventDecoder.emitKeys, ConfigSchema.emit)
        #expect(
            DomainEventDecoder.flagKeys.entries.allSatisfy {
                if case .flag = $0 { return true }
                return false
            })
    }

    /// The repository's own example configuration loads alike either way.
    @Test func theExampleConfigurationLoadsAlike() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files: [SourceFile] = []
        for folder in ["environments", "domains", "policies"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            for name in names.sorted() where name.hasSuffix(".yaml") {
                let bytes = try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(name))
                files.append(SourceFile(path: folder + "/" + name, bytes: Array(bytes)))
            }
        }
        var loader = ConfigLoader()
        let events = loader.load(files)
        loader.readsDomainsFromEvents = false
        let tree = loader.load(files)
        #expect(events.configuration?.domains == tree.configuration?.domains)
        #expect(events.configuration?.domains.isEmpty == false)
        #expect(events.diagnostics == tree.diagnostics)
        // Routes, emit and the services' lists included, the example's domains are read from events.
        for file in files where file.path.hasPrefix("domains/") {
            let name = String(file.path.dropFirst("domains/".count).prefix { $0 != "." })
            #expect(
                DomainEventDecoder.domain(name: name, file: file.path, bytes: file.bytes, parser: YAMLParser()) != nil,
                "\(file.path)")
        }
    }

    /// A mapping of user-chosen keys finds a repeated one with a set: a hostile file of 60,000
    /// variables is read at once (a scan per key took quadratic time), and a last key that is
    /// the first one spelt in another Unicode form still declines the file.
    @Test func sixtyThousandVariablesAreReadWithoutAScanPerKey() throws {
        let names = (0..<60_000).map { "v\($0)" }
        func domain(_ keys: [String]) -> [UInt8] {
            Array(
                ("variables:\n" + keys.map { "  \($0): [a]\n" }.joined()
                    + "applinks:\n  - apps: [app0]\n    rules:\n      - path: /a\n").utf8)
        }
        let read = DomainEventDecoder.domain(
            name: "d", file: "domains/d.yaml", bytes: domain(["caf\u{E9}"] + names), parser: YAMLParser())
        #expect(read?.variables.count == 60_001)
        let repeated = DomainEventDecoder.domain(
            name: "d", file: "domains/d.yaml", bytes: domain(["caf\u{E9}"] + names + ["cafe\u{301}"]),
            parser: YAMLParser())
        #expect(repeated == nil)
    }
}
