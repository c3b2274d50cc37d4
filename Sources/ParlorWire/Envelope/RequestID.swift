/// The client's request id, echoed exactly as given: an integer, a string, or null when absent.
public enum RequestID: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Int64)
    case string(String)
    case null

    /// Longest string id accepted (UTF-8 bytes); a longer one is a bad request answered with a null id.
    public static let maxStringLength = 256

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            guard text.utf8.count <= Self.maxStringLength else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "must be at most \(Self.maxStringLength) bytes long")
            }
            self = .string(text)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be an integer or a string")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .null: try container.encodeNil()
        }
    }

    func append(to out: inout [UInt8]) {
        switch self {
        case .number(let number): WireJSON.append(String(number), to: &out)
        case .string(let text): WireJSON.appendString(text, to: &out)
        case .null: WireJSON.append("null", to: &out)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let text): "\"\(text)\""
        case .null: "null"
        }
    }
}
