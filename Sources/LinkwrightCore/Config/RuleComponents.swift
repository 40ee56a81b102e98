extension Rule {
    /// The component the rule is emitted as; a scheme's routes are matched as these too.
    var aasaComponent: AASAComponent {
        let query: AASAQuery? =
            switch self.query?.value {
            case .whole(let pattern): .whole(pattern)
            case .items(let items): .items(items.map { AASAQueryItem(name: $0.name, pattern: $0.pattern) })
            case nil: nil
            }
        return AASAComponent(
            path: path?.value, query: query, fragment: fragment?.value, exclude: exclude ? true : nil,
            flags: flags.values, comment: comment, origin: location)
    }
}

extension CustomScheme {
    /// The app ID of the one entry a scheme's routes are compiled into; no device reads it.
    static let routesAppID = "scheme"

    /// The scheme's routes as one association-file entry, matched as a domain's rules are.
    var routesMatcher: CompiledAASA {
        let entry = AASADetails(
            appIDs: [Self.routesAppID], components: routes.map(\.aasaComponent), origin: name.location)
        return CompiledAASA(AASADocument(applinks: AppLinksSection(details: [entry])))
    }
}
