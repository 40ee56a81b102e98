/// A small fleet for the tests of what hosts and environments share: production, staging and
/// development, three hosts each serving the domain `shop`, and two apps (`shop`, `kiosk`) on
/// both platforms, with other IDs in each environment.
enum ThreeEnvironmentFleet {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    /// The fleet's files by path, `domain` as `domains/shop.yaml`.
    static func files(domain: String) -> [String: String] {
        var files = ["domains/shop.yaml": domain]
        for (name, prefix) in [("production", ""), ("staging", "staging."), ("development", "dev.")] {
            let suffix = name == "production" ? "" : ".\(name)"
            var text = "tier: \(name)\nteam_id: ABCDE12345\napps:\n"
            for app in ["shop", "kiosk"] {
                text += "  \(app):\n    ios: {bundle_id: com.example.\(app)\(suffix)}\n"
                text +=
                    "    android: {package: com.example.\(app)\(suffix), fingerprints: {play-signing: \"\(fingerprint)\"}}\n"
            }
            text += "hosts:\n" + (1...3).map { "  \(prefix)h\($0).example: shop\n" }.joined()
            files["environments/\(name).yaml"] = text
        }
        return files
    }
}
