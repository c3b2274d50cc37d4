import Foundation

/// What Linux's `/proc` says about a process (the server, given `--server-pid`, or the generator itself)
/// and the machine: resident memory, CPU time, open-file limit, load average.
struct ProcessStats: Sendable {
    /// `self` or a process id.
    let pid: String

    static let current = ProcessStats(pid: "self")

    init(pid: String) {
        self.pid = pid
    }

    init(pid: Int32) {
        self.pid = String(pid)
    }

    var exists: Bool { FileManager.default.fileExists(atPath: "/proc/\(pid)/status") }

    /// Resident set size in bytes (`VmRSS`).
    var residentBytes: Int? {
        statusField("VmRSS").map { $0 * 1024 }
    }

    /// Threads of the process right now (`Threads`).
    var threads: Int? {
        statusField("Threads")
    }

    /// The first number of a `/proc/PID/status` line (`VmRSS:   40960 kB` → 40960).
    private func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
        else { return nil }
        let fields = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
        return fields.first.flatMap { Int($0) }
    }

    /// User plus system CPU time, in seconds.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The soft "Max open files" limit.
    var openFileLimit: Int? {
        guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
            let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        let fields = line.dropFirst("Max open files".count).split(separator: " ", omittingEmptySubsequences: true)
        return fields.first.flatMap { Int($0) }
    }

    /// Open file descriptors right now.
    var openFiles: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` gives them.
    static var loadAverage: [Double] {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return [] }
        return text.split(separator: " ").prefix(3).compactMap { Double($0) }
    }

    /// The local port range connections draw from (`net.ipv4.ip_local_port_range`).
    static var ephemeralPortCount: Int? {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        else { return nil }
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        guard bounds.count == 2 else { return nil }
        return bounds[1] - bounds[0] + 1
    }
}

/// CPU use over an interval, as a share of one core (1.0 = one core busy all the time).
struct CPUSampler: Sendable {
    private let stats: ProcessStats
    private let startCPU: Double?
    private let startTime: ContinuousClock.Instant

    init(_ stats: ProcessStats) {
        self.stats = stats
        startCPU = stats.cpuSeconds
        startTime = .now
    }

    var coresUsed: Double? {
        guard let startCPU, let now = stats.cpuSeconds else { return nil }
        let elapsed = (ContinuousClock.now - startTime).seconds
        return elapsed > 0 ? (now - startCPU) / elapsed : nil
    }
}
