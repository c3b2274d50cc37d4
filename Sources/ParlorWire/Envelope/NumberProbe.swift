/// Finds where a non-integer number sits in a JSON value.
///
/// Foundation's decoder reports a fractional or out-of-range number given for an `Int` as corrupt
/// data with no coding path; on that failure path only, the already-parsed `args` are walked again
/// to name the field. All numeric arguments of the protocol are integers.
enum NumberProbe: Decodable {
    case integer
    case nonInteger
    case other
    case object([String: NumberProbe])
    case array([NumberProbe])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() || (try? container.decode(Bool.self)) != nil || (try? container.decode(String.self)) != nil {
            self = .other
        } else if (try? container.decode(Int.self)) != nil {
            self = .integer
        } else if (try? container.decode(Double.self)) != nil {
            self = .nonInteger
        } else if let object = try? container.decode([String: NumberProbe].self) {
            self = .object(object)
        } else if let array = try? container.decode([NumberProbe].self) {
            self = .array(array)
        } else {
            self = .other
        }
    }

    /// The path (below `prefix`) of the first non-integer number, in key order.
    func firstNonInteger(prefix: String) -> String? {
        switch self {
        case .nonInteger: return prefix
        case .integer, .other: return nil
        case .object(let fields):
            for key in fields.keys.sorted() {
                if let path = fields[key]?.firstNonInteger(prefix: "\(prefix).\(key)") { return path }
            }
            return nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let path = item.firstNonInteger(prefix: "\(prefix)[\(index)]") { return path }
            }
            return nil
        }
    }
}
