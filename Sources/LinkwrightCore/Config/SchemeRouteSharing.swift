/// `routes_from:` on a custom scheme: one environment's file writes a scheme's routes, and the
/// others take them instead of repeating them. Each environment's build names its scheme for
/// itself (`es.emergencias.app.staging`), so the lending scheme is found by app and purpose: the
/// one scheme of the same app in the named environment with the same purpose. Its entries are
/// copied with their locations, so every report about them points at the one place they are
/// written. A lender that takes its own routes from elsewhere is refused rather than followed:
/// one hop, no cycles.
enum SchemeRouteSharing {
    static func resolve(_ environments: inout [Environment], into diagnostics: inout DiagnosticBag) {
        let lenders = environments
        for environmentIndex in environments.indices {
            for appIndex in environments[environmentIndex].apps.indices {
                let app = environments[environmentIndex].apps[appIndex]
                for schemeIndex in app.schemes.indices {
                    let scheme = app.schemes[schemeIndex]
                    guard let from = scheme.routesFrom,
                        let lender = lender(
                            for: scheme, of: app, in: environments[environmentIndex].name, from: from, lenders,
                            &diagnostics)
                    else { continue }
                    environments[environmentIndex].apps[appIndex].schemes[schemeIndex].routes = lender.routes
                }
            }
        }
    }

    /// The scheme whose routes `scheme` takes, or `nil` with the reason reported at `from`.
    private static func lender(
        for scheme: CustomScheme, of app: AppDefinition, in environment: String, from: Located<String>,
        _ environments: [Environment], _ diagnostics: inout DiagnosticBag
    ) -> CustomScheme? {
        let purpose = scheme.purpose.value.rawValue
        guard from.value != environment else {
            diagnostics.report(
                .invalidValue, "routes_from names this scheme's own environment \(environment)", at: from.location,
                hint: "write the routes here with routes:, or name the environment whose file holds them")
            return nil
        }
        guard let lending = environments.first(where: { $0.name == from.value }) else {
            diagnostics.report(
                .undefinedEnvironment,
                "routes_from names \(PrintableText.quoted(from.value)), which is not an environment",
                at: from.location, hint: "name a file of environments/ without .yaml")
            return nil
        }
        guard let other = lending.app(named: app.name.value) else {
            diagnostics.report(
                .undefinedApp, "\(from.value) has no app \(app.name.value) to take the scheme's routes from",
                at: from.location, hint: "name an environment that defines \(app.name.value) with a \(purpose) scheme")
            return nil
        }
        let candidates = other.schemes.filter { $0.purpose.value == scheme.purpose.value }
        guard candidates.count == 1, let lender = candidates.first else {
            diagnostics.report(
                .invalidValue,
                "\(app.name.value) declares \(candidates.isEmpty ? "no" : "\(candidates.count)") \(purpose) schemes in \(from.value); routes_from needs exactly one",
                at: from.location, hint: "write the routes here with routes:")
            return nil
        }
        guard lender.routesFrom == nil else {
            diagnostics.report(
                .invalidValue,
                "\(lender.name.value) in \(from.value) takes its routes from \(lender.routesFrom!.value) itself",
                at: from.location, hint: "name \(lender.routesFrom!.value), where the routes are written")
            return nil
        }
        return lender
    }
}
