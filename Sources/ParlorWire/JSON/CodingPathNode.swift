/// Where a decoder or container is, as a linked list that shares its parents: going one level down
/// costs one small node, and the `[CodingKey]` array is only made when someone asks (an error).
@usableFromInline
indirect enum CodingPathNode: Sendable {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    @usableFromInline
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(JSONCodingKey(index: index))
                node = parent
            }
        }
    }

    @usableFromInline
    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, self) }

    /// The path, with `key` after it when there is one.
    @usableFromInline
    func path(appending key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return path }
        return path + [key]
    }

    @usableFromInline
    func path(appendingIndex index: Int) -> [any CodingKey] { path + [JSONCodingKey(index: index)] }
}

/// A key the decoder makes itself: an object's key by name (`allKeys` of a dictionary, `"super"`), or
/// an array's element, spelled as Foundation spells it (`Index 2`, which `BadRequest` shows as `[2]`).
@usableFromInline
enum JSONCodingKey: CodingKey, Sendable {
    case string(String)
    case index(Int)

    @usableFromInline
    init(_ string: String) { self = .string(string) }

    @usableFromInline
    init?(stringValue: String) { self = .string(stringValue) }

    @usableFromInline
    init?(intValue: Int) { nil }

    @usableFromInline
    init(index: Int) { self = .index(index) }

    @usableFromInline
    var stringValue: String {
        switch self {
        case .string(let string): string
        case .index(let index): "Index \(index)"
        }
    }

    @usableFromInline
    var intValue: Int? {
        switch self {
        case .string: nil
        case .index(let index): index
        }
    }

    static let `super` = JSONCodingKey("super")
}
