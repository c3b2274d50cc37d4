import Foundation

/// `curl -i` once; returns the status, the lowercased headers and the body. Status 0: no answer
/// (the connection was refused or closed).
func curl(_ arguments: [String]) async throws -> (status: Int, headers: [String: String], body: String) {
    let process = try ChildProcess(
        executable: "/usr/bin/env", ["curl", "-s", "-i", "--max-time", "10"] + arguments, name: "curl")
    guard await process.waitForExit(timeout: .seconds(20)) != nil, await process.waitForOutput() else {
        await process.stop()
        throw ProcessTestError("curl \(arguments) did not finish")
    }
    let text = process.standardOutput
    guard let split = text.range(of: "\r\n\r\n") else { return (0, [:], "") }
    let head = text[..<split.lowerBound].split(separator: "\r\n")
    let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (status, headers, String(text[split.upperBound...]))
}
