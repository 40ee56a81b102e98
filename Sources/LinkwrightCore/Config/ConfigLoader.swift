import Foundation

/// Loads configuration files into a `Configuration`: parse each file, decode it against the
/// schema, then check references between files. Reports every problem of every file at once.
public struct ConfigLoader: Sendable {
    public var parser = YAMLParser()
    /// Whether a domain file that needs no diagnostic is read straight from libyaml's events
    /// (`DomainEventDecoder`); off, every file is read through the node tree, the reference the
    /// differential tests compare the events' reading with.
    public var readsDomainsFromEvents = true

    public init() {}

    static func isConfigurationFileName(_ name: String) -> Bool {
        (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix(".")
    }

    /// Why an entry that is not read looks meant to be, or nil: a name that ends in `.yaml` or
    /// `.yml` once spaces and invisible characters are trimmed and case ignored (`merge.YAML`,
    /// `merge.yaml `), or a folder (only files directly inside a configuration folder are read,
    /// so `policies/sub/merge.yaml` would vanish). Hidden names are left alone: editors and
    /// tools keep their own files there.
    static func nearMiss(_ name: String, kind: SourceEntry.Kind) -> String? {
        guard !name.hasPrefix(".") else { return nil }
        if kind == .folder {
            return "is a folder; only files directly inside the configuration folders are read"
        }
        var scalars = Substring(name).unicodeScalars
        while let last = scalars.last,
            last.properties.isWhitespace || last.properties.generalCategory == .format
                || last.properties.generalCategory == .control
        {
            scalars.removeLast()
        }
        let trimmed = String(scalars).lowercased()
        guard trimmed.hasSuffix(".yaml") || trimmed.hasSuffix(".yml") else { return nil }
        return "has a name that is not exactly `<name>.yaml` or `<name>.yml` (lower case, nothing after it)"
    }

    /// What each file gave on its own, by path and bytes, for loads that share it: the
    /// revisions a changelog reads of a fleet's contract change a few files each, and the
    /// others are parsed and decoded once, and their domains' own checks made once
    /// (`CheckedDomains`). For loaders with the same parser settings.
    public final class Readings: Sendable {
        fileprivate let known = LockedValue([FileKey: Once<FileReading>]())
        fileprivate let checked = CheckedDomains()

        public init() {}

        /// Forgets every reading and check kept so far but the readings of `files`, which the
        /// next loads are edits of.
        public func forget(keeping files: [SourceFile]) {
            let kept = Set(files.map(FileKey.init))
            known.withLock { $0 = $0.filter { kept.contains($0.key) } }
            checked.forget()
        }
    }

    /// The configuration, or `nil` when an error makes it unusable; warnings come either way.
    /// Files read before into `readings` are taken from there.
    public func load(_ files: [SourceFile], reusing readings: Readings? = nil) -> (
        configuration: Configuration?, diagnostics: [Diagnostic]
    ) {
        // Each file is parsed and decoded on its own, on every core at once (parsing and
        // decoding are most of loading a large configuration); what depends on other files
        // comes after, in file order, so the result never depends on which finished first.
        let checked = readings?.checked
        let readings = files.parallelMap { file in
            guard let readings else { return read(file) }
            let key = FileKey(file)
            // Revisions read at once share a file's one reading, the second waiting for it: their
            // values share storage and compare at once (`DomainCompilations`).
            let reading = readings.known.withLock { known in
                if let kept = known[key] { return kept }
                let made = Once<FileReading>()
                known[key] = made
                return made
            }
            return reading.value { read(file) }
        }
        var diagnostics = DiagnosticBag()
        var environments: [Environment] = []
        var domains: [Domain] = []
        var policies: [PolicyFile] = []
        var seenNames: [String: String] = [:]
        // "environments/x" or "domains/x" for files that exist but did not load.
        var unloadable: Set<String> = []
        for (file, reading) in zip(files, readings) {
            diagnostics.add(contentsOf: reading.diagnostics)
            switch reading.outcome {
            case .unloadable(let key):
                unloadable.insert(key)
            case .skipped:
                break
            case .policy(let policy):
                if let policy { policies.append(policy) }
            case .named(let key, let what, let decoded, let decodingDiagnostics):
                if let first = seenNames[key] {
                    let name = String(key.drop { $0 != "/" }.dropFirst())
                    diagnostics.report(
                        .duplicateName, "\(what) \(PrintableText.quoted(name)) is defined twice (also in \(first))",
                        at: .file(file.path),
                        hint: "keep one file per \(what)")
                    continue
                }
                seenNames[key] = file.path
                diagnostics.add(contentsOf: decodingDiagnostics)
                switch decoded {
                case .environment(let environment): environments.append(environment)
                case .domain(let domain): domains.append(domain)
                case .failed: unloadable.insert(key)
                }
            }
        }
        if files.allSatisfy({ !$0.path.hasPrefix("environments/") }) {
            diagnostics.report(
                .noEnvironments, "no environment files found in environments/", at: nil,
                hint: "run linkwright in the folder that holds environments/ and domains/, or pass --config DIR")
        }
        SchemeRouteSharing.resolve(&environments, into: &diagnostics)
        let configuration = Configuration(environments: environments, domains: domains, policies: policies)
        var validator = ConfigValidator(configuration, unloadable: unloadable, reusing: checked)
        diagnostics.add(contentsOf: validator.validate())
        return (diagnostics.hasErrors ? nil : configuration, diagnostics.sorted)
    }

    /// A file as the key of its reading, by path, refusal and bytes: hashed once, eight bytes
    /// at a time, and compared in place. `Hasher` took a domain file's bytes at about four
    /// instructions each and `[UInt8]`'s `==` one at a time, and every revision of a changelog
    /// looks up each of its files.
    fileprivate struct FileKey: Hashable, Sendable {
        let file: SourceFile
        private let hash: Int

        init(_ file: SourceFile) {
            self.file = file
            var hasher = Hasher()
            hasher.combine(file.path)
            hasher.combine(file.refusal)
            hasher.combine(file.bytes.count)
            hasher.combine(file.bytes.withUnsafeBytes(Self.digest))
            hash = hasher.finalize()
        }

        /// Mixes `bytes` a word at a time, then the bytes after the last whole word. Not a
        /// secure hash: equal hashes are only a hint, `==` compares the bytes.
        private static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var digest: UInt64 = 0
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let mixed = (digest ^ word) &* 0x9E37_79B9_7F4A_7C15
                digest = mixed << 31 | mixed >> 33
                offset += 8
            }
            for byte in bytes[offset...] { digest = (digest ^ UInt64(byte)) &* 0x9E37_79B9_7F4A_7C15 }
            return digest
        }

        static func == (left: FileKey, right: FileKey) -> Bool {
            guard left.hash == right.hash, left.file.bytes.count == right.file.bytes.count,
                left.file.refusal == right.file.refusal, ExactText.equal(left.file.path, right.file.path)
            else { return false }
            return left.file.bytes.withUnsafeBytes { left in
                right.file.bytes.withUnsafeBytes { right in
                    left.isEmpty || left.baseAddress == right.baseAddress
                        || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
                }
            }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// What one file gives on its own, before the files are put together.
    fileprivate struct FileReading: Sendable {
        /// Reported whatever the other files hold.
        var diagnostics: [Diagnostic]
        var outcome: Outcome

        enum Outcome: Sendable {
            /// The file does not load; `key` ("environments/x") is what other files cannot refer to.
            case unloadable(key: String)
            /// Its name gives no valid environment or domain name: nothing more is read.
            case skipped
            case policy(PolicyFile?)
            /// An environment or domain file whose name is `key` ("domains/x"). What decoding gave,
            /// and its diagnostics, count only when no earlier file has the same name.
            case named(key: String, what: String, decoded: Decoded, diagnostics: [Diagnostic])
        }

        enum Decoded: Sendable {
            case environment(Environment)
            case domain(Domain)
            case failed
        }
    }

    /// Parses and decodes one file, with everything that does not depend on the others.
    private func read(_ file: SourceFile) -> FileReading {
        var decoder = ConfigDecoder()
        if let refusal = file.refusal {
            switch refusal {
            case .notRegularFile(let what):
                decoder.diagnostics.report(
                    .notARegularFile,
                    "\(file.path) is \(what); configuration is read only from regular files inside the configuration folder",
                    at: .file(file.path),
                    hint: "replace it with a regular file holding the configuration (a link is never followed)")
            case .tooLarge(let limit):
                decoder.diagnostics.add(contentsOf: [YAMLParser.tooLarge(file: file.path, limit: limit)])
            case .tooManyEntries(let count, let limit):
                decoder.diagnostics.report(
                    .tooManyEntries,
                    "\(file.path)/ holds \(count) entries, over the limit of \(limit); none of them was read",
                    at: .file(file.path),
                    hint:
                        "a configuration holds a file per environment and per site contract: remove what was generated by mistake"
                )
            case .misnamed(let why):
                decoder.diagnostics.report(
                    .misnamedFile, "\(file.path) is not read: it \(why)", at: .file(file.path),
                    hint: "rename it to a lower-case `.yaml` name directly inside the folder, or remove it")
            }
            let key = String(file.path.prefix { $0 != "." })
            return FileReading(diagnostics: decoder.diagnostics.items, outcome: .unloadable(key: key))
        }
        let folder = file.path.split(separator: "/").first.map(String.init) ?? ""
        let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
        let name = String(fileName.prefix { $0 != "." })
        let key = folder + "/" + name
        if readsDomainsFromEvents, folder == "domains", Identifiers.nameProblem(name, what: "domain") == nil,
            let domain = DomainEventDecoder.domain(name: name, file: file.path, bytes: file.bytes, parser: parser)
        {
            let decoded = FileReading.Decoded.domain(Self.spelt(domain, as: file.bytes))
            return FileReading(
                diagnostics: [], outcome: .named(key: key, what: "domain", decoded: decoded, diagnostics: []))
        }
        let (root, syntax) = parser.parse(file.bytes, file: file.path)
        if syntax.contains(where: { $0.severity == .error }) {
            return FileReading(diagnostics: syntax, outcome: .unloadable(key: key))
        }
        if folder == "policies" {
            let policy = decoder.policy(file: file.path, root: root)
            return FileReading(diagnostics: syntax + decoder.diagnostics.items, outcome: .policy(policy))
        }
        let what = folder == "environments" ? "environment" : "domain"
        if let problem = Identifiers.nameProblem(name, what: what) {
            decoder.report(
                IdentifierProblem(
                    problem.id, "file name \(PrintableText.quoted(fileName)) does not give a valid \(what) name",
                    hint: "rename the file: " + problem.hint),
                at: .file(file.path))
            return FileReading(diagnostics: syntax + decoder.diagnostics.items, outcome: .skipped)
        }
        let decoded: FileReading.Decoded
        if let root {
            if folder == "environments" {
                let environment = decoder.environment(name: name, file: file.path, root: root)
                decoded = environment.map { .environment($0) } ?? .failed
            } else {
                decoded =
                    decoder.domain(name: name, file: file.path, root: root).map {
                        .domain(Self.spelt($0, as: file.bytes))
                    }
                    ?? .failed
            }
        } else {
            decoder.diagnostics.report(
                .emptyFile, "\(what) file is empty", at: .file(file.path),
                hint: "see `linkwright schema \(what)` for what it holds, or delete the file")
            decoded = .failed
        }
        return FileReading(
            diagnostics: syntax,
            outcome: .named(key: key, what: what, decoded: decoded, diagnostics: decoder.diagnostics.items))
    }

    /// `domain` with the bytes it was read from when they are not all ASCII (`Domain.exactSpelling`).
    private static func spelt(_ domain: Domain, as bytes: [UInt8]) -> Domain {
        var domain = domain
        if bytes.contains(where: { $0 >= 0x80 }) { domain.exactSpelling = bytes }
        return domain
    }

    /// Reads and loads every configuration file of `tree`.
    public func load(from tree: some SourceTree) throws -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        load(try tree.configurationFiles())
    }
}
