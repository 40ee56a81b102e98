extension ExpectationRunner {
    /// The expectations under each app's custom schemes, checked in the environment whose file
    /// declares them, on each platform they concern. A URL opens the app when the app is the one
    /// app of the environment declaring the URL's scheme on that platform (two apps declaring it
    /// leave the choice to the system, which Apple and Android both leave undefined), and reaches
    /// what `CompiledSchemeRoutes` answers. `route: none` expects no destination, for whatever
    /// reason the answer gives. Each check has one place: the environment, the scheme as its host.
    /// Only the environments `compiled` holds (those `--env` chose) are checked.
    static func schemeChecks(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, keeping detail: Detail, tally: inout Tally
    ) -> [Check] {
        var checks: [Check] = []
        let checked = Set(compiled.environments.map(\.name))
        for environment in configuration.environments where checked.contains(environment.name) {
            for owner in environment.apps {
                for scheme in owner.schemes where !scheme.expectations.isEmpty {
                    let routes = CompiledSchemeRoutes(scheme)
                    for expectation in scheme.expectations {
                        // Lint reports a URL that does not parse and an app the environment lacks.
                        guard let url = LinkURL.customScheme(expectation.url.value), let route = expectation.route,
                            let app = expectedApp(expectation, owner: owner, in: environment)
                        else { continue }
                        let place = Place(
                            environment: environment.name, host: scheme.name.value, urlHost: scheme.name.value)
                        for platform in expectation.platforms
                        where platform == .ios ? app.ios != nil : app.android != nil {
                            let observed = observe(
                                url, route: route.value, app: app, in: environment, on: platform, routes)
                            tally.checks += 1
                            tally.environments.insert(environment.name)
                            guard detail != .failures || !observed.passed else { continue }
                            let outcome = Outcome(
                                actual: observed.actual, passed: observed.passed, decidingRule: observed.decidingRule,
                                places: detail == .everyPlace || !observed.passed ? [place] : [], count: 1)
                            checks.append(
                                Check(
                                    location: expectation.location, url: url, platform: platform,
                                    expected: "\(app.name.value) at \(route.value)", comment: expectation.comment,
                                    outcomes: [outcome]))
                        }
                    }
                }
            }
        }
        return checks
    }

    /// The app an expectation under `owner`'s scheme names, `owner` by default.
    private static func expectedApp(_ expectation: Expectation, owner: AppDefinition, in environment: Environment)
        -> AppDefinition?
    {
        guard case .opensApp(let name?) = expectation.outcome else { return owner }
        return environment.app(named: name.value)
    }

    /// Which apps receive `url` on `platform`, and, when `app` alone does, where its router takes it.
    private static func observe(
        _ url: LinkURL, route: RouteValue, app: AppDefinition, in environment: Environment, on platform: Platform,
        _ routes: CompiledSchemeRoutes
    ) -> (actual: String, passed: Bool, decidingRule: SourceLocation?) {
        let receiving = environment.apps(receiving: url, on: platform).map(\.app.name.value)
        let apps = receiving.isEmpty ? "no app" : receiving.joined(separator: ", ")
        // Declared schemes are lowercase, so the app alone receiving the URL receives it on this scheme.
        guard receiving == [app.name.value] else { return (apps, false, nil) }
        let answer = routes.answer(for: url)
        return (apps + " " + answer.description, answer.value.satisfies(route), answer.origin)
    }
}
