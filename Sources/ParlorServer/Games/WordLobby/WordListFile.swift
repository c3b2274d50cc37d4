import Foundation
import ParlorRules

/// Loads the English word list the word games check against: one word per line, as in Debian's
/// `wamerican` (`/usr/share/dict/words`). Words are lowercased (the checker asks in lowercase);
/// possessives ("cat's") and other entries with an apostrophe are skipped, since a submitted word must be
/// letters only; so are capitalised entries ("Paris", "Zürich"): the list's proper nouns are names, not
/// words (a word that is also a name, "bill" beside "Bill", has its own lowercase line).
enum WordListFile {
    /// Lines longer than this are not words; skipping them bounds the memory a strange file can take.
    static let maxWordBytes = 4 * WordRules.maxWordLength

    static func load(_ source: WordListSource) throws(WordListError) -> SetWordList {
        switch source {
        case .words(let list): return list
        case .file(let path): return try load(path: path)
        }
    }

    static func load(path: String) throws(WordListError) -> SetWordList {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "there is no such file"
            throw WordListError(path: path, problem: reason)
        }
        var words: [String] = []
        words.reserveCapacity(data.count / 9)
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard line.count <= maxWordBytes, !line.contains(UInt8(ascii: "'")) else { continue }
            let word = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard let first = word.first, !first.isUppercase else { continue }
            words.append(word)
        }
        guard !words.isEmpty else { throw WordListError(path: path, problem: "it holds no words") }
        return SetWordList(words)  // lowercases each word
    }
}

/// The word list could not be loaded: a start-up error that says how to fix it.
public struct WordListError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String {
        "The English word list at \(path) cannot be used: \(problem). Install it with `apt-get install wamerican` "
            + "(scripts/setup.sh does), or give another file of one word per line with --word-list PATH."
    }
}
