import LinkwrightTestSupport

/// URLs on the hosts of `AndroidHostLookupConfiguration`, whose dynamic rules come from another
/// file than the one of the intent filter claiming them: the Kotlin router must look rules up
/// by the URL's host as `EnvironmentEvaluator` does (AOSP
/// `DomainVerificationService.getUriRelativeFilterGroups`).
enum AndroidHostLookupFixture {
    static let files = AndroidHostLookupConfiguration.files.sorted { $0.key < $1.key }.map {
        (path: $0.key, text: $0.value)
    }

    static func urls(_ samples: RouterSampleURLs) -> [String] {
        let hosts = [
            "example.com", "www.example.com", "shop.example.com", "a.shop.example.com", "eu.example.com",
            "de.eu.example.com", "x.de.eu.example.com", "plain.example.com", "SHOP.Example.com",
        ]
        let paths = ["/account/orders", "/account/", "/gallery", "/", "/eu/x", "/eu/"]
        return samples.ruleSamples() + hosts.flatMap { host in paths.map { "https://\(host)\($0)" } }
    }
}
