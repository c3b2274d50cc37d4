/// Judges one (already trimmed, length-bounded) word against a game. Pure.
///
/// Word games: letters only, at least `WordRules.minWordLength` of them, the target letter at the
/// game's position (case-insensitively unless the game is case-sensitive), and in the word list
/// (always case-insensitively). Category games: the answer is in the bank, compared after
/// normalisation (`WordRules.normalized`).
public enum WordChecker {
    public static func check(_ word: String, for game: Game, wordList: some WordList) -> WordVerdict {
        switch game.kind {
        case .word(let position, let letter):
            return checkWord(word, position: position, letter: letter, caseSensitive: game.caseSensitive, wordList: wordList)
        case .category(let answerBank):
            let key = WordRules.normalized(word, caseSensitive: game.caseSensitive)
            let inBank = answerBank.contains { WordRules.normalized($0, caseSensitive: game.caseSensitive) == key }
            return inBank ? .accept(word) : .reject(word, "\"\(word)\" is not one of the accepted answers.")
        case .unknown(let type):
            return .reject(word, "This game (type \"\(type)\") cannot be played on this server.")
        }
    }

    private static func checkWord(
        _ word: String, position: LetterPosition, letter: String, caseSensitive: Bool, wordList: some WordList
    ) -> WordVerdict {
        guard word.allSatisfy(\.isLetter) else {
            return .reject(word, "\"\(word)\" must contain letters only.")
        }
        guard word.count >= WordRules.minWordLength else {
            return .reject(word, "\"\(word)\" is too short; words need at least \(WordRules.minWordLength) letters.")
        }
        let subject = caseSensitive ? word : word.lowercased()
        let target = caseSensitive ? letter : letter.lowercased()
        let placed: Bool
        let phrase: String
        switch position {
        case .start: (placed, phrase) = (subject.hasPrefix(target), "start with")
        case .end: (placed, phrase) = (subject.hasSuffix(target), "end with")
        case .contains: (placed, phrase) = (subject.contains(target), "contain")
        case .unknown(let value):
            return .reject(word, "This game's letter position \"\(value)\" is not supported.")
        }
        guard placed else { return .reject(word, "\"\(word)\" does not \(phrase) \"\(letter)\".") }
        guard wordList.contains(word.lowercased()) else {
            return .reject(word, "\"\(word)\" is not in the word list.")
        }
        return .accept(word)
    }
}
