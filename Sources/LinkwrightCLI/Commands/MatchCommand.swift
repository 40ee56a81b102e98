import LinkwrightCore
import LinkwrightIO

/// `linkwright match`: evaluate any association file against URLs, as iOS or Android would.
struct MatchCommand: Command {
    static let host = Option<String?>(
        name: "host", valueName: "HOST", help: "The host serving the file: path-only URLs are on it")
    static let format = Option.format([OutputFormat.text, .json])
    static let urls = ArgumentSpec(name: "URL", help: "URLs to evaluate; stdin when none", occurrence: .repeated)

    static let spec = CommandSpec(
        name: "match",
        abstract: "Evaluate an association file against URLs (arguments, or one per line on stdin)",
        discussion: """
            Decides each URL for each app as the platform does: match (opens the app), exclude (an
            exclusion keeps it on the web) or no_match. Without URL arguments, URLs are read from
            standard input one per line and answered as they come, so a million URLs stream through.
            A path-only URL is taken as on --host. --format json prints one object per URL and app:
            {"url", "app", "decision", "detail", "component"} (zero-based indexes of the deciding
            details entry or statement and rule, null for no_match). A URL that cannot be parsed gets
            an error line and the rest continue; the exit code is then 2. So does a line of standard
            input over 1 MiB, which is skipped unread ({"line", "error"} in JSON).
            --android-release decides an assetlinks.json file's dynamic rules as that release's
            parser reads them: latest (default), or 15-initial, the parser Android 15 first
            shipped (docs/semantics.md, "Android releases").
            """,
        options: AssociationFileInput.options + [AssociationFileInput.androidRelease, host, format],
        arguments: [urls], groups: [AssociationFileInput.choice, .usual(urls)])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if try !AssociationFileInput.isRequested(arguments) {
            throw UsageError(message: "name a file: --aasa FILE or --assetlinks FILE --package NAME")
        }
        if arguments[AssociationFileInput.assetLinks] != nil && !arguments[AssociationFileInput.apps].isEmpty {
            throw UsageError(message: "--app goes with --aasa; use --package with --assetlinks")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let input = try AssociationFileInput.load(arguments, terminal: terminal)
        let apps = input.apps(arguments)
        let json = arguments[Self.format] == .json
        let host = try arguments[Self.host].map { try Host.argument($0).name }
        var unusable = false
        // Each app's `"app":"…"` member, escaped once rather than once per URL.
        let appMembers = apps.map { app -> [UInt8] in
            var member = Array(#","app":"#.utf8)
            JSON.writeString(app, to: &member)
            return member
        }
        func decide(_ bytes: UnsafeBufferPointer<UInt8>) {
            // The line as text, made only where it is printed as text.
            let text = { String(decoding: bytes, as: UTF8.self) }
            guard var url = LinkURL(utf8: bytes) else {
                unusable = true
                Self.reportError("not a URL or path", text(), json: json, terminal)
                return
            }
            if url.host == nil, let host { url = url.on(host: host) }
            // A URL may spell its host in Unicode; the file's host is in its ASCII form.
            if let host, let own = url.host, own != host, (try? Host.parse(own).get().name) != host {
                unusable = true
                Self.reportError("is on \(own), but the file is served by \(host)", text(), json: json, terminal)
                return
            }
            for (app, appMember) in zip(apps, appMembers) {
                let decision = input.decision(for: url, app: app)
                if json {
                    terminal.outLine { Self.writeJSONLine(bytes, appMember, decision, to: &$0) }
                } else {
                    terminal.out(Self.text(text(), app, decision, input))
                }
            }
        }
        // Most lines have nothing to trim: those are decided in place, the others once trimmed.
        let answer = { (line: UnsafeBufferPointer<UInt8>) in
            if let first = line.first, let last = line.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
                return decide(line)
            }
            var text = String(decoding: line, as: UTF8.self).trimmingWhitespace
            if !text.isEmpty { text.withUTF8(decide) }
        }
        // Reported like a line that is no URL, without the line itself.
        func reportLongLine(_ number: Int) {
            unusable = true
            let problem = "line \(number) is longer than \(LineReader.defaultMaximumLineBytes) bytes; it was skipped"
            if json {
                terminal.out(JSON.object([("line", .int(number)), ("error", .string(problem))]).renderedCompact())
            } else {
                terminal.err("error: standard input \(problem)")
            }
        }
        if arguments.positionals.isEmpty {
            terminal.beginBuffering()
            LineReader.forEach(answer, tooLong: reportLongLine, waiting: terminal.flush)
        } else {
            for var argument in arguments.positionals { argument.withUTF8(answer) }
        }
        return unusable ? .unusable : .success
    }

    /// `decision<TAB>app<TAB>url[<TAB>place]`; the app and URL escaped, so neither can add a
    /// field or a line.
    static func text(_ url: String, _ app: String, _ decision: LinkDecision, _ input: AssociationFileInput) -> String {
        let place = input.place(of: decision).map { "\t" + $0 } ?? ""
        return "\(decision.outcome.jsonName)\t\(PrintableText.escaped(app))\t\(PrintableText.escaped(url))\(place)"
    }

    /// The JSON object of one answer, written directly into the output: the batch mode's hot
    /// path, where building a `JSON` value or a string per line would cost more than the decision.
    static func writeJSONLine(
        _ url: UnsafeBufferPointer<UInt8>, _ appMember: [UInt8], _ decision: LinkDecision, to out: inout [UInt8]
    ) {
        out.writeLiteral(#"{"url":"#)
        JSON.writeString(utf8: url, to: &out)
        out.append(contentsOf: appMember)
        switch decision.outcome {
        case .match: out.writeLiteral(#","decision":"match","detail":"#)
        case .exclude: out.writeLiteral(#","decision":"exclude","detail":"#)
        case .noMatch: out.writeLiteral(#","decision":"no_match","detail":"#)
        }
        writeIndex(decision.entryIndex, to: &out)
        out.writeLiteral(#","component":"#)
        writeIndex(decision.ruleIndex, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A zero-based index in decimal digits, or `null`.
    private static func writeIndex(_ index: Int?, to out: inout [UInt8]) {
        guard let index, index >= 0 else { return out.writeLiteral("null") }
        var divisor = 1
        while divisor <= index / 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(index / divisor % 10))
            divisor /= 10
        }
    }

    private static func reportError(_ problem: String, _ url: String, json: Bool, _ terminal: Terminal) {
        if json {
            terminal.out(JSON.object([("url", .string(url)), ("error", .string(problem))]).renderedCompact())
        } else {
            terminal.err(PrintableText.escaped("error: \(url): \(problem)"))
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars.removeFirst() }
        while scalars.last?.isWhitespace == true { scalars.removeLast() }
        return String(scalars)
    }
}
