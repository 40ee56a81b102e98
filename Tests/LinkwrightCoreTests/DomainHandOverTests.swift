import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// `build` writes each domain's files while the other domains compile
/// (`Compiler.compile(eachDomain:)`): what is handed over early must be exactly what the
/// environment compiles to, each site once and before its environment.
@Suite struct DomainHandOverTests {
    private enum Event: Sendable {
        case domain(DomainSites)
        case environment(String)
    }

    static let configurations = [
        RepositoryPaths.root,
        GoldenArtifactTests.goldenFolder.appendingPathComponent("kitchen-sink"),
    ]

    /// The configuration in `folder` compiled, and what `eachDomain` and `each` made of what
    /// they were handed, in the order they were called.
    private static func compile<Made: Sendable>(
        _ folder: URL, eachDomain: @escaping @Sendable (DomainSites) -> [Made],
        each: @escaping (CompiledEnvironment) -> [Made]
    ) throws -> (CompiledConfiguration, [Made]) {
        let (loaded, diagnostics) = try loadConfiguration(at: folder)
        let configuration = try #require(loaded, "\(diagnostics)")
        let made = LockedValue<[Made]>([])
        let (compiled, _) = Compiler().compile(
            configuration, eachDomain: { sites in made.withLock { $0 += eachDomain(sites) } },
            each: { environment in made.withLock { $0 += each(environment) } })
        return (compiled, made.withLock { $0 })
    }

    @Test(arguments: configurations)
    func everySiteIsHandedOverOnceBeforeItsEnvironment(folder: URL) throws {
        let (compiled, recorded) = try Self.compile(
            folder, eachDomain: { [Event.domain($0)] }, each: { [Event.environment($0.name)] })
        #expect(compiled.environments.count > 1)
        var handedOver: [String: [CompiledSite]] = [:]
        var finished: [String] = []
        for event in recorded {
            switch event {
            case .domain(let domain):
                #expect(!finished.contains(domain.environment), "\(domain.environment) handed over after it finished")
                #expect(Set(domain.sites.map(\.domain)).count <= 1, "one domain per hand-over")
                handedOver[domain.environment, default: []] += domain.sites
            case .environment(let name):
                finished.append(name)
            }
        }
        #expect(finished == compiled.environments.map(\.name))
        for environment in compiled.environments {
            let early = handedOver[environment.name] ?? []
            #expect(early.count == environment.sites.count, "\(environment.name): every site, once")
            let byHost = Dictionary(uniqueKeysWithValues: environment.sites.map { ($0.fileHost, $0) })
            for site in early {
                let compiledSite = try #require(byHost[site.fileHost], "\(site.fileHost) is no site of the environment")
                #expect(site.domain == compiledSite.domain && site.servedHosts == compiledSite.servedHosts)
                #expect(site.aasa == compiledSite.aasa && site.assetLinks == compiledSite.assetLinks)
            }
        }
    }

    /// The files rendered a domain at a time, with the apps' files after, are the environment's
    /// files rendered whole.
    @Test(arguments: configurations)
    func filesRenderedADomainAtATimeAreTheEnvironmentsFiles(folder: URL) throws {
        let (compiled, pieces) = try Self.compile(
            folder, eachDomain: ArtifactRenderer.render, each: ArtifactRenderer.renderAppFiles)
        let whole = ArtifactRenderer.render(compiled)
        let inPieces = pieces.sorted { ($0.environment, $0.path) < ($1.environment, $1.path) }
        #expect(!whole.isEmpty)
        #expect(inPieces == whole.sorted { ($0.environment, $0.path) < ($1.environment, $1.path) })
    }
}
