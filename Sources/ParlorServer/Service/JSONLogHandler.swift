import Foundation
import Logging
import ParlorRules
import ParlorWire
import Synchronization

/// `--log-format json`: one JSON object per line on standard error, for journald, Loki or
/// Elasticsearch — `time` (ISO-8601 UTC, milliseconds), `level`, `label`, `message`, `source`, and
/// `metadata` (the handler's, the provider's and the call's, the call's winning) when there is any.
/// Each line is written whole by one `write`, under a lock, so lines from several threads never
/// interleave.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LogOutput

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider, output: .standardError)
    }

    init(label: String, metadataProvider: Logger.MetadataProvider? = nil, output: LogOutput) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        if let error = event.error { merged["error"] = .string("\(error)") }
        output.write(Self.line(
            time: Date(), level: event.level, label: label, message: event.message.description,
            source: event.source, metadata: merged))
    }

    /// One record as a line of JSON (with its newline).
    public static func line(
        time: Date, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.field("time", timestamp(time))
        writer.field("level", level.rawValue)
        writer.field("label", label)
        writer.field("message", message)
        writer.field("source", source)
        if !metadata.isEmpty {
            writer.key("metadata")
            write(metadata, to: &writer)
        }
        writer.endObject()
        var bytes = writer.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func write(_ metadata: Logger.Metadata, to writer: inout JSONWriter) {
        writer.beginObject()
        for key in metadata.keys.sorted() {
            writer.escapedKey(key)
            write(metadata[key]!, to: &writer)
        }
        writer.endObject()
    }

    private static func write(_ value: Logger.Metadata.Value, to writer: inout JSONWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .stringConvertible(let convertible): writer.string(convertible.description)
        case .dictionary(let dictionary): write(dictionary, to: &writer)
        case .array(let values):
            writer.beginArray()
            for element in values { write(element, to: &writer) }
            writer.endArray()
        }
    }

    /// `2026-11-29T17:50:01.123Z`: the rules' own ISO-8601 writer.
    static func timestamp(_ date: Date) -> String {
        Instant(millisecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded(.down))).iso8601
    }
}

/// Where log lines go: standard error, or (in tests) a buffer.
final class LogOutput: Sendable {
    private let capturing: Bool
    private let lines = Mutex<[[UInt8]]>([])
    private let lock = Mutex(())

    static let standardError = LogOutput(capturing: false)

    init(capturing: Bool) {
        self.capturing = capturing
    }

    func write(_ line: [UInt8]) {
        if capturing {
            lines.withLock { $0.append(line) }
            return
        }
        lock.withLock { _ in
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Foundation.write(2, raw.baseAddress! + offset, raw.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }

    var captured: [[UInt8]] { lines.withLock { $0 } }
}
