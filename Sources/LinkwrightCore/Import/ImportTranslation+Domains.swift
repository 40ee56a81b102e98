/// How an import writes its domains and its environment.
extension ImportTranslation {
    mutating func domainName(for host: Host, taken: Set<String>) -> String {
        let base = Importer.domainName(for: host)
        var name = base
        var index = 2
        while taken.contains(name) {
            name = "\(base)-\(index)"
            index += 1
        }
        return name
    }

    mutating func domainYAML(_ site: Importer.Site) -> String {
        var text = ""
        let applinks = site.aasa?.applinks
        if let defaults = applinks?.defaults {
            text += flags(defaults).map { "defaults: {\($0)}\n" } ?? ""
        }
        let variables = applinks?.substitutionVariables ?? []
        if !variables.isEmpty {
            text += "variables:\n"
            for variable in variables {
                if PatternSyntax.predefinedVariables.contains(variable.name) {
                    diagnostics.report(
                        .importVariable,
                        "variable \(PrintableText.quoted(variable.name)) has the name of Apple's predefined $(\(variable.name))",
                        at: .file(site.aasaFile ?? site.host.name),
                        hint: "rename it in the original file and in its patterns")
                }
                text += "  \(YAMLWriter.scalar(variable.name)): \(YAMLWriter.flowList(variable.values))\n"
            }
        }
        var entries: [String] = []
        var legacyOnly = true
        for details in applinks?.details ?? [] {
            let apps = details.effectiveAppIDs.compactMap { iosNames[$0] }
            guard !apps.isEmpty else { continue }
            let rules: [String]
            if let components = details.components {
                legacyOnly = false
                if details.paths != nil {
                    notes.append(
                        "\(site.host): an entry has both components and paths; iOS 13+ reads the components, which were imported"
                    )
                }
                rules = components.map {
                    rule($0, entryDefaults: details.defaults, fileDefaults: applinks?.defaults, site: site)
                }
            } else {
                rules = (details.paths ?? []).map(legacyRule)
            }
            var entry = "  - apps: \(YAMLWriter.flowList(apps))\n"
            if let defaults = details.defaults, let written = flags(defaults) {
                entry += "    defaults: {\(written)}\n"
            }
            if rules.isEmpty {
                notes.append(
                    "\(site.host): an entry for \(apps.joined(separator: ", ")) has no rules, so it opens nothing; it was left out"
                )
                continue
            }
            entry += "    rules:\n" + rules.joined()
            entries.append(entry)
        }
        let androidOnly = androidEntries(site)
        if !entries.isEmpty || !androidOnly.isEmpty { text += "applinks:\n" + entries.joined() + androidOnly }
        for service in AssociatedService.appListServices {
            var names = (site.aasa?.serviceApps[service] ?? []).compactMap { iosNames[$0] }
            if service == .webcredentials { names += androidCredentials(site) }
            if !names.isEmpty { text += "\(service.rawValue): \(YAMLWriter.flowList(names.uniqued()))\n" }
        }
        text += assetStatementsYAML(site)
        var emit: [String] = []
        if legacyOnly && !entries.isEmpty { emit.append("  legacy_paths: true\n") }
        if site.assetLinks?.statements.contains(where: { $0.dynamicComponents != nil }) == true {
            emit.append("  android_dynamic_rules: true\n")
        }
        if !emit.isEmpty { text += "emit:\n" + emit.joined() }
        return text
    }

    /// Applinks entries for Android apps that no iOS entry covers: their dynamic rules, or every
    /// URL when the statement has none (the app's manifest then decides alone).
    private mutating func androidEntries(_ site: Importer.Site) -> String {
        var text = ""
        for statement in site.assetLinks?.statements ?? []
        where statement.relations.contains(AssetStatement.handleAllURLs) {
            guard case .androidApp(let package, _) = statement.target, let name = androidNames[package] else {
                continue
            }
            if iosApps[name] != nil {
                continue  // shares the iOS entry, which lists it already
            }
            let rules =
                statement.dynamicComponents?.map(dynamicRule)
                ?? ["      - " + (["path: \"*\""] + Self.unknownRoute).joined(separator: "\n        ") + "\n"]
            // Dynamic rules mean what Android reads in them, and Apple's flags do not apply: keep them so.
            text +=
                "  - apps: \(YAMLWriter.flowList([name]))\n    android_semantics: true\n    rules:\n" + rules.joined()
        }
        return text
    }

    /// Android apps sharing credentials that `webcredentials:` can list: those with no iOS side,
    /// or whose iOS side the AASA lists there too (the list makes both platforms' entries).
    private func androidCredentials(_ site: Importer.Site) -> [String] {
        (site.assetLinks?.statements ?? []).compactMap { statement in
            guard statement.relations.contains(AssetStatement.getLoginCreds),
                case .androidApp(let package, _) = statement.target, let name = androidNames[package],
                sharesCredentialsOnIOS(name, site) != false
            else { return nil }
            return name
        }
    }

    /// Whether the AASA lists `name`'s iOS app under webcredentials; `nil` for an app with no iOS side.
    private func sharesCredentialsOnIOS(_ name: String, _ site: Importer.Site) -> Bool? {
        guard iosApps[name] != nil else { return nil }
        return (site.aasa?.serviceApps[.webcredentials] ?? []).contains { iosNames[$0] == name }
    }

    /// `asset_statements:` for what the apps' links and credentials do not say: relations granted
    /// to web sites, and an app's relations other than App Links and the credentials
    /// `webcredentials:` lists, in the file's order.
    private func assetStatementsYAML(_ site: Importer.Site) -> String {
        var entries: [String] = []
        for statement in site.assetLinks?.statements ?? [] {
            switch statement.target {
            case .web(let origin):
                entries.append(
                    "  - relation: \(YAMLWriter.flowList(statement.relations))\n    site: \(YAMLWriter.scalar(origin))\n"
                )
            case .androidApp(let package, _):
                guard let name = androidNames[package] else { continue }
                let relations = statement.relations.filter { relation in
                    relation != AssetStatement.handleAllURLs
                        && !(relation == AssetStatement.getLoginCreds && sharesCredentialsOnIOS(name, site) != false)
                }
                guard !relations.isEmpty else { continue }
                entries.append("  - relation: \(YAMLWriter.flowList(relations))\n    app: \(name)\n")
            }
        }
        return entries.isEmpty ? "" : "asset_statements:\n" + entries.joined()
    }

    /// A component with what it inherits from `defaults` written out: Apple lets defaults carry
    /// `/`, `?` and `exclude` too (swcutil gap probes), which linkwright's defaults do not.
    private mutating func rule(
        _ component: AASAComponent, entryDefaults: AASAComponent?, fileDefaults: AASAComponent?, site: Importer.Site
    )
        -> String
    {
        let inherited = [entryDefaults, fileDefaults].compactMap { $0 }
        let path = component.path ?? inherited.compactMap(\.path).first
        var query = component.query ?? inherited.compactMap(\.query).first
        let fragment = component.fragment ?? inherited.compactMap(\.fragment).first
        let exclude = component.exclude ?? inherited.compactMap(\.exclude).first ?? false
        if component.path == nil && path != nil
            || component.exclude == nil && inherited.contains(where: { $0.exclude != nil })
        {
            notes.append("\(site.host): a rule inherits /, ? or exclude from defaults; they are written on the rule")
        }
        if query == .ignoredDictionary {
            // swcutil ignores a query dictionary holding a non-string value as a whole.
            notes.append("\(site.host): a query dictionary with a non-string value, which Apple ignores, was dropped")
            query = nil
        }
        var lines: [String] = []
        lines.append("path: \(YAMLWriter.scalar(path ?? "*"))")
        switch query {
        case .whole(let pattern): lines.append("query: \(YAMLWriter.scalar(pattern))")
        case .items(let items):
            lines.append("query:")
            lines += items.map { "  \(YAMLWriter.scalar($0.name)): \(YAMLWriter.scalar($0.pattern))" }
        case .ignoredDictionary, nil: break
        }
        if let fragment { lines.append("fragment: \(YAMLWriter.scalar(fragment))") }
        if exclude { lines.append("exclude: true") }
        lines += component.flags.written.map { "\($0.flag.configurationKey): \($0.value)" }
        if let comment = component.comment { lines.append("comment: \(YAMLWriter.scalar(comment))") }
        if !exclude { lines += Self.unknownRoute }
        return "      - " + lines.joined(separator: "\n        ") + "\n"
    }

    /// An imported rule's route: association files say which URLs open the app, never which
    /// screen, so the router opens the app at its start until someone names the destination.
    static let unknownRoute = ["route: none", "reason: " + YAMLWriter.scalar("imported: no screen named yet")]

    /// Said once per domain file holding such rules, under its header.
    static let unknownRouteNote = """
        # The files say which URLs open an app, not where in it: each such rule says route: none (the
        # app opens at its start) until route: and params: name the screen.

        """

    private func legacyRule(_ path: String) -> String {
        let excluded = path.hasPrefix("NOT ")
        let pattern = excluded ? String(path.dropFirst(4)) : path
        let lines = ["path: \(YAMLWriter.scalar(pattern))"] + (excluded ? ["exclude: true"] : Self.unknownRoute)
        return "      - " + lines.joined(separator: "\n        ") + "\n"
    }

    private func dynamicRule(_ component: DynamicComponent) -> String {
        var lines = ["path: \(YAMLWriter.scalar(component.path ?? "*"))"]
        if let query = component.query {
            lines.append("query:")
            lines += query.map { "  \(YAMLWriter.scalar($0.name)): \(YAMLWriter.scalar($0.pattern))" }
        }
        if let fragment = component.fragment { lines.append("fragment: \(YAMLWriter.scalar(fragment))") }
        if component.exclude { lines.append("exclude: true") }
        if let comments = component.comments { lines.append("comment: \(YAMLWriter.scalar(comments))") }
        if !component.exclude { lines += Self.unknownRoute }
        return "      - " + lines.joined(separator: "\n        ") + "\n"
    }

    private func flags(_ component: AASAComponent) -> String? {
        let parts = component.flags.written.map { "\($0.flag.configurationKey): \($0.value)" }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    // MARK: Environment

    mutating func environmentYAML(_ domains: [(String, [Host])]) -> String {
        var text =
            JSONSchemaGenerator.editorComment(for: "environment")
            + "\n# Imported by linkwright import.\ntier: \(tier.rawValue)\n"
        if let team { text += "team_id: \(team)\n" }
        text += "apps:\n"
        for name in order {
            text += "  \(name):\n" + appYAML(name, team: team).map { "    " + $0 + "\n" }.joined()
        }
        if order.isEmpty { text += "  {}\n" }
        text += "hosts:\n"
        for (domain, hosts) in domains {
            for host in hosts { text += "  \(YAMLWriter.scalar(host.name)): \(domain)\n" }
        }
        return text
    }

    /// An app's block, one line each, indented from the app's key.
    func appYAML(_ name: String, team: String?) -> [String] {
        var lines: [String] = []
        if let ios = iosApps[name] {
            lines += ["ios:", "  bundle_id: \(YAMLWriter.scalar(ios.bundle))"]
            if ios.team != team { lines.append("  team_id: \(ios.team)") }
            if ios.clip { lines.append("  app_clip: true") }
        }
        if let android = androidApps[name] {
            lines += ["android:", "  package: \(YAMLWriter.scalar(android.package))", "  fingerprints:"]
            for (channel, fingerprint) in zip(channels(of: android.fingerprints), android.fingerprints) {
                lines.append("    \(channel): \(YAMLWriter.quoted(fingerprint))")
            }
        }
        return lines
    }

    /// The files do not say which key is which: a production app's one key is the one channel
    /// the policies require (Play App Signing's, by default: the key Google Play signs installs
    /// with, so the one a device checks); otherwise keys are numbered.
    func channels(of fingerprints: [String]) -> [String] {
        if tier == .production && fingerprints.count == 1 && requiredChannels.count == 1 {
            return requiredChannels
        }
        return fingerprints.indices.map { "key-\($0 + 1)" }
    }

    /// What a person must decide about the channels, app by app: which numbered key is the one
    /// the policies require, or that the one key named after it is.
    func channelDecisions(file: String, text: String) -> [Importer.Decision] {
        guard tier == .production, !requiredChannels.isEmpty else { return [] }
        let required = requiredChannels.joined(separator: ", ")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return order.compactMap { name in
            guard let android = androidApps[name], !existingNames.contains(name) else { return nil }
            // The line of the app's first key, as the file is written.
            let keyLine = "\(channels(of: android.fingerprints)[0]): \(YAMLWriter.quoted(android.fingerprints[0]))"
            let line = lines.firstIndex { $0.hasSuffix(keyLine) }.map { $0 + 1 }
            if channels(of: android.fingerprints) == requiredChannels {
                return Importer.Decision(
                    kind: "check", file: file, line: line,
                    text: "\(android.package)'s one signing key is named \(required): make sure it is the key Google "
                        + "Play signs installs with (Play Console, App signing), else rename it")
            }
            let named = channels(of: android.fingerprints).joined(separator: ", ")
            return Importer.Decision(
                kind: "next", file: file, line: line,
                text: "rename the key of \(android.package) (\(named)) that Google Play signs installs with (Play "
                    + "Console, App signing) to \(required), which the policies require of production apps "
                    + "(FINGERPRINT_CHANNEL_MISSING blocks check until then); add it if none of them is")
        }
    }

    /// The existing environment's text with the new apps and hosts added at the end of its
    /// `apps:` and `hosts:`, everything else as it was.
    mutating func addedTo(_ text: String, _ domains: [(String, [Host])]) -> String {
        let file = existing?.file ?? "environments/\(environment).yaml"
        var editor = YAMLTextEditor(text)
        do {
            let root = YAMLParser().parse(Array(text.utf8), file: file).root
            guard case .mapping(let pairs) = root?.content,
                let apps = pairs.first(where: { $0.key.value == "apps" })?.value,
                let hosts = pairs.first(where: { $0.key.value == "hosts" })?.value
            else { throw YAMLTextEditor.EditError(message: "it has no apps: or hosts: mapping") }
            for name in order where !existingNames.contains(name) {
                let lines = appYAML(name, team: existing?.teamID?.value)
                try editor.append(key: name, value: try Self.nested(lines, in: apps, editor: editor), to: apps)
            }
            for (domain, served) in domains {
                for host in served { try editor.append(key: YAMLWriter.scalar(host.name), value: domain, to: hosts) }
            }
        } catch {
            let message = (error as? YAMLTextEditor.EditError)?.message ?? "\(error)"
            diagnostics.report(
                .importConflict, "cannot add the imported apps and hosts to \(file): \(message)", at: .file(file),
                hint:
                    "write its apps: and hosts: as block mappings with at least one entry, or import into a new environment"
            )
            return text
        }
        return editor.applied()
    }

    /// An app's lines as the value of a key in a block `mapping`, indented under the key.
    static func nested(_ lines: [String], in mapping: YAMLNode, editor: YAMLTextEditor) throws -> String {
        guard editor.character(at: mapping.location) != "{", case .mapping(let pairs) = mapping.content,
            let last = pairs.last
        else { throw YAMLTextEditor.EditError(message: "its apps: is not a block mapping with an entry") }
        let indentation = String(repeating: " ", count: last.key.location.column + 1)
        return lines.map { "\n" + indentation + $0 }.joined()
    }
}
