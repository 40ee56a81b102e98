import Foundation
import Testing

@testable import LinkwrightCore

/// Each iOS app's associated domains, compiled from the services each domain names it in (found
/// once per domain), are those a walk over every service and host finds: seeded configurations
/// of three domains naming random apps in their entries and service lists, served on exact and
/// `*.` hosts, in developer mode or not.
@Suite struct AssociatedDomainsTests {
    static let apps = ["shop", "news", "clip"]
    /// The apps a domain may name for each service: an App Clip for App Clips, the others for
    /// the rest.
    static func candidates(for service: AssociatedService) -> [String] {
        service == .appclips ? ["clip"] : ["shop", "news"]
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func associatedDomainsAreWhatEveryServiceAndHostGive(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        func someApps(_ service: AssociatedService) -> [String] {
            Self.candidates(for: service).filter { _ in Bool.random(using: &generator) }
        }
        var domains: [String: [AssociatedService: [String]]] = [:]
        var files: [String: String] = [:]
        for domain in ["d0", "d1", "d2"] {
            var named: [AssociatedService: [String]] = [:]
            var text = "applinks:\n"
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let listed = someApps(.applinks)
                guard !listed.isEmpty else { continue }
                named[.applinks, default: []] += listed
                text += "  - apps: [\(listed.joined(separator: ", "))]\n    rules:\n      - path: /p/*\n"
            }
            if named[.applinks] == nil {
                named[.applinks] = ["shop"]
                text += "  - apps: [shop]\n    rules:\n      - path: /p/*\n"
            }
            for service in AssociatedService.appListServices {
                let listed = someApps(service)
                guard !listed.isEmpty else { continue }
                named[service] = listed
                text += "\(service.rawValue): [\(listed.joined(separator: ", "))]\n"
            }
            domains[domain] = named
            files["domains/\(domain).yaml"] = text
        }
        var hosts: [(host: String, domain: String)] = []
        for index in 0..<Int.random(in: 2...8, using: &generator) {
            let domain = ["d0", "d1", "d2"].randomElement(using: &generator)!
            hosts.append(((Bool.random(using: &generator) ? "*." : "") + "h\(index).example", domain))
        }
        let developer = Bool.random(using: &generator)
        let apps = Self.apps.map { app in
            let clip = app == "clip" ? "      app_clip: true\n" : ""
            return "  \(app):\n    ios:\n      bundle_id: com.example.\(app)\n" + clip
        }
        files["environments/production.yaml"] =
            "tier: production\nteam_id: ABCDE12345\n" + (developer ? "entitlements_mode: developer\n" : "")
            + "apps:\n" + apps.joined() + "hosts:\n" + hosts.map { "  \"\($0.host)\": \($0.domain)\n" }.joined()
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        let compiled = try #require(Compiler().compile(loaded).compiled.environments.first)
        for app in Self.apps {
            var expected: [String] = []
            for service in AssociatedService.allCases {
                for (host, domain) in hosts
                where (service.allowsWildcardHosts || !host.hasPrefix("*."))
                    && domains[domain]![service]?.contains(app) == true
                {
                    expected.append("\(service.rawValue):\(host)" + (developer ? "?mode=developer" : ""))
                }
            }
            let ios = try #require(compiled.iosApps.first { $0.name == app })
            #expect(ios.associatedDomains == expected, "seed \(seed), \(app)")
        }
    }
}
