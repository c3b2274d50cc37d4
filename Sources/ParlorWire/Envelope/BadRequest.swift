/// A frame that could not be decoded into a request: malformed JSON, an unknown `op`, a missing or
/// mistyped argument. Answered with `BAD_REQUEST` (`invalid-argument`) and the request's id when it
/// could be read (else null).
public struct BadRequest: Error, Sendable, Equatable {
    public let id: RequestID
    /// The offending field's path, e.g. `args.playerName` or `args.user.colorNumber`; nil when the
    /// frame as a whole is at fault.
    public let field: String?
    /// A sentence naming the field.
    public let message: String

    public init(id: RequestID, field: String?, message: String) {
        self.id = id
        self.field = field
        self.message = message
    }

    public var wireError: WireError { WireError(.badRequest, message) }

    /// Describes a decoding failure by the path of the field it happened at.
    public init(id: RequestID, _ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            let path = Self.path(context.codingPath + [key])
            self.init(id: id, field: path, message: "\(path) is missing.")
        case .valueNotFound(_, let context):
            let path = Self.path(context.codingPath)
            self.init(id: id, field: path, message: "\(path) must not be null.")
        case .typeMismatch(let type, let context):
            let path = Self.path(context.codingPath)
            self.init(id: id, field: path, message: "\(path) must be \(Self.describe(type)).")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(id: id, field: nil, message: "The frame is not valid JSON.")
        case .dataCorrupted(let context):
            let path = Self.path(context.codingPath)
            let detail = context.debugDescription
            let message = detail.hasPrefix("must") || detail.hasPrefix("is ")
                ? "\(path) \(detail)." : "\(path) is invalid (\(detail))."
            self.init(id: id, field: path, message: message)
        @unknown default:
            self.init(id: id, field: nil, message: "The request could not be read.")
        }
    }

    /// A key that appears twice in one object: refused whichever copy a reader would keep.
    public init(id: RequestID, duplicate: DuplicateKeyScan.Duplicate) {
        let path = duplicate.fieldPath()
        self.init(id: id, field: path, message: "\(path) appears more than once; send each key once.")
    }

    /// `args.user.colorNumber`, `args.items[2]`.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out.isEmpty ? "the request" : out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains(":") { return "an object" }
            return "a \(name)"
        }
    }
}
