/// Link behaviour and declarations, release by release.
public struct Changelog: Sendable {
    public struct Release: Sendable {
        public var from: String
        public var to: String
        public var changes: [LinkChange]
        /// Why a release could not be compared, or what to know about it.
        public var notes: [String]
        /// Whether `to` could be read and compared with something.
        public var compared: Bool

        public init(from: String, to: String, changes: [LinkChange], notes: [String] = [], compared: Bool = true) {
            self.from = from
            self.to = to
            self.changes = changes
            self.notes = notes
            self.compared = compared
        }
    }

    /// In chronological order.
    public var releases: [Release]

    public init(releases: [Release]) { self.releases = releases }

    /// The documented JSON shape: `[{"from", "to", "changes": [...], "notes": [...]}]`, oldest first.
    public var json: JSON {
        .array(
            releases.map { release in
                .object([
                    ("from", .string(release.from)), ("to", .string(release.to)),
                    ("changes", .array(release.changes.map(\.json))),
                    ("notes", .array(release.notes.map(JSON.string))), ("compared", .bool(release.compared)),
                ])
            })
    }

    /// Release notes, newest release first.
    public var markdown: String {
        var text = "# Link changes\n"
        for release in releases.reversed() {
            text += "\n## \(MarkdownText.cell(release.to))\n\nSince \(MarkdownText.cell(release.from)).\n"
            for note in release.notes { text += "\n> \(MarkdownText.cell(note))\n" }
            if release.changes.isEmpty {
                if release.compared { text += "\nNo change in which URLs open which app.\n" }
                continue
            }
            for (environment, changes) in Self.byEnvironment(release.changes) {
                text += "\n" + Self.table(environment, changes, heading: "###")
            }
        }
        return text
    }

    /// A single self-contained page: one table per release, newest first.
    public var html: String {
        var body = ""
        for release in releases.reversed() {
            body +=
                "<section>\n<h2>\(XMLText.printable(release.to))</h2>\n<p class=\"since\">since \(XMLText.printable(release.from))</p>\n"
            for note in release.notes { body += "<p class=\"note\">\(XMLText.printable(note))</p>\n" }
            if release.changes.isEmpty {
                if release.compared { body += "<p class=\"none\">No change in which URLs open which app.</p>\n" }
                body += "</section>\n"
                continue
            }
            body +=
                "<table>\n<thead><tr><th>Environment</th><th>Host</th><th>Platform</th><th>Change</th><th>Examples</th></tr></thead>\n<tbody>\n"
            for change in release.changes {
                let kind = change.kind.isBehaviour ? "behaviour" : "structure"
                let examples = change.witnesses.prefix(3).map { "<code>\(XMLText.printable($0))</code>" }.joined(
                    separator: "<br>")
                body +=
                    "<tr class=\"\(kind)\"><td>\(XMLText.printable(change.environment))</td>"
                    + "<td>\(XMLText.printable(change.host ?? ""))</td><td>\(XMLText.printable(change.platform?.rawValue ?? ""))</td>"
                    + "<td>\(XMLText.printable(Self.description(change)))</td><td>\(examples)</td></tr>\n"
            }
            body += "</tbody>\n</table>\n</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Link changes</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #1d1d1f; }
            h2 { margin-top: 2.5rem; border-bottom: 1px solid #d2d2d7; }
            .since, .none { color: #6e6e73; }
            .note { background: #fff4e5; padding: .5rem; }
            table { border-collapse: collapse; width: 100%; font-size: .9rem; }
            th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
            tr.behaviour td:nth-child(4) { font-weight: 600; }
            code { font-size: .85rem; }
            </style>
            </head>
            <body>
            <h1>Link changes</h1>
            \(body)</body>
            </html>

            """
    }

    /// The change without its environment and host, which the tables show in their own columns.
    public static func description(_ change: LinkChange) -> String {
        let summary = change.summary
        guard let colon = summary.range(of: ": ") else { return summary }
        return String(summary[colon.upperBound...])
    }

    static func byEnvironment(_ changes: [LinkChange]) -> [(String, [LinkChange])] {
        var order: [String] = []
        var groups: [String: [LinkChange]] = [:]
        for change in changes {
            if groups[change.environment] == nil { order.append(change.environment) }
            groups[change.environment, default: []].append(change)
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// One environment's changes as a Markdown table under its heading.
    static func table(_ environment: String, _ changes: [LinkChange], heading: String) -> String {
        var text =
            "\(heading) \(MarkdownText.cell(environment))\n\n| Host | Platform | Change | Example |\n|---|---|---|---|\n"
        for change in changes {
            let example = change.witnesses.first.map(MarkdownText.code) ?? ""
            text +=
                "| \(MarkdownText.cell(change.host ?? "")) | \(MarkdownText.cell(change.platform?.rawValue ?? "")) "
                + "| \(MarkdownText.cell(description(change))) | \(example) |\n"
        }
        return text
    }
}
