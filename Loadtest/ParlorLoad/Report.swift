import Foundation

/// Where and when a run happened, for comparing runs: the machine is shared, so its load matters.
struct RunContext: Codable, Sendable {
    var startedAt: String
    var command: [String]
    var cores: Int
    var loadAverageAtStart: [Double]
    var loadAverageAtEnd: [Double] = []
    /// Ended early by Ctrl-C.
    var interrupted = false

    static func now() -> RunContext {
        RunContext(
            startedAt: ISO8601DateFormatter().string(from: Date()), command: CommandLine.arguments,
            cores: ProcessInfo.processInfo.activeProcessorCount, loadAverageAtStart: ProcessStats.loadAverage)
    }
}

/// Memory and CPU of a process during a run (the server with `--server-pid`, and the generator).
struct ProcessUsage: Codable, Sendable {
    var pid: String
    var residentBytesAtStart: Int?
    var residentBytesLoaded: Int?
    var residentBytesAtEnd: Int?
    /// Share of one core used during the measured phase (2.0 = both cores of a 2-core machine).
    var cpuCores: Double?
    /// The event loops (threads) its connections ran on; the generator's only.
    var eventLoops: Int?
}

/// Writes the JSON report (sorted keys, so runs diff cleanly).
func writeJSON(_ report: some Encodable, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(report).write(to: URL(fileURLWithPath: path))
}

/// A plain text table for the final report.
struct TextTable {
    private var rows: [[String]] = []

    init(_ header: [String]) {
        rows.append(header)
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    mutating func add(_ name: String, _ summary: LatencySummary) {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        rows.append([
            name, String(summary.count), ms(summary.p50), ms(summary.p90), ms(summary.p99), ms(summary.p999), ms(summary.max),
        ])
    }

    static func latencyTable() -> TextTable {
        TextTable(["latency (ms)", "count", "p50", "p90", "p99", "p99.9", "max"])
    }

    var text: String {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, cell) in row.enumerated() {
                if index < widths.count { widths[index] = max(widths[index], cell.count) } else { widths.append(cell.count) }
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == 0
                    ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

/// "name: count" lines for a tally, largest first; "none" when empty.
func describeTally(_ tally: [String: Int]) -> String {
    guard !tally.isEmpty else { return "none" }
    return tally.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        .map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
}

func formatBytes(_ bytes: Int?) -> String {
    guard let bytes else { return "-" }
    let value = Double(bytes)
    let (kibi, mebi, gibi) = (1024.0, 1024.0 * 1024, 1024.0 * 1024 * 1024)
    if abs(value) >= gibi { return String(format: "%.2f GiB", value / gibi) }
    if abs(value) >= mebi { return String(format: "%.1f MiB", value / mebi) }
    if abs(value) >= kibi { return String(format: "%.1f KiB", value / kibi) }
    return "\(bytes) B"
}

func formatRate(_ value: Double) -> String {
    String(format: "%.0f", value)
}

func formatMilliseconds(_ value: Double?) -> String {
    value.map { String(format: "%.1f ms", $0) } ?? "-"
}
