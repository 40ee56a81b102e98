import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright changelog [FROM..TO]`: what changed in which URLs open which app, release by
/// release.
struct ChangelogCommand: Command {
    static let tags = Option<String?>(name: "tags", valueName: "GLOB", help: "Only tags matching this glob, e.g. 'v*'")
    static let format = Option.format([OutputFormat.markdown, .json, .html])
    static let onlyChanged = Option<Bool>(
        name: "only-changed", help: "Leave out the releases that change no link and no declaration")

    static let spec = CommandSpec(
        name: "changelog",
        abstract: "Report link behaviour changes between consecutive tags, as release notes",
        discussion: """
            Walks the tags in the range (all tags by default; --tags filters them with a shell
            glob), in semantic-version order when every tag looks like a version and in commit
            order otherwise, compiles the contract at each, and reports for each consecutive pair
            the behaviour and structural changes per environment, host, platform and app, with
            example URLs. FROM..TO takes any revisions (TO defaults to HEAD); FROM and TO are the
            first and last points. Tags that did not touch the contract cost nothing: compiled
            results are cached by git tree ID, and a domain a tag did not change is compiled once.
            A revision where the contract is absent or does not compile is reported as such and the
            walk continues. Each release is headed with its tag, date and commit, and links to the
            forge's comparison page when the remote origin is on GitHub, GitLab or Bitbucket; its
            changes are sentences under a heading per host and platform, each shown on a URL
            written from the rules' own text. With --artifact, --host names the host that serves
            the file, and the URLs shown are on it.
            """,
        options: [tags, Workspace.config] + RevisionReader.options + [onlyChanged, format],
        arguments: [ArgumentSpec(name: "FROM..TO", help: "Revision range (default: every tag)", occurrence: .optional)])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let reader = RevisionReader(
            source: try RevisionReader.source(arguments, workspace: workspace), terminal: terminal)
        let points = try releasePoints(reader)
        guard points.count >= 2 else {
            throw UnusableInput(
                message:
                    "the changelog needs at least two revisions; found \(points.map(\.name).joined(separator: ", "))",
                hint: "tag releases, or give a range such as v1.4..HEAD")
        }
        var releases: [Changelog.Release] = []
        // The last revision whose contract could be read: a broken one in between is reported and
        // the next usable revision is compared with this one, so the walk goes on.
        var lastUsable: (name: String, snapshot: CachedRevision)?
        // A window of revisions at a time: read in order (libgit2 and the reader's cache are not
        // shared between threads), then compared on every core (the comparisons are pure and
        // independent), then forgotten, so memory follows the window and not the range (a
        // thousand tags held 800 MB of compiled revisions).
        var first = 0
        while first < points.count - 1 {
            let last = min(first + Self.window, points.count - 1)
            let span = Array(points[first...last])
            let contents = try reader.contents(at: span.map(\.commit))
            var pairs: [ReleasePair] = []
            for (index, (from, to)) in zip(span, span.dropFirst()).enumerated() {
                let before = contents[index]
                if case .snapshot(let snapshot, _) = before { lastUsable = (from.name, snapshot) }
                let unchanged = reader.keys[from.commit.id].map { $0 == reader.keys[to.commit.id] } ?? false
                pairs.append(
                    ReleasePair(
                        from: Self.point(from), to: Self.point(to), before: before, after: contents[index + 1],
                        unchanged: unchanged, lastUsable: lastUsable))
            }
            releases += Self.compare(pairs, continued: last < points.count - 1)
            reader.forgetContents(except: [points[last].commit])
            first = last
        }
        if arguments[Self.onlyChanged] { releases = releases.filter { !$0.changes.isEmpty } }
        let remote = (try? reader.repository)?.originURL()
        try terminal.print(
            Changelog(releases: releases, compareLinks: remote.flatMap(CompareLinks.init(remote:))),
            as: arguments[Self.format])
        // The process ends here: the revisions' cache (a large configuration's compiled files and
        // readings, hundreds of thousands of objects) is freed while it does.
        releaseInBackground((consume reader, consume lastUsable))
        return .success
    }

    /// How many consecutive pairs are compared at once.
    static let window = 32

    /// The releases of consecutive `pairs`, compared on every core. A revision's evaluators serve
    /// the pair before it and the pair after it; once both are compared they are released, so
    /// memory follows the pairs in progress. `continued`: the last revision serves the next
    /// window too.
    private static func compare(_ pairs: [ReleasePair], continued: Bool) -> [Changelog.Release] {
        let uses = LockedValue(
            (0...pairs.count).map { ($0 > 0 ? 1 : 0) + ($0 < pairs.count || continued ? 1 : 0) })
        return pairs.indices.parallelMap { index in
            let pair = pairs[index]
            let release = pair.release()
            for (point, content) in [(index, pair.before), (index + 1, pair.after)] {
                let unused = uses.withLock { remaining in
                    remaining[point] -= 1
                    return remaining[point] == 0
                }
                if unused, case .snapshot(let revision, _) = content { revision.release() }
            }
            return release
        }
    }

    /// The revisions to compare, in order.
    private func releasePoints(_ reader: RevisionReader) throws -> [(name: String, commit: GitCommit)] {
        let repository = try reader.repository
        var tags = try RevisionReader.gitAction { try repository.tags() }
        if let glob = arguments[Self.tags] { tags = tags.filter { fnmatch(glob, $0.name, 0) == 0 } }
        let ordered = VersionOrder.sorted(tags, name: \.name) { ($0.time, $0.name) < ($1.time, $1.name) }
        guard let range = arguments.positionals.first else { return ordered.map { ($0.name, $0.commit) } }
        guard let dots = range.range(of: "..") else {
            throw UsageError(message: "\"\(range)\" is not a range; write FROM..TO, e.g. v1.4..v1.5")
        }
        let fromName = String(range[..<dots.lowerBound])
        let toName = range[dots.upperBound...].isEmpty ? "HEAD" : String(range[dots.upperBound...])
        guard !fromName.isEmpty else { throw UsageError(message: "the range needs a start: FROM..TO") }
        let from = try reader.resolve(fromName)
        let to = try reader.resolve(toName)
        let inRange = Set(try RevisionReader.gitAction { try repository.commits(from: from, to: to) }.map(\.id))
        var points: [(name: String, commit: GitCommit)] = [(fromName, from)]
        for tag in ordered where inRange.contains(tag.commit.id) && tag.commit != to && tag.commit != from {
            points.append((tag.name, tag.commit))
        }
        points.append((toName, to))
        return points
    }

    /// Two consecutive points and what the reader found at each.
    private struct ReleasePair: Sendable {
        let from: Changelog.Point
        let to: Changelog.Point
        let before: RevisionContent
        let after: RevisionContent
        /// Both points read the same contract (equal cache keys).
        let unchanged: Bool
        let lastUsable: (name: String, snapshot: CachedRevision)?

        func release() -> Changelog.Release {
            if unchanged { return Changelog.Release(from: from, to: to, changes: []) }
            switch after {
            case .absent(let what):
                return Changelog.Release(
                    from: from, to: to, changes: [], notes: ["\(what) in \(to.name)"], compared: false)
            case .unusable(let why, _):
                return Changelog.Release(
                    from: from, to: to, changes: [], notes: ["\(to.name): \(why)"], compared: false)
            case .snapshot(let head, let headNotes):
                var notes = headNotes
                let base: CachedRevision?
                switch before {
                case .snapshot(let snapshot, let baseNotes):
                    base = snapshot
                    notes += baseNotes
                case .absent:
                    base = nil
                    notes.append("the link contract first appears in \(to.name)")
                case .unusable(let why, _):
                    base = lastUsable?.snapshot
                    notes.append(
                        "\(from.name): \(why); "
                            + (lastUsable.map { "compared with \($0.name), the last revision that could be read" }
                                ?? "no earlier revision to compare with"))
                }
                let behaviour = ReleaseNoteWitnesses.readable(
                    BehaviourDiff.changes(base: base, head: head), base: base, head: head)
                let changes = StructuralDiff.changes(base: base, head: head) + behaviour
                var seen: Set<String> = []
                let compiled = [head.compiled, base?.compiled]
                return Changelog.Release(
                    from: from, to: to, changes: changes, notes: notes.filter { seen.insert($0).inserted },
                    appNames: AppNames(compiled), environmentOrder: AppNames.environmentOrder(compiled))
            }
        }
    }

    /// A revision as the changelog names it, with its author date in UTC as `git log --date=short`.
    static func point(_ revision: (name: String, commit: GitCommit)) -> Changelog.Point {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: revision.commit.authorTime)
        return Changelog.Point(
            name: revision.name, commit: revision.commit.shortID,
            date: String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!))
    }
}
