/// The dictionary a word game checks against, injected by the caller.
///
/// The checker always asks with the lowercased word, so a list should hold lowercase words.
public protocol WordList {
    func contains(_ word: String) -> Bool
}

/// A word list held in memory; words are lowercased on the way in.
public struct SetWordList: WordList, Sendable, Equatable {
    public let words: Set<String>

    public init(_ words: some Sequence<String>) {
        self.words = Set(words.map { $0.lowercased() })
    }

    public func contains(_ word: String) -> Bool { words.contains(word) }
}
