/// A kind of game: `rummy`, `word-lobby`. The name is what the store, logs and metrics know it by —
/// a stored name: never change one that has shipped — and the nouns are how sentences name one game
/// and many ("Saving room A1B2C3", "the limit of 100000 rooms", the `parlor_rooms` gauge).
public struct GameKind: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// One game of this kind, in a sentence: "room", "lobby".
    public let noun: String
    /// Several: "rooms", "lobbies".
    public let plural: String

    public init(_ name: String, noun: String, plural: String) {
        self.name = name
        self.noun = noun
        self.plural = plural
    }

    public var description: String { name }

    public static func == (lhs: GameKind, rhs: GameKind) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
