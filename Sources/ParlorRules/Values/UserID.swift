import Foundation

/// A user's identity: a UUID in its lowercase canonical text form ("0f8fad5b-d9cb-469f-a165-70867728950e").
///
/// Parsing accepts any case and stores lowercase, so the same user always compares equal.
/// Decoding fails (a `DecodingError`) for text that is not a UUID.
public struct UserID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(_ uuid: UUID) {
        rawValue = uuid.uuidString.lowercased()
    }

    /// Nil unless `text` is a UUID (36 characters, hyphenated). Surrounding whitespace is not accepted.
    ///
    /// Checked by hand rather than through `UUID(uuidString:)`, whose `sscanf` cost more than a
    /// percent of a busy server: every request names a player by id.
    public init?(_ text: String) {
        guard text.utf8.count == 36 else { return nil }
        var hasUppercase = false
        for (index, byte) in text.utf8.enumerated() {
            switch (index, byte) {
            case (8, UInt8(ascii: "-")), (13, UInt8(ascii: "-")), (18, UInt8(ascii: "-")), (23, UInt8(ascii: "-")):
                continue
            case (8, _), (13, _), (18, _), (23, _):
                return nil
            case (_, UInt8(ascii: "0")...UInt8(ascii: "9")), (_, UInt8(ascii: "a")...UInt8(ascii: "f")):
                continue
            case (_, UInt8(ascii: "A")...UInt8(ascii: "F")):
                hasUppercase = true
            default:
                return nil
            }
        }
        rawValue = hasUppercase ? text.lowercased() : text
    }

    /// A version-4 UUID drawn from `generator` (inject a secure or a seeded one).
    public static func random(using generator: inout some RandomNumberGenerator) -> UserID {
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return UserID(uuid)
    }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = UserID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be a UUID")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
