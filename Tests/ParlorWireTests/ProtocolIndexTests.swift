import Foundation
import ParlorWire
import Testing

/// `docs/PROTOCOL.md`'s list of every operation is made from the declarations (`WireVocabulary.all`),
/// so the document cannot drift from what the server answers: a declaration added, renamed, given a
/// route or made public without the document following fails here. `PARLOR_WRITE_PROTOCOL_INDEX=1`
/// writes the list into the document instead.
@Suite struct ProtocolIndexTests {
    static let begin = "<!-- operations: made from the declarations by ProtocolIndexTests (PARLOR_WRITE_PROTOCOL_INDEX=1 rewrites it) -->"
    static let end = "<!-- end of operations -->"

    static var document: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/PROTOCOL.md")
    }

    /// The list as the declarations give it.
    static func index() -> String {
        var lines = [begin, "", "| op | of | who may call | also reached as |", "|---|---|---|---|"]
        for vocabulary in WireVocabulary.all {
            for operation in vocabulary.operations {
                let of = operation.claim.map { "\(vocabulary.name) (with `\($0.key)`)" } ?? vocabulary.name
                let who = operation.access == .anyone ? "anyone" : "signed in"
                var also = operation.routes.map { "`\($0.method) \($0.path)` → \($0.status)" }
                if operation.callable { also.append("`POST /functions/\(operation.name)`") }
                lines.append("| `\(operation.name)` | \(of) | \(who) | \(also.isEmpty ? "—" : also.joined(separator: ", ")) |")
            }
        }
        lines += ["", end]
        return lines.joined(separator: "\n")
    }

    @Test func theDocumentListsEveryDeclaredOperation() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "PROTOCOL.md has no list of operations")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let written = String(text[start.lowerBound..<stop.upperBound])
        let expected = Self.index()
        if written != expected, ProcessInfo.processInfo.environment["PARLOR_WRITE_PROTOCOL_INDEX"] == "1" {
            try text.replacingCharacters(in: start.lowerBound..<stop.upperBound, with: expected)
                .write(to: Self.document, atomically: true, encoding: .utf8)
            return
        }
        #expect(written == expected, "PROTOCOL.md's list of operations is not what the declarations say; it should read:\n\(expected)")
    }

    /// Each game's own table of operations (`| op | args | result | errors |`) names only declared
    /// operations, and each declared operation is described somewhere outside the list.
    @Test func theGamesTablesNameDeclaredOperations() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let declared = Set(OperationName.allCases.map(\.rawValue))
        let outsideIndex = text.components(separatedBy: Self.begin)[0] + (text.components(separatedBy: Self.end).last ?? "")
        var tabled: Set<String> = []
        var inTable = false
        for line in outsideIndex.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| op |") { inTable = true; continue }
            guard inTable, line.hasPrefix("|") else { inTable = false; continue }
            guard line.hasPrefix("| `") else { continue }
            tabled.insert(String(line.dropFirst(3).prefix { $0 != "`" }))
        }
        #expect(tabled.count >= 40)
        #expect(tabled.subtracting(declared).isEmpty, "tables name operations nobody declares: \(tabled.subtracting(declared).sorted())")
        let undescribed = declared.filter { !tabled.contains($0) && !outsideIndex.contains("`\($0) {") && !outsideIndex.contains("`\($0)`") }
        #expect(undescribed.isEmpty, "declared but never described: \(undescribed.sorted())")
    }
}
