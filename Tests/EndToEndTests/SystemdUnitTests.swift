import Foundation
import ParlorTestSupport
import Testing
import WebSocketCore

/// `deploy/parlor.service` as an operator installs it: `systemd-analyze verify` passes on it, and the
/// system calls the real server makes — starting, serving a game over WebSocket and HTTP, stopping on
/// SIGTERM — are all inside its `SystemCallFilter=` (run as an unprivileged user, as `DynamicUser=`
/// runs it, and counted with `strace`).
@Suite(.serialized) struct SystemdUnitTests {
    static let unitPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/parlor.service").path

    /// The unit with its `ExecStart=` pointing at the server the tests built (verify checks that the
    /// program exists), in a directory of its own.
    static func installedUnit() throws -> (directory: String, unit: String) {
        let text = try String(contentsOfFile: unitPath, encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/parlor-server "))
        let directory = NSTemporaryDirectory() + "parlor-unit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let unit = directory + "/parlor.service"
        try text.replacingOccurrences(of: "/usr/local/bin/parlor-server", with: BuiltProducts.url("parlor-server").path)
            .write(toFile: unit, atomically: true, encoding: .utf8)
        return (directory, unit)
    }

    @Test func systemdAnalyzeVerifyPassesOnTheUnit() async throws {
        let (directory, unit) = try Self.installedUnit()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let verified = try await ExternalProcess.run(["systemd-analyze", "verify", unit])
        #expect(verified.status == 0, "\(verified.stderr)")
        // Warnings (an unknown setting, a misspelt section) are printed even when the status is 0.
        #expect(verified.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(verified.stderr)")
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        for setting in [
            "DynamicUser=yes", "ProtectSystem=strict", "PrivateTmp=yes", "NoNewPrivileges=yes", "StateDirectory=parlor",
            "ExecReload=/bin/kill -HUP $MAINPID", "SystemCallFilter=@system-service",
        ] {
            #expect(text.contains(setting), "the unit sets \(setting)")
        }
        // The stop timeout covers the server's shutdown grace and a node's drain notice.
        let timeout = try #require(Self.setting("TimeoutStopSec", in: text).flatMap { Int($0) })
        #expect(timeout > 10 + 3, "TimeoutStopSec=\(timeout) covers --shutdown-grace 10 and --drain-notice 3")
    }

    @Test func everySystemCallTheServerMakesIsInTheUnitsFilter() async throws {
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        let allowed = try await Self.allowedSystemCalls(filters: text.split(separator: "\n").compactMap { line in
            line.hasPrefix("SystemCallFilter=") ? String(line.dropFirst("SystemCallFilter=".count)) : nil
        })
        #expect(allowed.contains("epoll_wait") && !allowed.contains("setuid") && !allowed.contains("reboot"))

        let directory = NSTemporaryDirectory() + "parlor-strace-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summary = directory + "/syscalls.txt"
        // As root, the server runs as `nobody` (strace -u), as DynamicUser= would run it: a root process
        // makes calls (SQLite's fchown of its journal) that the service never does.
        var asUser: [String] = []
        if geteuid() == 0 {
            asUser = ["-u", "nobody"]
            chmod(directory, 0o777)
            chmod(directory + "/data", 0o777)
        }
        let traced = try ChildProcess(
            executable: "/usr/bin/strace",
            ["-f", "-qq", "-c", "-o", summary] + asUser + [
                BuiltProducts.url("parlor-server").path, "--port", "0", "--data-dir", directory + "/data",
                "--places", "none", "--log-level", "warning", "--log-format", "json", "--shutdown-grace", "2",
            ],
            name: "parlor-server under strace")
        let (_, line) = try await traced.waitForLine(timeout: .seconds(90), "listening on HOST:PORT") { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        // A game: two players, a room, a change, HTTP beside it.
        try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/ws") { ws in
            let ann = JSONConnection(ws)
            try await ann.hello(token: nil)
            let created = try await ann.call("createRoom", ["pointLimit": 100, "pointValue": 1, "playerCount": 2, "playerName": "Ann"])
            let code = try #require((created["result"] as? [String: Any]).flatMap { ($0["room"] as? [String: Any])?["id"] as? String }, "\(created)")
            _ = try await ann.call("observeRoom", ["code": code])
            try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)/ws") { other in
                let bo = JSONConnection(other)
                try await bo.hello(token: nil)
                let joined = try await bo.call("joinRoom", ["code": code, "playerName": "Bo"])
                #expect(joined["result"] != nil, "\(joined)")
            }
        }
        let health = try await curl(["http://127.0.0.1:\(port)/healthz"])
        #expect(health.status == 200)
        // Stop it as systemd does: SIGTERM to the main process (strace's child).
        let server = try #require(Self.children(of: traced.pid).first, "the server under strace")
        kill(server, SIGTERM)
        #expect(await traced.waitForExit(timeout: .seconds(60)) == 0, "\(traced.standardError)")

        let used = try Self.systemCalls(inSummary: String(contentsOfFile: summary, encoding: .utf8))
        #expect(used.count > 20 && used.contains("epoll_wait"), "\(used.sorted())")
        let outside = used.subtracting(allowed)
        #expect(outside.isEmpty, "system calls the unit's filter refuses: \(outside.sorted())")
    }

    // MARK: Helpers

    static func setting(_ name: String, in unit: String) -> String? {
        unit.split(separator: "\n").last { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// The system calls `filters` (the unit's `SystemCallFilter=` lines, in order: an allow list, then
    /// `~` deny lists) let through, with systemd's own groups expanded by `systemd-analyze syscall-filter`.
    static func allowedSystemCalls(filters: [String]) async throws -> Set<String> {
        let listed = try await ExternalProcess.run(["systemd-analyze", "syscall-filter"])
        var groups: [String: [String]] = [:]
        var current: String?
        for raw in listed.stdout.split(separator: "\n") {
            if raw.hasPrefix("@") {
                current = String(raw.trimmingCharacters(in: .whitespaces))
                groups[current!] = []
                continue
            }
            let entry = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard let current, !entry.isEmpty else { continue }
            groups[current]?.append(entry)
        }
        #expect(groups["@system-service"] != nil, "systemd-analyze syscall-filter lists @system-service: \(listed.stderr)")
        func expand(_ name: String) -> Set<String> {
            guard name.hasPrefix("@") else { return [name] }
            return (groups[name] ?? []).reduce(into: Set<String>()) { $0.formUnion(expand($1)) }
        }
        var allowed = Set<String>()
        for filter in filters {
            let deny = filter.hasPrefix("~")
            let names = (deny ? filter.dropFirst() : Substring(filter)).split(separator: " ").map(String.init)
            let set = names.reduce(into: Set<String>()) { $0.formUnion(expand($1)) }
            if deny { allowed.subtract(set) } else { allowed.formUnion(set) }
        }
        return allowed
    }

    /// The names in an `strace -c` summary table.
    static func systemCalls(inSummary text: String) throws -> Set<String> {
        var names = Set<String>()
        var inTable = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("------") {
                if inTable { break }
                inTable = true
                continue
            }
            guard inTable, let name = line.split(separator: " ").last else { continue }
            names.insert(String(name))
        }
        guard !names.isEmpty else { throw TestFailure("no system calls in strace's summary:\n\(text)") }
        return names
    }

    static func children(of pid: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
