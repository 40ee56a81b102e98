// swift-tools-version:6.0
import PackageDescription

// An app's links module built with Linkwright's build-tool plugin: every build regenerates
// MuseoRouter from the example configuration at the top of this repository (found from the
// target's folder up; .linkwright.json in the target chooses the app, environment and access).
let package = Package(
    name: "MuseoLinks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [.library(name: "MuseoLinks", targets: ["MuseoLinks"])],
    dependencies: [.package(name: "Linkwright", path: "../..")],
    targets: [
        .target(name: "MuseoLinks", plugins: [.plugin(name: "LinkwrightRouter", package: "Linkwright")]),
        .testTarget(name: "MuseoLinksTests", dependencies: ["MuseoLinks"]),
    ]
)
