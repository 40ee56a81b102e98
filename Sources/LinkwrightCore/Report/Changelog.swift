/// Link behaviour and declarations, release by release.
public struct Changelog: StreamedJSONOutput {
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

        func describe(to sink: inout some JSONSink) {
            sink.object { sink in
                sink.key("name")
                sink.string(name)
                sink.key("commit")
                sink.string(commit)
                sink.key("date")
                sink.string(date)
            }
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
        /// How the notes name apps (by their configuration names) and order environments
        /// (production first), from the two revisions.
        public var appNames: AppNames
        public var environmentOrder: [String]

        public init(
            from: Point, to: Point, changes: [LinkChange], notes: [String] = [], compared: Bool = true,
            appNames: AppNames = AppNames([]), environmentOrder: [String] = []
        ) {
            self.from = from
            self.to = to
            self.changes = changes
            self.notes = notes
            self.compared = compared
            self.appNames = appNames
            self.environmentOrder = environmentOrder
        }

        /// One entry per change, what links do first, then the declarations behind it; a rule
        /// is told in the configuration's words once: Android's translations of it (intent-filter
        /// scopes, and the dynamic rules of a host whose iOS rules changed too) are left out.
        public var entries: [ChangeEntry] {
            let iosRuleHosts = Set(
                changes.filter { $0.kind.isRuleChange && $0.platform == .ios }.map {
                    "\($0.environment) \($0.place ?? "")"
                })
            let told = changes.filter { change in
                guard change.kind.isRuleChange, change.platform == .android else { return true }
                let text = "\(change.before ?? "") \(change.after ?? "")"
                return !text.contains("android:")
                    && !iosRuleHosts.contains("\(change.environment) \(change.place ?? "")")
            }
            // A rule is the domain's, whatever platforms translate it: told without them.
            let platformless = told.map { change in
                var change = change
                if change.kind.isRuleChange { change.platform = nil }
                return change
            }
            return ChangeEntry.entries(
                platformless.filter(\.kind.isBehaviour) + platformless.filter { !$0.kind.isBehaviour },
                names: appNames, environmentOrder: environmentOrder)
        }

        /// The entries under their headings, links before declarations, each heading with
        /// something under it.
        var sections: [(heading: String, isBehaviour: Bool, entries: [ChangeEntry])] {
            let entries = self.entries
            return [("Links", true), ("Declarations", false)].compactMap { heading, behaviour in
                let listed = entries.filter { $0.change.kind.isBehaviour == behaviour }
                return listed.isEmpty ? nil : (heading, behaviour, listed)
            }
        }

        /// Links that start opening an app, stop opening one, and change destination (another
        /// app, or another screen of the same one): one per entry.
        public var counts: (opening: Int, closing: Int, redirected: Int) {
            let kinds = entries.map(\.change.kind)
            return (
                kinds.filter { $0 == .opensApp }.count, kinds.filter { $0 == .opensWeb }.count,
                kinds.filter { $0 == .changesApp || $0 == .changesRoute }.count
            )
        }

        /// "1 link starts opening an app, 1 stops, 2 change destination; 3 declarations changed".
        var summary: String {
            let (opening, closing, redirected) = counts
            let declarations = entries.filter { !$0.change.kind.isBehaviour }.count
            return "\(counted(opening, "link")) \(opening == 1 ? "starts" : "start") opening an app, "
                + "\(closing) \(closing == 1 ? "stops" : "stop"), \(redirected) \(redirected == 1 ? "changes" : "change") destination; "
                + "\(counted(declarations, "declaration")) changed"
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

    /// The members of `json`: `{"version": 2, "releases": [{"from", "to", "compare", "changes",
    /// "notes", "compared"}]}`, newest release first as in the markdown; `from` and `to` are
    /// `{"name", "commit", "date"}`, `compare` the forge's comparison page or null. It streams,
    /// each release made and rendered on every core: a hundred tags of a busy file are megabytes
    /// of JSON.
    public var jsonMembers: [(String, JSON.StreamedMember)] {
        let (newestFirst, compareLinks) = (Array(releases.reversed()), compareLinks)
        return [
            ("version", .value(.int(2))),
            (
                "releases",
                .elements(count: newestFirst.count) { position in
                    ReleaseJSON(
                        release: newestFirst[position], compare: Self.compareURL(newestFirst[position], compareLinks))
                }
            ),
        ]
    }

    /// A release as `jsonMembers` lists it, described straight to the text: a hundred tags write
    /// tens of thousands of changes.
    private struct ReleaseJSON: JSONDescribed {
        let release: Release
        let compare: String?

        func describe(to sink: inout some JSONSink) {
            sink.object { sink in
                sink.key("from")
                release.from.describe(to: &sink)
                sink.key("to")
                release.to.describe(to: &sink)
                sink.key("compare")
                sink.string(orNull: compare)
                sink.key("changes")
                sink.array { sink in
                    for change in release.changes { change.describe(to: &sink) }
                }
                sink.key("notes")
                sink.strings(release.notes)
                sink.key("compared")
                sink.bool(release.compared)
            }
        }
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
        text += "\n**\(MarkdownText.cell(release.summary))**\n"
        for (heading, _, listed) in release.sections {
            text += "\n### \(heading)\n\n"
            for entry in listed {
                text += "- \(Self.sentence(entry.change, code: MarkdownText.code, prose: MarkdownText.cell))\n"
                text += "  - \(entry.whereText(code: MarkdownText.code, prose: MarkdownText.cell))\n"
            }
        }
        return text
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
        case .changesRoute:
            func destination(_ route: String?) -> String {
                LinkChange.destination(route ?? "?", code: code, prose: prose)
            }
            text =
                "\(links) still open \(app), now \(destination(change.after)) instead of \(destination(change.before))."
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
            // "Rule added for museo: `/offers/*`": the value set apart; an identifier that
            // starts the sentence keeps its case.
            let description = description(change)
            let startsWithName = change.app.map { description.hasPrefix($0) } ?? false
            let capitalised =
                startsWithName ? description : description.prefix(1).uppercased() + description.dropFirst()
            guard let colon = capitalised.range(of: ": ") else { return prose(capitalised) }
            return prose(String(capitalised[..<colon.lowerBound])) + ": "
                + code(String(capitalised[colon.upperBound...]))
        }
        return change.approximate ? text + " Other links may change too: not every rule pair was proven." : text
    }

    /// A single self-contained page: a contents list naming each release with its counts, then
    /// the releases, newest first (made as `markdown` is), each with its counts and one entry
    /// per change listing where it happens.
    public var html: String {
        let releases = Array(releases.reversed())
        let compareLinks = compareLinks
        let body = releases.indices.parallelMap {
            Self.html(releases[$0], id: Self.anchor($0), compareLinks: compareLinks)
        }
        .joined()
        var contents = "<nav>\n<h2>Releases</h2>\n<ol class=\"contents\">\n"
        for (index, release) in releases.enumerated() {
            let counts = release.changes.isEmpty ? (release.compared ? "no change" : "not compared") : release.summary
            contents +=
                "<li><a href=\"#\(Self.anchor(index))\">\(XMLText.printable(release.to.name))</a>"
                + " <span class=\"counts\">\(XMLText.printable(counts))</span></li>\n"
        }
        contents += "</ol>\n</nav>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Link changes</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #1d1d1f; }
            h2 { margin-top: 2.5rem; border-bottom: 1px solid #d2d2d7; }
            nav h2 { margin-top: 1rem; }
            .since, .none, .counts, .where { color: #6e6e73; }
            .summary { font-weight: 600; }
            .note { background: #fff4e5; padding: .5rem; }
            h3 { font-size: 1rem; margin-bottom: .25rem; }
            ul { margin-top: .25rem; padding-left: 1.25rem; }
            li { margin: .2rem 0; }
            li.structure { color: #6e6e73; }
            ul.where { list-style: none; padding-left: .5rem; font-size: .9rem; }
            code { font-size: .85rem; }
            </style>
            </head>
            <body>
            <h1>Link changes</h1>
            \(contents)\(body)</body>
            </html>

            """
    }

    /// The id of the newest-first release at `index`: ids stay unique whatever the tags hold.
    static func anchor(_ index: Int) -> String { "release-\(index + 1)" }

    static func html(_ release: Release, id: String, compareLinks: CompareLinks?) -> String {
        var body =
            "<section id=\"\(id)\">\n<h2>\(XMLText.printable(Self.heading(release.to)))</h2>\n"
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
        body += "<p class=\"summary\">\(XMLText.printable(release.summary))</p>\n"
        let code = { (text: String) in "<code>\(XMLText.printable(text))</code>" }
        for (heading, behaviour, listed) in release.sections {
            body += "<h3>\(heading)</h3>\n<ul>\n"
            for entry in listed {
                let kind = behaviour ? "behaviour" : "structure"
                body +=
                    "<li class=\"\(kind)\">\(Self.sentence(entry.change, code: code, prose: XMLText.printable))"
                    + "<ul class=\"where\"><li>\(entry.whereText(code: code, prose: XMLText.printable))</li></ul></li>\n"
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
