/// Names the generated routers cannot keep apart (`GENERATED_NAME_CLASH`). Every other name from
/// configuration is made safe where the routers are written (`SwiftNames`, `KotlinNames`); these
/// two are part of what the app's code names, so renaming one silently would be worse.
extension ConfigValidator {
    mutating func checkGeneratedNames() {
        // Apps: `museo-clip` and `museo_clip` both make `MuseoClipRouter` and `MuseoClipDestination`.
        var apps: [String: Located<String>] = [:]
        for app in configuration.environments.flatMap(\.apps) {
            let type = GeneratedTypeName.of(app.name.value)
            guard let first = apps[type] else {
                apps[type] = app.name
                continue
            }
            guard first.value != app.name.value else { continue }
            diagnostics.report(
                .generatedNameClash,
                "apps \(PrintableText.quoted(first.value)) and \(PrintableText.quoted(app.name.value)) both make the router types \(type)Router and \(type)Destination",
                at: app.name.location,
                hint: "rename one of them (\(first.value) is declared at \(first.location))")
        }
        // Routes: nested Kotlin classes are files named after them, which a case-insensitive disk
        // (macOS, Windows) cannot hold apart.
        var routes: [String: Located<String>] = [:]
        // Each rule's route read in place: copying every rule of every domain to find the few
        // routes cost more than the check.
        var written: [Route] = []
        for domain in configuration.domains.indices {
            for entry in configuration.domains[domain].applinks.indices {
                let rules = configuration.domains[domain].applinks[entry].rules
                for rule in rules.indices {
                    if let route = rules[rule].route { written.append(route) }
                }
            }
        }
        written += configuration.environments.flatMap {
            $0.apps.flatMap(\.schemes).flatMap(\.routes).compactMap(\.route)
        }
        for route in written {
            guard let name = route.destination else { continue }
            let folded = name.lowercased()
            guard let first = routes[folded] else {
                routes[folded] = Located(name, at: route.target.location)
                continue
            }
            guard first.value != name else { continue }
            diagnostics.report(
                .generatedNameClash,
                "routes \(PrintableText.quoted(first.value)) and \(PrintableText.quoted(name)) differ only in case: their Kotlin classes compile to files a case-insensitive disk cannot hold apart",
                at: route.target.location,
                hint: "spell one route as \(first.value) (\(first.location)), or rename it")
        }
    }
}
