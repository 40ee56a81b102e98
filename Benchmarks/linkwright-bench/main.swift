import Foundation
import LinkwrightBenchKit

// linkwright-bench: generates synthetic configurations and histories, and measures linkwright
// against baselines measured in the same run. See `linkwright-bench help`.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    exit(try BenchmarkCommand.run(arguments))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
