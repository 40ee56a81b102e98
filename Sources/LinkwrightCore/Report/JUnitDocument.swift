/// A JUnit XML report: the one writer behind every `--format junit` (`check`, `diff`, `verify`,
/// `test`). Values are given as read; rendering escapes every one (`XMLText.printable`), so no
/// input can break the XML or reach a log viewer as a control character.
public struct JUnitDocument: Sendable, Equatable {
    public struct Suite: Sendable, Equatable {
        public var name: String
        public var cases: [TestCase]

        public init(name: String, cases: [TestCase]) {
            self.name = name
            self.cases = cases
        }
    }

    public struct TestCase: Sendable, Equatable {
        public var className: String
        public var name: String
        public var failure: Failure?
        /// Lines shown for a passing case (findings that did not block).
        public var output: [String]
        /// Where the case's cause is written, as the `file` and `line` attributes GitLab, Jenkins
        /// and the JUnit annotators read to link a case to its source.
        public var file: String?
        public var line: Int?

        public init(
            className: String, name: String, failure: Failure? = nil, output: [String] = [], file: String? = nil,
            line: Int? = nil
        ) {
            self.className = className
            self.name = name
            self.failure = failure
            self.output = output
            self.file = file
            self.line = line
        }
    }

    public struct Failure: Sendable, Equatable {
        public var message: String
        public var type: String?
        /// The failure's body, one line each.
        public var lines: [String]

        public init(message: String, type: String? = nil, lines: [String]) {
            self.message = message
            self.type = type
            self.lines = lines
        }
    }

    public var name: String
    public var suites: [Suite]

    public init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }

    public func rendered() -> String {
        var text = ""
        render { text += $0 }
        return text
    }

    /// What `rendered()` returns, handed to `write` a case at a time: a report of thousands of
    /// cases reaches standard output without being one string first.
    public func render(to write: (String) -> Void) {
        func attribute(_ name: String, _ value: String) -> String { " \(name)=\"\(XMLText.printable(value))\"" }
        func counts(_ cases: [TestCase]) -> String {
            attribute("tests", String(cases.count))
                + attribute("failures", String(cases.filter { $0.failure != nil }.count))
        }
        func body(_ lines: [String]) -> String { lines.map(XMLText.printable).joined(separator: "\n") }
        write(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuites\(attribute("name", name))\(counts(suites.flatMap(\.cases)))>\n")
        for suite in suites {
            write("  <testsuite\(attribute("name", suite.name))\(counts(suite.cases))>\n")
            for testCase in suite.cases {
                var text =
                    "    <testcase\(attribute("classname", testCase.className))\(attribute("name", testCase.name))"
                    + (testCase.file.map { attribute("file", $0) } ?? "")
                    + (testCase.line.map { attribute("line", String($0)) } ?? "")
                if let failure = testCase.failure {
                    text +=
                        ">\n      <failure\(attribute("message", failure.message))"
                        + (failure.type.map { attribute("type", $0) } ?? "")
                        + ">\(body(failure.lines))</failure>\n    </testcase>\n"
                } else if !testCase.output.isEmpty {
                    text += ">\n      <system-out>\(body(testCase.output))</system-out>\n    </testcase>\n"
                } else {
                    text += "/>\n"
                }
                write(text)
            }
            write("  </testsuite>\n")
        }
        write("</testsuites>\n")
    }
}
