/// A parsed JSON text, as flat as it can be: one array of fixed-size nodes in document order, every
/// string (keys, string values and the text of numbers that are not plain integers) already decoded
/// into one array of Swift strings, and a key index for the few objects too big to search in order.
///
/// `JSONParser` builds it in one pass over the bytes and `DocumentDecoder` reads it, so decoding a
/// request allocates a handful of arrays instead of a dictionary per object; nothing refers back to the
/// bytes, which may be gone by then.
@usableFromInline
struct JSONDocument: Sendable {
    @usableFromInline let nodes: [JSONNode]
    @usableFromInline let strings: [String]
    /// Key → value node, for objects with more than `JSONParser.linearLimit` members.
    @usableFromInline let objectIndexes: [[String: Int32]]

    /// The top-level value.
    @usableFromInline static let root = 0

    /// A `null` that is not in the text: what a `superDecoder(forKey:)` of a missing key reads.
    @usableFromInline let absent: Int

    init(nodes: [JSONNode], strings: [String], objectIndexes: [[String: Int32]], absent: Int) {
        self.nodes = nodes
        self.strings = strings
        self.objectIndexes = objectIndexes
        self.absent = absent
    }

    @usableFromInline
    func kind(_ value: Int) -> JSONNode.Kind { nodes[value].kind }

    /// The node after `value` and everything inside it.
    @usableFromInline
    func next(after value: Int) -> Int {
        let node = nodes[value]
        return node.kind.isContainer ? Int(node.payload) : value + 1
    }

    /// The text of a string node, or of a number that is not a plain integer.
    @usableFromInline
    func text(_ value: Int) -> String { strings[Int(nodes[value].payload)] }

    /// A number as it was written (an integer's digits are the same either way).
    func numberText(_ value: Int) -> String {
        let node = nodes[value]
        return node.kind == .integer ? String(node.payload) : strings[Int(node.payload)]
    }

    /// Members of an object or elements of an array.
    @usableFromInline
    func count(_ value: Int) -> Int { Int(nodes[value].count) }

    /// The value of `object`'s member `key`, compared as Swift compares strings (canonical equivalence,
    /// as a dictionary of the keys would).
    @usableFromInline
    func member(_ key: String, of object: Int) -> Int? {
        let node = nodes[object]
        if node.index >= 0 {
            return objectIndexes[Int(node.index)][key].map(Int.init)
        }
        var keyNode = object + 1
        for _ in 0..<node.count {
            if strings[Int(nodes[keyNode].payload)] == key { return keyNode + 1 }
            keyNode = next(after: keyNode + 1)
        }
        return nil
    }

    /// The key nodes of `object`, in document order (each member's value is the node after its key).
    func keyNodes(of object: Int) -> [Int] {
        var keys: [Int] = []
        keys.reserveCapacity(count(object))
        var keyNode = object + 1
        for _ in 0..<count(object) {
            keys.append(keyNode)
            keyNode = next(after: keyNode + 1)
        }
        return keys
    }
}

/// One JSON value of a `JSONDocument`. A container is followed by its contents: an array by its
/// elements, an object by each member's key (a string node) and then its value.
@usableFromInline
struct JSONNode: Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case null, `true`, `false`
        /// A number written as an integer that fits `Int64` (`payload` is its value).
        case integer
        /// Any other number: a fraction, an exponent, beyond `Int64`, or `-0` (`payload` indexes its text).
        case number
        case string
        case object, array

        @usableFromInline var isContainer: Bool { self == .object || self == .array }
    }

    /// An integer's value; a string's or a number's index in `strings`; for a container, the index of the
    /// node after its contents (while it is being parsed, the index of the container around it).
    @usableFromInline var payload: Int64
    /// A container's members or elements.
    @usableFromInline var count: Int32
    /// A large object's index in `objectIndexes`, else -1.
    @usableFromInline var index: Int32
    @usableFromInline var kind: Kind

    init(_ kind: Kind, payload: Int64 = 0) {
        self.kind = kind
        self.payload = payload
        count = 0
        index = -1
    }
}
