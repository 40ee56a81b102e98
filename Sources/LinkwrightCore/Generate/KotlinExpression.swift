/// Kotlin written on one line when it fits, else as a call broken one argument a line.
indirect enum KotlinExpression {
    case text(String)
    /// `head(arguments)`: `head` may be `path = Pattern` or `return Ticket`.
    case call(String, [KotlinExpression])

    var flat: String {
        switch self {
        case .text(let text): text
        case .call(let head, let arguments): head + "(" + arguments.map(\.flat).joined(separator: ", ") + ")"
        }
    }
}

extension CodeText {
    /// `expression` at `indent`, followed by `last`. A call that does not fit gets an argument a
    /// line, each broken again when it does not fit, and its `)` on a line of its own: Kotlin 1.3
    /// takes no comma after the last argument.
    mutating func expression(_ expression: KotlinExpression, indent: String, last: String) {
        let single = indent + expression.flat + last
        guard case .call(let head, let arguments) = expression, single.count > SwiftRouterWriter.lineLength,
            !arguments.isEmpty
        else {
            line(single)
            return
        }
        line(indent + head + "(")
        for (index, argument) in arguments.enumerated() {
            self.expression(argument, indent: indent + "    ", last: index < arguments.count - 1 ? "," : "")
        }
        line(indent + ")" + last)
    }
}
