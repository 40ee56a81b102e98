# Homebrew formula, in a tap's layout: `brew install linkwright/tap/linkwright` once release.yml
# has copied it, with the tag's URL and checksum filled in by scripts/fill-formula.sh, to the
# linkwright/homebrew-tap repository. Builds from the tagged source with Xcode's Swift.
class Linkwright < Formula
  desc "iOS Universal Links and Android App Links as configuration-as-code"
  homepage "https://github.com/linkwright/linkwright"
  url "https://github.com/linkwright/linkwright/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/linkwright/linkwright.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on macos: :sequoia
  depends_on "libgit2"
  depends_on "libyaml"

  uses_from_macos "curl"
  uses_from_macos "zlib"

  def install
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "linkwright"
    bin.install ".build/release/linkwright"
  end

  test do
    assert_equal "linkwright #{version}", shell_output("#{bin}/linkwright --version").strip
    system bin/"linkwright", "init", "--host", "shop.example", "--team-id", "A1B2C3D4E5",
           "--bundle-id", "com.example.shop", "--path", "/products/*", "--exclude", "/account/*"
    system bin/"linkwright", "build"
    system bin/"linkwright", "test"
    aasa = "dist/production/shop.example/.well-known/apple-app-site-association"
    decided = shell_output("#{bin}/linkwright match --aasa #{aasa} https://shop.example/products/42 " \
                           "https://shop.example/account/settings")
    assert_match "match\tA1B2C3D4E5.com.example.shop\thttps://shop.example/products/42", decided
    assert_match "exclude\tA1B2C3D4E5.com.example.shop\thttps://shop.example/account/settings", decided
  end
end
