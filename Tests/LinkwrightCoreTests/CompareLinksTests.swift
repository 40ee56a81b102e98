import LinkwrightCore
import Testing

/// Release notes link to the forge's comparison page for the remotes people configure.
@Suite struct CompareLinksTests {
    @Test(arguments: [
        ("https://github.com/acme/shop.git", "https://github.com/acme/shop/compare/v1.4...v1.5"),
        ("git@github.com:acme/shop.git", "https://github.com/acme/shop/compare/v1.4...v1.5"),
        ("ssh://git@github.com/acme/shop", "https://github.com/acme/shop/compare/v1.4...v1.5"),
        ("https://token@github.com/acme/shop/", "https://github.com/acme/shop/compare/v1.4...v1.5"),
        ("https://gitlab.com/acme/mobile/shop.git", "https://gitlab.com/acme/mobile/shop/-/compare/v1.4...v1.5"),
        ("git@gitlab.example.com:acme/shop.git", "https://gitlab.example.com/acme/shop/-/compare/v1.4...v1.5"),
        ("ssh://git@gitlab.com:2222/acme/shop.git", "https://gitlab.com/acme/shop/-/compare/v1.4...v1.5"),
        ("git@bitbucket.org:acme/shop.git", "https://bitbucket.org/acme/shop/branches/compare/v1.5%0Dv1.4"),
    ])
    func knownForgesGetACompareLink(_ remote: String, _ expected: String) throws {
        let links = try #require(CompareLinks(remote: remote))
        #expect(links.url(from: "v1.4", to: "v1.5") == expected)
    }

    @Test(arguments: [
        "https://git.example.com/acme/shop.git", "/srv/git/shop.git", "file:///srv/git/shop.git", "github.com",
        "https://github.com/acme", "git@github.com:acme/sh\"op.git",
    ])
    func otherRemotesGetNone(_ remote: String) {
        #expect(CompareLinks(remote: remote) == nil)
    }

    @Test func tagNamesAreEscaped() throws {
        let links = try #require(CompareLinks(remote: "https://github.com/acme/shop"))
        #expect(
            links.url(from: "release/1 a", to: "v2+b")
                == "https://github.com/acme/shop/compare/release%2F1%20a...v2%2Bb")
    }
}
