// swift-tools-version:6.0
import PackageDescription

// Layers, from the inside out:
//   LinkwrightCore  pure: YAML text -> model -> validation -> compiled artifacts, matching, diffs.
//                   It reads no disk, clock or network (libyaml parses bytes already in memory).
//   LinkwrightIO    the edges: working tree and git revisions (libgit2), HTTP (libcurl), atomic writes.
//   LinkwrightCLI   argument parsing, one type per subcommand, printers for diagnostics.
//   linkwright      the executable: a few lines that call LinkwrightCLI.
//   LinkwrightRouter  the SwiftPM build-tool plugin that runs linkwright generate swift on every
//                   build of an app's target (docs/build-integration.md).
let package = Package(
    name: "Linkwright",
    // macOS 15: `Synchronization` (`Atomic` in LazyRuleIndex and parallelMap) needs it, and it is
    // what every Xcode that builds Swift 6 runs on. CI builds and tests on macos-15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "linkwright", targets: ["linkwright"]),
        .library(name: "LinkwrightCore", targets: ["LinkwrightCore"]),
        .plugin(name: "LinkwrightRouter", targets: ["LinkwrightRouter"]),
    ],
    targets: [
        .systemLibrary(name: "CYaml", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "LinkwrightCore", dependencies: ["CYaml"]),
        .target(name: "LinkwrightIO", dependencies: ["LinkwrightCore", "CGit2", "CCurl", "CZlib"]),
        .target(name: "LinkwrightCLI", dependencies: ["LinkwrightCore", "LinkwrightIO"]),
        .executableTarget(name: "linkwright", dependencies: ["LinkwrightCLI"]),
        .plugin(name: "LinkwrightRouter", capability: .buildTool(), dependencies: ["linkwright"]),
        // libFuzzer harnesses: build with `scripts/fuzz.sh` (swift build --product X --sanitize fuzzer).
        // In a normal build they link as executables that do nothing.
        .executableTarget(name: "fuzz-config", dependencies: ["LinkwrightCore"], path: "Fuzz/config"),
        .executableTarget(name: "fuzz-association", dependencies: ["LinkwrightCore"], path: "Fuzz/association"),
        // Benchmarks: a scale generator, baselines and the harness (scripts/benchmark.sh). The fleet
        // benchmark serves its hosts from the tests' nginx harness, with its throwaway certificates.
        .target(
            name: "LinkwrightBenchKit",
            dependencies: ["LinkwrightCore", "LinkwrightIO", "CYaml", "LinkwrightTestSupport"],
            path: "Benchmarks/Kit"),
        .executableTarget(
            name: "linkwright-bench", dependencies: ["LinkwrightBenchKit"], path: "Benchmarks/linkwright-bench"),
        .target(
            name: "LinkwrightTestSupport", dependencies: ["LinkwrightCore", "LinkwrightIO"], path: "Tests/Support"),
        .testTarget(
            name: "LinkwrightCoreTests",
            // CYaml: the YAML subset scanner's tests compare its events with libyaml's own.
            dependencies: ["LinkwrightCore", "LinkwrightTestSupport", "CYaml"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LinkwrightIOTests",
            dependencies: ["LinkwrightIO", "LinkwrightTestSupport"]
        ),
        .testTarget(
            name: "LinkwrightEndToEndTests",
            dependencies: [
                "linkwright", .target(name: "linkwright-bench"), "LinkwrightBenchKit", "LinkwrightTestSupport",
                "LinkwrightCore", "LinkwrightCLI",
            ],
            exclude: ["Golden", "Fixtures"]
        ),
    ]
)
