import Foundation
import ParlorTestSupport
import Logging
import ParlorRules
import Testing
@testable import ParlorServer

/// The English word list: loading, what it keeps, and the start-up error when it is missing.
@Suite struct LobbyWordListTests {
    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-words-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileOfWordsLoadsLowercasedWithoutPossessivesOrProperNouns() throws {
        let path = try Self.temporaryFile("Apple\napple's\napple\nBanana\n\n  cherry \némigré\nParis\nZürich\nÉmile\nBILL\nbill\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let list = try WordListFile.load(path: path)
        #expect(list.words == ["apple", "cherry", "émigré", "bill"])
    }

    @Test func aMissingOrEmptyListIsAClearError() throws {
        do {
            _ = try WordListFile.load(path: "/nonexistent/words")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description.contains("/nonexistent/words") && error.description.contains("there is no such file"))
            #expect(error.description.contains("apt-get install wamerican") && error.description.contains("--word-list"))
        }
        let empty = try Self.temporaryFile("\n's\n")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: WordListError.self) { try WordListFile.load(path: empty) }
    }

    @Test func theServerDoesNotStartWithoutItsWordList() async throws {
        var configuration = ServerConfiguration()
        configuration.listener.port = 0
        configuration.wordGames.wordList = .file("/nonexistent/words")
        await #expect(throws: WordListError.self) {
            _ = try await ParlorServer(configuration: configuration, store: InMemoryStore(), logger: Logger(label: "test"))
        }
    }

    /// Debian's wamerican, which scripts/setup.sh installs, is what the server checks against by default.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: WordListSource.defaultPath)))
    func theSystemListHoldsRealWordsOnly() throws {
        let list = try WordListFile.load(.file(WordListSource.defaultPath))
        #expect(list.words.count > 50_000)
        #expect(list.contains("sapphire") && list.contains("zebra") && list.contains("bill"))
        #expect(!list.contains("cat's") && !list.contains("sxyzzy") && !list.contains("paris") && !list.contains("zürich"))
    }
}
