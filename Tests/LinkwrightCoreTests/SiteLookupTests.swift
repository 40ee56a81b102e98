import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

@Suite struct SiteLookupTests {
    /// The site a walk over every site finds: the first serving the host by name, else the
    /// first with a wildcard covering it.
    private static func walked(_ environment: CompiledEnvironment, _ host: String) -> CompiledSite? {
        environment.sites.first { $0.servedHosts.contains { $0.name == host } }
            ?? environment.sites.first { site in
                site.servedHosts.contains { $0.isWildcard && host.hasSuffix("." + $0.fileHost.name) }
            }
    }

    /// The index answers as a walk over every site for every host the configurations serve,
    /// the subdomains their wildcards cover, other spellings and hosts they do not serve.
    @Test(arguments: ["", "Tests/LinkwrightCoreTests/Fixtures/golden/kitchen-sink"])
    func answersAsTheLinearLookup(_ folder: String) throws {
        let (configuration, diagnostics) = try loadConfiguration(
            at: RepositoryPaths.root.appendingPathComponent(folder))
        let compiled = Compiler().compile(try #require(configuration, "\(diagnostics)")).compiled
        var asked = 0
        var wildcardAnswers = 0
        for environment in compiled.environments {
            let lookup = SiteLookup(environment)
            let served = environment.sites.flatMap(\.servedHosts)
            let hosts =
                served.flatMap { host in
                    [host.name, host.fileHost.name, "a." + host.fileHost.name, "b.a." + host.fileHost.name]
                        + [host.name.uppercased(), "x" + host.fileHost.name]
                } + ["unknown.invalid", ""]
            for host in hosts {
                let expected = Self.walked(environment, host)
                #expect(lookup.site(serving: host)?.fileHost == expected?.fileHost, "\(environment.name): \(host)")
                #expect(environment.site(serving: host)?.fileHost == expected?.fileHost, "\(environment.name): \(host)")
                asked += 1
                if let expected, !expected.servedHosts.contains(where: { $0.name == host }) { wildcardAnswers += 1 }
            }
        }
        #expect(asked > 20)
        // Some answers come from a wildcard, or the comparison would not test that half.
        #expect(wildcardAnswers > 0)
    }

    /// A wildcard's root serves that wildcard's files even where a wider wildcard of another
    /// domain covers it (`AndroidHostLookupConfiguration`): a claim on `*.eu.example.com` fetches europe's file from
    /// `eu.example.com`, as `EnvironmentEvaluator` reads it, while links on `eu.example.com`
    /// itself are served by `*.example.com`.
    @Test func aNestedWildcardsRootIsFetchedFromItsOwnSite() throws {
        let files = AndroidHostLookupConfiguration.files
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let compiled = Compiler().compile(try #require(configuration, "\(diagnostics)")).compiled
        let lookup = SiteLookup(try #require(compiled.environments.first))
        #expect(lookup.site(fetchedFrom: "eu.example.com")?.domain == "europe")
        #expect(lookup.site(serving: "eu.example.com")?.domain == "example")
        #expect(lookup.site(fetchedFrom: "example.com")?.domain == "example")
    }
}
