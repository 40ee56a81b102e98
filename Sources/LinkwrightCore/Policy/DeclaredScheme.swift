/// A custom scheme as one app of one environment declares it: what the scheme rules walk.
struct DeclaredScheme {
    var environment: Environment
    var app: AppDefinition
    var scheme: CustomScheme

    var name: String { scheme.name.value }

    /// A finding of `rule` at the scheme's name, identified by environment, app and scheme.
    func finding(_ rule: RuleInfo, message: String, hint: String) -> Finding {
        Finding(
            rule: rule.id.rawValue, severity: rule.defaultSeverity, message: message, location: scheme.name.location,
            hint: hint, environment: environment.name, app: app.name.value,
            identity: [environment.name, app.name.value, name])
    }
}

extension Configuration {
    /// Every scheme of every app, in file order.
    var declaredSchemes: [DeclaredScheme] {
        environments.flatMap { environment in
            environment.apps.flatMap { app in
                app.schemes.map { DeclaredScheme(environment: environment, app: app, scheme: $0) }
            }
        }
    }
}
