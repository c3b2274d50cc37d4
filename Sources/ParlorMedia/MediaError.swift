/// Why an image could not be read. Every reader here checks every offset and length it takes from the
/// file against the file's size: a hostile upload ends in one of these, never in a crash or a hang.
public struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Not the format it claims to be (a bad signature or a missing marker).
        case notAnImage
        /// The structure is broken: a length past the end, a loop of offsets, a truncated segment.
        case malformed
    }

    public let kind: Kind
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
