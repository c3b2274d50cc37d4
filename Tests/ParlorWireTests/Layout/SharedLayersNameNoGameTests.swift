import Foundation
import Testing

/// "A game plugs in; no shared file names a game" (STYLE.md, habit 12), checked on the sources: outside
/// each game's own folders, no file of ParlorWire, ParlorServer, ParlorClient, the terminal or the
/// browser mentions a game's types, operations or error codes — except the one registration line per
/// side. What a game names is read from its own folders (its top-level types, its declared operations,
/// its error codes), so a new game is covered the moment it exists.
///
/// `knownDebts` lists the shared files that still name games, each with why; the test also fails when
/// one of them no longer does, so the list only shrinks.
@Suite struct SharedLayersNameNoGameTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Each game's folders, by layer: the only places that may name it.
    static let gameFolders = [
        "Sources/ParlorRules/Rummy", "Sources/ParlorRules/Lobby", "Sources/ParlorRules/Catalog", "Sources/ParlorRules/Darts",
        "Sources/ParlorRules/PhotoQuiz", "Sources/ParlorRules/TicTacToe",
        "Sources/ParlorWire/Games", "Sources/ParlorServer/Games", "Clients/ParlorClient/Games", "Clients/ParlorTerminal/Games",
        "Clients/Web/Site/js/games",
    ]

    /// The shared layers.
    static let sharedFolders = [
        "Sources/ParlorWire", "Sources/ParlorServer", "Clients/ParlorClient", "Clients/ParlorTerminal", "Clients/Web/Site/js",
    ]

    /// The one registration line per side, by file: the line that lists the games.
    static let registrationLines: [String: String] = [
        "Sources/ParlorServer/Service/ParlorServices.swift": "static var standard: [any GameModule]",
        "Clients/ParlorTerminal/Commands/ParlorCommand.swift": "static let games: [any GameCommands.Type]",
        "Clients/Web/Site/js/games.js": "export const games = [",
    ]

    /// Shared files that still name games, each with why: none since issue 28 moved the last of them
    /// (the word catalog, the store's catalog methods, the games' configurations) into the games' folders.
    static let knownDebts: [String: String] = [:]

    @Test func noSharedFileNamesAGame() throws {
        let vocabulary = try Self.gameVocabulary()
        #expect(vocabulary.count > 150, "the games' names could not be read (\(vocabulary.count))")
        var naming: [String: [String]] = [:]
        for file in try Self.files(in: Self.sharedFolders, extensions: ["swift", "js"]) where !Self.isInGameFolder(file) {
            var text = Self.code(try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8))
            if let line = Self.registrationLines[file] {
                text = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(line) }.joined(separator: "\n")
            }
            let found = Self.words(in: text).intersection(vocabulary)
            if !found.isEmpty { naming[file] = found.sorted() }
        }
        for (file, names) in naming.sorted(by: { $0.key < $1.key }) where Self.knownDebts[file] == nil {
            Issue.record("\(file) names games: \(names.prefix(8).joined(separator: ", "))")
        }
        for file in Self.knownDebts.keys.sorted() where naming[file] == nil {
            Issue.record("\(file) no longer names a game: take it off knownDebts")
        }
    }

    /// What the games name: their top-level types, their operations, their error codes (as the wire
    /// spells them and as Swift does), read from their folders.
    static func gameVocabulary() throws -> Set<String> {
        var names: Set<String> = []
        for file in try files(in: gameFolders, extensions: ["swift"]) {
            let text = code(try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
            for line in text.split(separator: "\n") {
                // A top-level declaration starts its line.
                if let name = firstMatch(#"^(?:public |final |indirect )*(?:struct|enum|class|actor|protocol) ([A-Z]\w+)"#, in: line) {
                    names.insert(name)
                }
                if let name = firstMatch(#"static let (\w+) = (?:OperationDeclaration|ErrorCode)\b"#, in: line) { names.insert(name) }
                if let name = firstMatch(#"ErrorCode\("([A-Z_]+)""#, in: line) { names.insert(name) }
            }
            for match in text.matches(of: #/OperationDeclaration<[^>]*>\(\s*"(\w+)"/#) { names.insert(String(match.1)) }
        }
        return names.subtracting(genericWords)
    }

    /// Names a game's folder declares that are also everyday words of shared code: the catalog's `Game`
    /// and `Level` (a shared file saying `Game` means the kernel's generic parameter), and the verbs of
    /// rummy's terminal commands, which are `parlor`'s own (`parlor create`, `parlor join CODE`, …).
    static let genericWords: Set<String> = ["Game", "Level", "Create", "Join", "Ready", "Start", "Score", "Next", "Leave", "Show"]

    static func firstMatch(_ pattern: String, in line: Substring) -> String? {
        guard let regex = try? Regex(pattern), let match = line.firstMatch(of: regex), match.count > 1,
            let capture = match[1].substring
        else { return nil }
        return String(capture)
    }

    /// The identifiers and quoted words of a text.
    static func words(in text: String) -> Set<String> {
        Set(text.matches(of: #/[A-Za-z_][A-Za-z0-9_]*/#).map { String($0.0) })
    }

    /// The text without comments (`//…`, `/* … */`); what a comment says names nothing.
    static func code(_ text: String) -> String {
        text.replacing(#/\/\*[\s\S]*?\*\//#, with: "")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                guard let range = line.range(of: "//"), !line[..<range.lowerBound].contains("\"") else { return String(line) }
                return String(line[..<range.lowerBound])
            }
            .joined(separator: "\n")
    }

    static func isInGameFolder(_ file: String) -> Bool { gameFolders.contains { file.hasPrefix($0 + "/") } }

    static func files(in folders: [String], extensions: Set<String>) throws -> [String] {
        var found: [String] = []
        for folder in folders {
            let url = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walker where extensions.contains(file.pathExtension) {
                found.append(String(file.path.dropFirst(root.path.count + 1)))
            }
        }
        return found.sorted()
    }
}
