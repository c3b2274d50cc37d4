import Testing
@testable import ParlorRules

@Suite struct WordCheckerTests {
    static let words = SetWordList(["apple", "banana", "Bob", "grape", "lab", "ab"])

    static func wordGame(_ position: LetterPosition, _ letter: String, caseSensitive: Bool = false) -> Game {
        Game(id: "g", name: "G", timeLimit: 60, caseSensitive: caseSensitive,
             kind: .word(letterPosition: position, targetLetter: letter))
    }

    static func check(_ word: String, _ game: Game) -> WordVerdict {
        WordChecker.check(word, for: game, wordList: words)
    }

    @Test func positions() {
        #expect(Self.check("banana", Self.wordGame(.start, "b")).accepted)
        #expect(!Self.check("apple", Self.wordGame(.start, "b")).accepted)
        #expect(Self.check("lab", Self.wordGame(.end, "b")).accepted)
        #expect(!Self.check("banana", Self.wordGame(.end, "b")).accepted)
        #expect(Self.check("grape", Self.wordGame(.contains, "p")).accepted)
        #expect(!Self.check("banana", Self.wordGame(.contains, "p")).accepted)
        #expect(Self.check("apple", Self.wordGame(.start, "b")).reason == "\"apple\" does not start with \"b\".")
        #expect(Self.check("banana", Self.wordGame(.end, "B")).reason == "\"banana\" does not end with \"B\".")
        #expect(Self.check("lab", Self.wordGame(.contains, "p")).reason == "\"lab\" does not contain \"p\".")
    }

    @Test func caseInsensitiveGamesIgnoreCase() {
        #expect(Self.check("Banana", Self.wordGame(.start, "b")).accepted)
        #expect(Self.check("banana", Self.wordGame(.start, "B")).accepted)
        #expect(Self.check("LAB", Self.wordGame(.end, "b")).accepted)
        #expect(Self.check("GRAPE", Self.wordGame(.contains, "p")).accepted)
    }

    @Test func caseSensitiveGamesRespectCaseButTheDictionaryDoesNot() {
        #expect(Self.check("Bob", Self.wordGame(.start, "B", caseSensitive: true)).accepted)
        #expect(!Self.check("bob", Self.wordGame(.start, "B", caseSensitive: true)).accepted)
        #expect(Self.check("laB", Self.wordGame(.end, "B", caseSensitive: true)).accepted)
        #expect(!Self.check("lab", Self.wordGame(.end, "B", caseSensitive: true)).accepted)
        #expect(Self.check("grApe", Self.wordGame(.contains, "A", caseSensitive: true)).accepted)
        #expect(!Self.check("grape", Self.wordGame(.contains, "A", caseSensitive: true)).accepted)
    }

    @Test func wordsMustBeRealLettersOnlyAndLongEnough() {
        let game = Self.wordGame(.contains, "a")
        #expect(Self.check("zebra", game).reason == "\"zebra\" is not in the word list.")
        #expect(Self.check("ab1", game).reason == "\"ab1\" must contain letters only.")
        #expect(Self.check("a b", game).reason == "\"a b\" must contain letters only.")
        #expect(Self.check("a", game).reason == "\"a\" is too short; words need at least 2 letters.")
        #expect(Self.check("ab", game).accepted)
    }

    @Test func categoryAnswersMatchTheBank() {
        let planets = Game(id: "p", name: "Planets", timeLimit: 60, kind: .category(answerBank: ["Mercury", " Venus ", "New Horizons"]))
        #expect(Self.check("mercury", planets).accepted)
        #expect(Self.check("VENUS", planets).accepted)
        #expect(Self.check("new horizons", planets).accepted)
        #expect(Self.check("Pluto", planets) == .reject("Pluto", "\"Pluto\" is not one of the accepted answers."))
        let symbols = Game(id: "s", name: "Symbols", timeLimit: 60, caseSensitive: true, kind: .category(answerBank: ["Co", "Fe"]))
        #expect(Self.check("Co", symbols).accepted)
        #expect(!Self.check("CO", symbols).accepted)
        #expect(!Self.check("fe", symbols).accepted)
    }

    @Test func unplayableGamesRejectWithAReason() {
        #expect(!Self.check("apple", Self.wordGame(.unknown("middle"), "p")).accepted)
        #expect(!Self.check("apple", Game(id: "x", name: "X", timeLimit: 60, kind: .unknown(type: "picture"))).accepted)
    }
}
