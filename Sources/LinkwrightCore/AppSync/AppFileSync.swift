/// What `sync` makes of one app file: the bytes it should hold, from the compiled environment
/// and the bytes it holds now. Only the part the contract owns changes (one plist key's value,
/// the lines between the manifest's markers); every other byte is kept.
public struct AppFileOutcome: Sendable {
    public var file: DeclaredAppFile
    public var bytes: [UInt8]
    /// Whether `bytes` differ from the file's.
    public var changes: Bool
    /// What differs, as `+ line` and `- line` summaries, or a sentence.
    public var differences: [String]
    /// Said however the file fares (the markers inserted into an activity).
    public var note: String?
}

/// Why an app file cannot be kept in step: the message names what is wrong, the hint the fix.
public struct AppFileProblem: Error, Sendable, Equatable {
    public var file: DeclaredAppFile
    /// Where in the app file, when the problem is at a place in it.
    public var line: Int?
    public var column: Int?
    public var message: String
    public var hint: String

    public init(file: DeclaredAppFile, line: Int? = nil, column: Int? = nil, message: String, hint: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }
}

public enum AppFileSync {
    /// The comments between which a manifest's intent filters are the contract's.
    public static let beginMarker = "linkwright:begin"
    public static let endMarker = "linkwright:end"

    public static func outcome(_ file: DeclaredAppFile, current: [UInt8], compiled: CompiledEnvironment)
        -> Result<AppFileOutcome, AppFileProblem>
    {
        switch file.kind {
        case .entitlements, .infoPlist:
            guard let app = compiled.iosApps.first(where: { $0.name == file.app }) else {
                return .failure(missingApp(file, platform: .ios))
            }
            let owned = file.kind == .entitlements ? !app.associatedDomains.isEmpty : !app.urlSchemes.isEmpty
            return PlistKeyEditor.edit(current, key: file.kind.keeps, file: file) { indent, unit in
                guard owned else { return nil }
                return file.kind == .entitlements
                    ? ArtifactRenderer.associatedDomainsValue(app, indent: indent, unit: unit)
                    : ArtifactRenderer.urlTypesValue(app, indent: indent, unit: unit)
            }
        case .manifest:
            guard let app = compiled.androidApps.first(where: { $0.name == file.app }) else {
                return .failure(missingApp(file, platform: .android))
            }
            return ManifestFilterEditor.edit(current, file: file) { indent, unit in
                ArtifactRenderer.intentFilterElements(app, indent: indent, unit: unit)
            }
        }
    }

    private static func missingApp(_ file: DeclaredAppFile, platform: Platform) -> AppFileProblem {
        AppFileProblem(
            file: file, message: "\(file.app) has no \(platform.rawValue) build in \(file.environment)",
            hint: "declare the file under the app's \(platform.rawValue) block")
    }
}

/// Replaces one key's value in the top-level dictionary of an XML property list.
enum PlistKeyEditor {
    /// `render(indent, unit)` gives the value's text in the file's indentation, or nil when the
    /// key should not be there at all.
    static func edit(
        _ bytes: [UInt8], key: String, file: DeclaredAppFile, render: (String, String) -> String?
    ) -> Result<AppFileOutcome, AppFileProblem> {
        if bytes.starts(with: Array("bplist".utf8)) {
            return .failure(
                AppFileProblem(
                    file: file, message: "is a binary property list; sync edits XML property lists only",
                    hint:
                        "convert it once with `plutil -convert xml1 \(file.path.value)` (Xcode reads both), then sync again"
                ))
        }
        let layout: PropertyListLayout
        do {
            layout = try PropertyListLayout.read(bytes)
        } catch {
            return .failure(
                AppFileProblem(
                    file: file, message: "is not an XML property list with a dictionary at its top: \(error.reason)",
                    hint:
                        "check that the path names the app's \(file.kind == .entitlements ? "entitlements file" : "Info.plist")"
                ))
        }
        let found = layout.entries.filter { $0.key == key }
        if found.count > 1 {
            let (line, column) = TextLayout.position(bytes, of: found[1].keyStart)
            return .failure(
                AppFileProblem(
                    file: file, line: line, column: column, message: "holds the key \(key) twice",
                    hint: "remove one of them, then sync again"))
        }
        let indentation = layout.entries.first.flatMap { TextLayout.indentation(bytes, before: $0.keyStart) } ?? "\t"
        let indent = indentation.isEmpty ? "\t" : indentation
        let unit = TextLayout.unit(from: indent, depth: 1)
        let value = render(indent, unit)
        let wanted = value.flatMap { try? PropertyList.parse(Array("<plist>\($0)</plist>".utf8)) }
        func outcome(_ range: Range<Int>, _ replacement: String, old: String) -> Result<AppFileOutcome, AppFileProblem>
        {
            var edited = bytes
            edited.replaceSubrange(range, with: Array(replacement.utf8))
            var differences = TextLayout.differences(old: old, new: replacement)
            if differences.isEmpty { differences = ["the order of \(key)'s entries differs"] }
            return .success(AppFileOutcome(file: file, bytes: edited, changes: true, differences: differences))
        }
        let entry = "<key>\(key)</key>\n\(indent)"
        if let existing = found.first {
            guard let value else {
                let old = String(decoding: bytes[existing.keyStart..<existing.valueEnd], as: UTF8.self)
                let start = TextLayout.lineStart(bytes, before: existing.keyStart)
                let whole = TextLayout.indentation(bytes, before: existing.keyStart) != nil
                return outcome(
                    (whole ? start : existing.keyStart)..<TextLayout.lineEnd(bytes, after: existing.valueEnd), "",
                    old: old)
            }
            if existing.value == wanted {
                return .success(AppFileOutcome(file: file, bytes: bytes, changes: false, differences: []))
            }
            let range = existing.valueStart..<existing.valueEnd
            return outcome(range, value, old: String(decoding: bytes[range], as: UTF8.self))
        }
        guard let value else {
            return .success(AppFileOutcome(file: file, bytes: bytes, changes: false, differences: []))
        }
        if layout.isEmptyDictionary {
            return outcome(
                layout.dictionaryStart..<layout.dictionaryEnd, "<dict>\n\(indent)\(entry)\(value)\n</dict>", old: "")
        }
        let closing = layout.dictionaryEnd
        if TextLayout.indentation(bytes, before: closing) != nil {
            let start = TextLayout.lineStart(bytes, before: closing)
            return outcome(start..<start, "\(indent)\(entry)\(value)\n", old: "")
        }
        return outcome(closing..<closing, "\n\(indent)\(entry)\(value)\n", old: "")
    }
}

/// Keeps the intent filters between the markers inside one activity of a manifest.
enum ManifestFilterEditor {
    static let androidNamespace = "http://schemas.android.com/apk/res/android"

    /// `render(indent, unit)` gives the filter elements, each line at `indent`.
    static func edit(_ bytes: [UInt8], file: DeclaredAppFile, render: (String, String) -> String) -> Result<
        AppFileOutcome, AppFileProblem
    > {
        func problem(_ offset: Int?, _ message: String, _ hint: String) -> Result<AppFileOutcome, AppFileProblem> {
            let place = offset.map { TextLayout.position(bytes, of: $0) }
            return .failure(
                AppFileProblem(file: file, line: place?.line, column: place?.column, message: message, hint: hint))
        }
        let items: [XMLScanner.Item]
        do {
            items = try XMLScanner.scan(bytes)
        } catch {
            return problem(error.offset, "is not well-formed XML: \(error.reason)", "fix the manifest, then sync again")
        }
        guard let root = items.first(where: { if case .start = $0.token { true } else { false } }),
            case .start("manifest", let rootAttributes, _) = root.token
        else { return problem(nil, "is not an Android manifest (no <manifest> element)", "check the path") }
        // Sync writes `android:` attributes: the manifest must bind that prefix to the namespace.
        guard rootAttributes.contains(where: { $0.name == "xmlns:android" && $0.value == androidNamespace }) else {
            return problem(
                root.range.lowerBound, "does not bind the Android namespace to the prefix android",
                "add xmlns:android=\"\(androidNamespace)\" to <manifest>")
        }
        let activity = file.activity?.value ?? ""
        let activities = items.indices.filter { index in
            guard case .start("activity", let attributes, _) = items[index].token else { return false }
            return attributes.contains { $0.name == "android:name" && $0.value == activity }
        }
        guard let opening = activities.first else {
            let names = items.compactMap { item -> String? in
                guard case .start("activity", let attributes, _) = item.token else { return nil }
                return attributes.first { $0.name == "android:name" }?.value
            }
            return problem(
                nil, "has no <activity android:name=\"\(activity)\">",
                names.isEmpty
                    ? "add the activity to the flavor's manifest (the manifest merger merges it by name), or fix activity:"
                    : "activities there: \(names.joined(separator: ", ")); write activity: as the manifest names it")
        }
        if activities.count > 1 {
            return problem(
                items[activities[1]].range.lowerBound, "declares <activity android:name=\"\(activity)\"> twice",
                "keep one of them")
        }
        let start = items[opening]
        let activityIndent = TextLayout.indentation(bytes, before: start.range.lowerBound) ?? ""
        // The activity's content: up to its end tag at the same depth.
        var closing: Int?
        if case .start(_, _, false) = start.token {
            closing = items[(opening + 1)...].firstIndex { item in
                if case .end("activity") = item.token { return item.depth == start.depth }
                return false
            }
        }
        let inside = closing.map { Array(items[(opening + 1)..<$0]) } ?? []
        let markers = items.enumerated().compactMap { index, item -> (index: Int, begins: Bool)? in
            guard case .comment(let text) = item.token else { return nil }
            let trimmed = text.drop { $0 == " " }
            if trimmed.hasPrefix(AppFileSync.beginMarker) { return (index, true) }
            if trimmed.hasPrefix(AppFileSync.endMarker) { return (index, false) }
            return nil
        }
        let children = inside.filter { $0.depth == start.depth + 1 }
        let childIndent =
            markers.first.flatMap { TextLayout.indentation(bytes, before: items[$0.index].range.lowerBound) }
            ?? children.first.flatMap { TextLayout.indentation(bytes, before: $0.range.lowerBound) }
            ?? activityIndent + TextLayout.unit(from: activityIndent, depth: max(start.depth, 1))
        let unit =
            childIndent.hasPrefix(activityIndent) && childIndent.count > activityIndent.count
            ? String(childIndent.dropFirst(activityIndent.count)) : TextLayout.unit(from: childIndent, depth: 3)
        let block =
            "<!-- \(AppFileSync.beginMarker) intent filters of \(XMLText.comment(file.app)) in \(XMLText.comment(file.environment)), written by linkwright sync: edit the configuration, not these lines -->\n"
            + render(childIndent, unit) + "\(childIndent)<!-- \(AppFileSync.endMarker) -->"
        /// `differences` in place of the lines' own, when a sentence says more (the markers inserted).
        func outcome(_ range: Range<Int>, _ replacement: String, old: String, said differences: [String]? = nil)
            -> Result<AppFileOutcome, AppFileProblem>
        {
            var edited = bytes
            edited.replaceSubrange(range, with: Array(replacement.utf8))
            var found = differences ?? TextLayout.differences(old: old, new: replacement)
            if found.isEmpty { found = ["the lines between the markers differ in order or spacing"] }
            let line = TextLayout.position(bytes, of: start.range.lowerBound).line
            let note = differences.map { _ in
                "inserted the markers <!-- \(AppFileSync.beginMarker) --> and <!-- \(AppFileSync.endMarker) --> into <activity android:name=\"\(activity)\"> at line \(line); the intent filters between them are the configuration's"
            }
            return .success(AppFileOutcome(file: file, bytes: edited, changes: true, differences: found, note: note))
        }
        switch markers.count {
        case 0:
            let inserted = [
                "no linkwright markers in <activity android:name=\"\(activity)\">; sync inserts them with the intent filters"
            ]
            guard closing != nil else {
                // `<activity … />`: opened, filled and closed.
                var end = start.range.upperBound - 2
                while end > start.range.lowerBound && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
                return outcome(
                    end..<start.range.upperBound, ">\n\(childIndent)\(block)\n\(activityIndent)</activity>", old: "",
                    said: inserted)
            }
            let at = start.range.upperBound
            return outcome(at..<at, "\n\(childIndent)\(block)", old: "", said: inserted)
        case 2
        where markers[0].begins && !markers[1].begins
            && inside.contains(where: { $0.range == items[markers[0].index].range && $0.depth == start.depth + 1 })
            && inside.contains(where: { $0.range == items[markers[1].index].range && $0.depth == start.depth + 1 }):
            let range = items[markers[0].index].range.lowerBound..<items[markers[1].index].range.upperBound
            let old = String(decoding: bytes[range], as: UTF8.self)
            if old == block {
                return .success(AppFileOutcome(file: file, bytes: bytes, changes: false, differences: []))
            }
            return outcome(range, block, old: old)
        default:
            let first = markers.first.map { items[$0.index].range.lowerBound }
            return problem(
                first,
                "has linkwright markers that are not one <!-- \(AppFileSync.beginMarker) … --> then one <!-- \(AppFileSync.endMarker) --> directly inside <activity android:name=\"\(activity)\">",
                "remove the stray markers (sync inserts a pair when there is none), then sync again")
        }
    }
}
