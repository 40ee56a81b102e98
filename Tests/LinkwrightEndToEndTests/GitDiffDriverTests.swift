import Foundation
import LinkwrightTestSupport
import Testing

/// git runs `linkwright git-diff-driver` for the files `.gitattributes` assigns to it.
@Suite struct GitDiffDriverTests {
    private func repository() throws -> GitFixture {
        let fixture = try GitFixture()
        let binary = RepositoryPaths.products.appendingPathComponent("linkwright").path
        try fixture.git("config", "diff.linkwright.command", "\(binary) git-diff-driver --host shop.example")
        try fixture.commit(
            "Shop",
            ShopConfiguration.files().merging([
                ".gitattributes": "domains/*.yaml diff=linkwright\napple-app-site-association diff=linkwright\n",
                "site/apple-app-site-association":
                    #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/products/*"}]}]}}"#,
            ]) { $1 })
        return fixture
    }

    @Test func gitDiffShowsBehaviourForAConfigurationFile() throws {
        let fixture = try repository()
        try fixture.write([
            "domains/shop.yaml": ShopConfiguration.domain.replacingOccurrences(
                of: "      - path: /products/*\n", with: "      - path: /products/*\n      - path: /offers/*\n")
        ])
        let diff = try fixture.git("diff")
        #expect(diff.contains("linkwright: domains/shop.yaml"), "\(diff)")
        #expect(diff.contains("production shop.example ios: rule added for ABCDE12345.com.example.shop: /offers/*"))
        #expect(diff.contains("now opens ABCDE12345.com.example.shop (was web)"))
        #expect(diff.contains("e.g. https://shop.example/offers/"))
    }

    @Test func gitLogShowsBehaviourForAnAssociationFile() throws {
        let fixture = try repository()
        try fixture.commit(
            "Exclude internal products",
            [
                "site/apple-app-site-association":
                    #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/products/internal/*", "exclude": true}, {"/": "/products/*"}]}]}}"#
            ])
        let log = try fixture.git("log", "-p", "--ext-diff", "-1", "--format=%s")
        #expect(log.contains("linkwright: site/apple-app-site-association"), "\(log)")
        #expect(log.contains("rule added for ABCDE12345.com.example.shop: /products/internal/* (exclude)"))
        #expect(log.contains("now stays on the web (opened ABCDE12345.com.example.shop)"))
    }

    @Test func aBrokenVersionIsSaidAndGitCarriesOn() throws {
        let fixture = try repository()
        try fixture.write(["site/apple-app-site-association": "{ not json\n"])
        let diff = try fixture.git("diff")
        #expect(diff.contains("the new version cannot be compared: site/apple-app-site-association is not valid JSON"))
    }

    @Test func anAddedFileIsComparedWithNothing() throws {
        let fixture = try repository()
        try fixture.commit(
            "Serve a second site",
            [
                "other/apple-app-site-association":
                    #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/x"}]}]}}"#
            ])
        // git names /dev/null for the side where the file does not exist.
        let log = try fixture.git("log", "-p", "--ext-diff", "-1", "--format=%s")
        #expect(log.contains("linkwright: other/apple-app-site-association"), "\(log)")
        #expect(log.contains("ios: app added: ABCDE12345.com.example.shop (applinks)"), "\(log)")
    }
}
