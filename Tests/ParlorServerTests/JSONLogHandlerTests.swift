import Foundation
import Logging
@testable import ParlorServer
import Testing

/// `--log-format json`'s lines, as a log shipper parses them.
@Suite struct JSONLogHandlerTests {
    @Test func aRecordIsOneLineOfJSONWithItsMetadataNestedAndEscaped() throws {
        let output = LogOutput(capturing: true)
        var handler = JSONLogHandler(label: "parlor", output: output)
        handler.logLevel = .info
        handler[metadataKey: "node"] = "a"
        var logger = Logger(label: "parlor") { _ in handler }
        logger[metadataKey: "node"] = "b"
        logger.debug("not at info")
        logger.warning("Line one\nline \"two\"", metadata: [
            "weird \"key\"": "tab\there", "count": .stringConvertible(3),
            "nested": ["list": ["x", "y"], "empty": [:]],
        ])
        let lines = output.captured
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        let record = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(record["level"] as? String == "warning")
        #expect(record["label"] as? String == "parlor")
        #expect(record["message"] as? String == "Line one\nline \"two\"")
        #expect(record["source"] as? String == "ParlorServerTests")
        let metadata = try #require(record["metadata"] as? [String: Any])
        #expect(metadata["node"] as? String == "b")
        #expect(metadata["weird \"key\""] as? String == "tab\there")
        #expect(metadata["count"] as? String == "3")
        let nested = try #require(metadata["nested"] as? [String: Any])
        #expect(nested["list"] as? [String] == ["x", "y"])
        #expect((nested["empty"] as? [String: Any])?.isEmpty == true)
    }

    @Test func theTimeIsUTCWithMilliseconds() {
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 1_796_000_000.5)) == "2026-11-30T00:53:20.500Z")
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    }
}
