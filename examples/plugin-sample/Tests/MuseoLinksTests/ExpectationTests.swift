import Foundation
import MuseoLinks
import Testing

/// The expectations of domains/museo.yaml in production, routed through the router the plugin
/// generated: the same answers `linkwright test` checks against the association files.
struct ExpectationTests {
    static let hosts = ["museo.example", "entradas.museo.example", "sala.museo.example"]

    @Test(arguments: hosts) func linksOpenTheirScreens(host: String) throws {
        let expected: [(String, MuseoDestination?)] = [
            ("/exhibitions/monet", .exhibition(slug: "monet")),
            ("/exhibitions", .exhibition(slug: nil)),
            ("/admin/login", nil),
            ("/tickets/annual", nil),
            ("/tickets/annual?source=newsletter", .ticket(id: "annual", source: "newsletter")),
            ("/es/coleccion/goya", .collection(lang: "es", section: "coleccion", artwork: "goya")),
            ("/en/collection/turner", .collection(lang: "en", section: "collection", artwork: "turner")),
            ("/es/tienda/postales", nil),
            ("/preview/verano", nil),
        ]
        for (path, destination) in expected {
            let url = try #require(URL(string: "https://\(host)\(path)"))
            #expect(MuseoRouter.destination(for: url) == destination, "\(url)")
        }
    }

    @Test func theSchemeRoutesToo() throws {
        let url = try #require(URL(string: "com.example.museo:/tickets/annual?source=kiosk"))
        #expect(MuseoRouter.destination(for: url) == .ticket(id: "annual", source: "kiosk"))
        #expect(screenTitle(for: url) == "Ticket annual from kiosk")
    }

    @Test func anotherHostOpensNothing() throws {
        #expect(MuseoRouter.destination(for: try #require(URL(string: "https://example.com/exhibitions/monet"))) == nil)
    }
}
