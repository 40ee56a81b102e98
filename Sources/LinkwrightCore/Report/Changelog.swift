/// Link behaviour and declarations, release by release.
public struct Changelog: CommandOutput {
    /// A revision a release starts or ends at: as the user or the tag names it, the commit and
    /// when it was committed.
    public struct Point: Sendable {
        public var name: String
        /// Abbreviated commit ID.
        public var commit: String
        /// `YYYY-MM-DD`, UTC.
        public var date: String

        public init(name: String, commit: String, date: String) {
            self.name = name
            self.commit = commit
            self.date = date
        }

        var json: JSON {
            .object([("name", .string(name)), ("commit", .string(commit)), ("date", .string(date))])
        }
    }

    public struct Release: Sendable {
        public var from: Point
        public var to: Point
        public var changes: [LinkChange]
        /// Why a release could not be compared, or what to know about it.
        public var notes: [String]
        /// Whether `to` could be read and compared with something.
        public var compared: Bool

        public init(from: Point, to: Point, changes: [LinkChange], notes: [String] = [], compared: Bool = true) {
            self.from = from
            self.to = to
            self.changes = changes
            self.notes = notes
            self.compared = compared
        }
    }

    /// In chronological order.
    public var releases: [Release]
    /// Where each release links to the forge's comparison of its two revisions, if anywhere.
    public var compareLinks: CompareLinks?

    public init(releases: [Release], compareLinks: CompareLinks? = nil) {
        self.releases = releases
        self.compareLinks = compareLinks
    }

    /// The forge's page comparing the release with the one before it.
    static func compareURL(_ release: Release, _ compareLinks: CompareLinks?) -> String? {
        compareLinks?.url(from: release.from.name, to: release.to.name)
    }

    public func printed(as format: OutputFormat, style: TextStyle, version: String) -> PrintedReport? {
        switch format {
        case .markdown: PrintedReport(out: markdown)
        case .json: PrintedReport(out: json.rendered())
        case .html: PrintedReport(out: html)
        default: nil
        }
    }

    /// `{"version": 2, "releases": [{"from", "to", "compare", "changes", "notes", "compared"}]}`,
    /// newest release first as in the markdown; `from` and `to` are `{"name", "commit", "date"}`,
    /// `compare` the forge's comparison page or null.
    public var json: JSON {
        .object([
            ("version", .int(2)),
            (
                "releases",
                .array(
                    releases.reversed().map { release in
                        .object([
                            ("from", release.from.json), ("to", release.to.json),
                            ("compare", Self.compareURL(release, compareLinks).map(JSON.string) ?? .null),
                            ("changes", .array(release.changes.map(\.json))),
                            ("notes", .array(release.notes.map(JSON.string))), ("compared", .bool(release.compared)),
                        ])
                    })
            ),
        ])
    }

    /// "v1.5 · 2026-11-20 · abc1234".
    static func heading(_ point: Point) -> String { "\(point.name) · \(point.date) · \(point.commit)" }

    /// Release notes, newest release first: per host and platform, one sentence per change. Each
    /// release's text is made on every core (a year of tags on a fleet writes megabytes), then
    /// joined in order.
    public var markdown: String {
        let releases = Array(releases.reversed())
        let compareLinks = compareLinks
        return "# Link changes\n" + releases.parallelMap { Self.markdown($0, compareLinks: compareLinks) }.joined()
    }

    static func markdown(_ release: Release, compareLinks: CompareLinks?) -> String {
        let compare =
            compareURL(release, compareLinks).map {
                " · [Compare \(release.from.name)...\(release.to.name)](\($0))"
            } ?? ""
        var text =
            "\n## \(MarkdownText.cell(Self.heading(release.to)))\n\n"
            + "Since \(MarkdownText.cell(release.from.name)) (\(release.from.date), `\(release.from.commit)`)"
            + "\(MarkdownText.cell(compare)).\n"
        for note in release.notes { text += "\n> \(MarkdownText.cell(note))\n" }
        if release.changes.isEmpty {
            if release.compared { text += "\nNo change in which URLs open which app.\n" }
            return text
        }
        for (section, changes) in Self.sections(release.changes) {
            text += "\n### \(MarkdownText.cell(section))\n\n"
            for change in changes {
                text += "- \(Self.sentence(change, code: MarkdownText.code, prose: MarkdownText.cell))\n"
            }
        }
        return text
    }

    /// The changes under one heading each: `museo.example — iOS`, and the environment in front
    /// when the changes come from a configuration (`production · museo.example — iOS`).
    static func sections(_ changes: [LinkChange]) -> [(String, [LinkChange])] {
        var order: [String] = []
        var groups: [String: [LinkChange]] = [:]
        for change in changes {
            let place = [change.place, change.platform.map(\.displayName)].compactMap { $0 }.joined(separator: " — ")
            let section =
                change.environment == PolicySnapshot.artifactEnvironment
                ? place : [change.environment, place].filter { !$0.isEmpty }.joined(separator: " · ")
            if groups[section] == nil { order.append(section) }
            groups[section, default: []].append(change)
        }
        // What links do comes first; the declarations behind it follow.
        return order.map { section in
            let changes = groups[section]!
            return (section, changes.filter(\.kind.isBehaviour) + changes.filter { !$0.kind.isBehaviour })
        }
    }

    /// A change as a release engineer would write it: "Links to `/offers/example` now open
    /// com.example.shop (they stayed on the web).", or with the destination the app's router
    /// takes the first one to: "Links to `/tickets/42` now open com.example.museo at
    /// `ticket(id: 42)` instead of the web." `code` sets a URL or a route apart; `prose` escapes
    /// the rest for the format.
    static func sentence(_ change: LinkChange, code: (String) -> String, prose: (String) -> String) -> String {
        let links =
            change.witnesses.first.flatMap(LinkURL.init).map { url in
                "Links to "
                    + code(url.path + (url.query.map { "?" + $0 } ?? "") + (url.fragment.map { "#" + $0 } ?? ""))
            } ?? "Some links"
        let app = prose(change.app ?? "the app")
        let text: String
        switch change.kind {
        case .changesRoute where change.scheme != nil:
            // A scheme URL is nothing without its scheme: the whole witness is shown.
            func destination(_ route: String?) -> String {
                LinkChange.destination(route ?? "?", code: code, prose: prose)
            }
            text =
                (change.witnesses.first.map { "Links to " + code($0) } ?? "Some links")
                + " now open \(app) \(destination(change.after)) instead of \(destination(change.before))."
        case .opensApp:
            text =
                change.routeAfter.map {
                    "\(links) now open \(app) \(LinkChange.destination($0, code: code, prose: prose)) instead of the web."
                } ?? "\(links) now open \(app) (they stayed on the web)."
        case .opensWeb:
            text =
                change.routeBefore.map {
                    "\(links) no longer open \(app) \(LinkChange.destination($0, code: code, prose: prose)); they stay on the web."
                } ?? "\(links) now stay on the web (they opened \(app))."
        case .changesApp:
            func at(_ route: String?) -> String {
                route.map { " " + LinkChange.destination($0, code: code, prose: prose) } ?? ""
            }
            text =
                "\(links) now open \(prose(change.after ?? "an app"))\(at(change.routeAfter)) instead of "
                + "\(prose(change.before ?? "another app"))\(at(change.routeBefore))."
        default:
            let description = description(change)
            return prose(description.prefix(1).uppercased() + description.dropFirst())
        }
        return change.approximate ? text + " Other links may change too: not every rule pair was proven." : text
    }

    /// A single self-contained page: one table per release, newest first (made as `markdown` is).
    public var html: String {
        let releases = Array(releases.reversed())
        let compareLinks = compareLinks
        let body = releases.parallelMap { Self.html($0, compareLinks: compareLinks) }.joined()
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
            h3 { font-size: 1rem; margin-bottom: .25rem; }
            ul { margin-top: .25rem; padding-left: 1.25rem; }
            li { margin: .2rem 0; }
            li.structure { color: #6e6e73; }
            code { font-size: .85rem; }
            </style>
            </head>
            <body>
            <h1>Link changes</h1>
            \(body)</body>
            </html>

            """
    }

    static func html(_ release: Release, compareLinks: CompareLinks?) -> String {
        var body =
            "<section>\n<h2>\(XMLText.printable(Self.heading(release.to)))</h2>\n"
            + "<p class=\"since\">since \(XMLText.printable(release.from.name)) (\(release.from.date), "
            + "<code>\(release.from.commit)</code>)"
            + (compareURL(release, compareLinks).map {
                " · <a href=\"\(XMLText.printable($0))\">compare \(XMLText.printable(release.from.name))..."
                    + "\(XMLText.printable(release.to.name))</a>"
            } ?? "") + "</p>\n"
        for note in release.notes { body += "<p class=\"note\">\(XMLText.printable(note))</p>\n" }
        if release.changes.isEmpty {
            if release.compared { body += "<p class=\"none\">No change in which URLs open which app.</p>\n" }
            return body + "</section>\n"
        }
        for (section, changes) in Self.sections(release.changes) {
            body += "<h3>\(XMLText.printable(section))</h3>\n<ul>\n"
            for change in changes {
                let kind = change.kind.isBehaviour ? "behaviour" : "structure"
                let sentence = Self.sentence(
                    change, code: { "<code>\(XMLText.printable($0))</code>" }, prose: XMLText.printable)
                body += "<li class=\"\(kind)\">\(sentence)</li>\n"
            }
            body += "</ul>\n"
        }
        return body + "</section>\n"
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

    /// One environment's changes as a Markdown table under its heading, for a pull-request
    /// comment: long words (fingerprints) cut in their middle, so it fits the comment's column.
    static func table(_ environment: String, _ changes: [LinkChange], heading: String) -> String {
        var text =
            "\(heading) \(MarkdownText.cell(environment))\n\n| Host | Platform | Change | Example |\n|---|---|---|---|\n"
        for change in changes {
            let example = change.witnesses.first.map(MarkdownText.code) ?? ""
            text +=
                "| \(MarkdownText.cell(change.place ?? "")) | \(MarkdownText.cell(change.platform?.rawValue ?? "")) "
                + "| \(MarkdownText.cell(MarkdownComment.short(description(change)))) | \(example) |\n"
        }
        return text
    }
}

extension Platform {
    /// How release notes name the platform: iOS, Android.
    var displayName: String {
        switch self {
        case .ios: "iOS"
        case .android: "Android"
        }
    }
}
