/// The small configuration rule examples start from: a shop with an iOS and an Android app in
/// production and staging. Examples change one thing in it.
enum RuleExampleConfiguration {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let stagingFingerprint =
        "AB:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static let production = """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios:
              bundle_id: com.example.shop
            android:
              package: com.example.shop
              fingerprints:
                play-signing: "\(fingerprint)"
        hosts:
          shop.example: shop

        """

    static let staging = """
        tier: staging
        team_id: ABCDE12345
        entitlements_mode: developer
        apps:
          shop:
            ios:
              bundle_id: com.example.shop.staging
            android:
              package: com.example.shop.staging
              fingerprints:
                upload: "\(stagingFingerprint)"
        hosts:
          staging.shop.example: shop

        """

    static let domain = """
        applinks:
          - apps: [shop]
            rules:
              - path: /admin/*
                exclude: true
              - path: /products/*
        emit:
          android_dynamic_rules: true

        """

    static let files = [
        "environments/production.yaml": production,
        "environments/staging.yaml": staging,
        "domains/shop.yaml": domain,
    ]

    /// The configuration with the shop app of `environment` declaring `schemes` (YAML lines, each
    /// scheme indented by six spaces). In production the first scheme's name is at line 12,
    /// column 7.
    static func declaringSchemes(_ schemes: String, in environment: String = "production") -> [String: String] {
        files.declaringSchemes(schemes, in: environment)
    }

    /// The configuration with `old` replaced by `new` in the file at `path`.
    static func replacing(_ old: String, with new: String, in path: String) -> [String: String] {
        files.replacing(old, with: new, in: path)
    }
}

extension Dictionary where Key == String, Value == String {
    /// These example files with `old` replaced by `new` in the file at `path`.
    func replacing(_ old: String, with new: String, in path: String) -> [String: String] {
        var copy = self
        let text = copy[path] ?? ""
        precondition(text.contains(old), "example text not found in \(path): \(old)")
        copy[path] = text.split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
        return copy
    }

    /// These example files with the shop app of `environment` (the last app there) declaring
    /// `schemes`.
    func declaringSchemes(_ schemes: String, in environment: String) -> [String: String] {
        replacing("hosts:\n", with: "    schemes:\n" + schemes + "hosts:\n", in: "environments/\(environment).yaml")
    }

    /// These example files with `text` added at the end of the file at `path`.
    func appending(_ text: String, to path: String) -> [String: String] {
        var copy = self
        copy[path, default: ""] += text
        return copy
    }
}
