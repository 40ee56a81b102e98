import Foundation

/// A real browser's view of what linkwright writes for people: headless chromium lays out a
/// page, and scripts in it measure the layout or read the DOM back (`--dump-dom`). Markdown is
/// turned into HTML by python's `markdown` package, with GitHub's table and code styles.
public enum BrowserCheck {
    public static var chromium: URL? { InstalledTool.path("chromium") ?? InstalledTool.path("chromium-browser") }

    /// Whether chromium and python's markdown package are installed.
    public static let available: Bool = {
        guard chromium != nil, let python = InstalledTool.path("python3") else { return false }
        return (try? runProcess(python, ["-c", "import markdown"]).status) == 0
    }()

    public static let missing =
        "chromium or python's markdown package is not installed (apt-get install chromium; pip install markdown)"

    /// The page as chromium's DOM holds it once its scripts ran, `width` pixels wide.
    public static func dumpDOM(html: String, width: Int) throws -> String {
        try String(decoding: chromium(html: html, size: "\(width),2000", output: nil), as: UTF8.self)
    }

    /// A PNG of the page as chromium draws it, `width` by `height` pixels.
    public static func screenshot(html: String, width: Int, height: Int) throws -> Data {
        try chromium(html: html, size: "\(width),\(height)", output: "page.png")
    }

    /// Runs headless chromium on `html` in a throwaway folder, with a window of `size`: the
    /// DOM it dumps, or the screenshot it writes to `output` there.
    private static func chromium(html: String, size: String, output: String?) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linkwright-browser-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.html")
        try Data(html.utf8).write(to: page)
        let what = output.map { "--screenshot=\(folder.appendingPathComponent($0).path)" } ?? "--dump-dom"
        let result = try runProcess(
            chromium!,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile",
                "--window-size=\(size)", what, page.absoluteString,
            ], timeout: 120)
        guard result.status == 0 else { throw BrowserFailure(description: "chromium failed: \(result)") }
        return try output.map { try Data(contentsOf: folder.appendingPathComponent($0)) } ?? Data(result.stdout.utf8)
    }

    /// Each table's (scrollWidth, clientWidth) in pixels, `markdown` rendered as GitHub styles a
    /// comment `width` pixels wide: a table wider than its box scrolls sideways.
    public static func tableWidths(markdown: String, width: Int) throws -> [(Int, Int)] {
        let script = """
            import markdown, sys
            sys.stdout.write(markdown.markdown(sys.stdin.read(), extensions=["tables", "md_in_html"]))
            """
        let converted = try runProcess(
            InstalledTool.path("python3")!, ["-c", script], input: Data(markdown.utf8), timeout: 60)
        guard converted.status == 0 else { throw BrowserFailure(description: "markdown failed: \(converted)") }
        // GitHub's comment body: 14 px system font, 16 px padding, tables as scrolling blocks.
        let html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><style>
            body { font-family: -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; font-size: 14px;
                   line-height: 1.5; margin: 0; padding: 16px; width: \(width)px; box-sizing: border-box; }
            table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
            td, th { padding: 6px 13px; border: 1px solid #d1d9e0; }
            code { font-family: ui-monospace, Menlo, monospace; font-size: 85%; white-space: break-spaces; }
            </style></head><body>\(converted.stdout)
            <script>
            document.body.setAttribute("data-widths", JSON.stringify(
                [...document.querySelectorAll("table")].map(t => [t.scrollWidth, t.clientWidth])));
            </script></body></html>
            """
        let dom = try dumpDOM(html: html, width: width)
        guard let match = dom.firstMatch(of: /data-widths="([^"]*)"/) else {
            throw BrowserFailure(description: "no widths in the page")
        }
        let json = String(match.output.1).replacingOccurrences(of: "&quot;", with: "\"")
        let pairs = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Int]] ?? []
        return pairs.map { ($0[0], $0[1]) }
    }

    public struct BrowserFailure: Error, CustomStringConvertible {
        public var description: String
    }
}
