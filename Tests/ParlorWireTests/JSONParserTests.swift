import Foundation
import Testing

@testable import ParlorWire

/// The parser on its own: what it refuses and why, its bounds (depth, size, keys), and what it keeps.
@Suite struct JSONParserTests {
    private static func reason(_ text: String) -> JSONSyntaxError.Reason? {
        reason(Array(text.utf8))
    }

    private static func reason(_ bytes: [UInt8]) -> JSONSyntaxError.Reason? {
        guard case .failure(.invalid(let error)) = JSONDocument.parse(bytes) else { return nil }
        return error.reason
    }

    @Test(arguments: [
        ("[1,]", JSONSyntaxError.Reason.trailingComma), (#"{"a":1,}"#, .trailingComma), ("[1 2]", .unexpectedCharacter),
        ("01", .invalidNumber), ("1.", .invalidNumber), (".5", .invalidNumber), ("-", .invalidNumber), ("+1", .invalidNumber),
        ("1e", .invalidNumber), ("1e+", .invalidNumber), ("1x", .trailingGarbage), ("NaN", .unexpectedCharacter),
        (#""\x""#, .invalidEscape), (#""\u12G4""#, .invalidEscape), (#""\ud800""#, .loneSurrogate), (#""\udc00""#, .loneSurrogate),
        (#""\ud800\u0041""#, .loneSurrogate), ("\"a\tb\"", .controlCharacter), ("tru", .unexpectedEnd), ("nul!", .unexpectedCharacter),
        ("", .unexpectedEnd), (" ", .unexpectedEnd), ("{", .unexpectedEnd), (#"{"a""#, .unexpectedEnd), (#"{"a" 1}"#, .unexpectedCharacter),
        ("/* c */ 1", .unexpectedCharacter), ("1 2", .trailingGarbage), (#"{"a":1}}"#, .trailingGarbage),
    ])
    func refusesWhatIsNotJSON(text: String, reason: JSONSyntaxError.Reason) {
        #expect(Self.reason(text) == reason)
    }

    @Test func refusesBytesThatAreNotUTF8() throws {
        for bad: [UInt8] in [[0x80], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0xF4, 0x90, 0x80, 0x80]] {
            #expect(Self.reason([UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\"")]) == .invalidUTF8)
            #expect(Self.reason(Array(#"{"a":"\n"#.utf8) + bad + Array(#"","b":1}"#.utf8)) == .invalidUTF8)
        }
        // UTF-16, which Foundation converts: JSON between systems is UTF-8 (RFC 8259 §8.1).
        #expect(Self.reason(Array("{}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) != nil)
        // A UTF-8 byte order mark is skipped, as Foundation skips it.
        #expect(try WireJSON.decode([Int].self, from: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    }

    @Test func nestingStopsAt512LikeFoundation() throws {
        for (depth, readable) in [(512, true), (513, false)] {
            let text = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let ours = try? WireJSON.decode(DecoderTranscript.Glance.self, from: text)
            let foundations = try? JSONDecoder().decode(DecoderTranscript.Glance.self, from: Data(text))
            #expect((ours != nil) == readable && (foundations != nil) == readable)
        }
        // Far deeper texts cost no stack: the parser never recurses.
        #expect(Self.reason(String(repeating: "[", count: 1_000_000)) == .tooDeep)
        #expect(Self.reason(String(repeating: #"{"a":"#, count: 200_000)) == .tooDeep)
        let frame = #"{"id":1,"op":"hello","x":"# + String(repeating: "[", count: 100_000)
        #expect(Request.decode(frame) == .failure(BadRequest(id: .null, field: nil, message: "The frame is not valid JSON.")))
    }

    @Test func largeObjectsGetAKeyIndex() throws {
        let keys = (0..<20_000).map { "\"k\($0)\":\($0)" }
        let text = Array(("{" + keys.joined(separator: ",") + #","args":{"token":"t"},"id":7,"op":"hello"}"#).utf8)
        let document = try JSONDocument.parse(text).get()
        #expect(document.nodes[JSONDocument.root].index >= 0)
        #expect(document.member("k19999", of: JSONDocument.root).map { document.nodes[$0].payload } == 19_999)
        #expect(document.member("k20000", of: JSONDocument.root) == nil)
        #expect(try decodeOK(String(decoding: text, as: UTF8.self)) == Request(id: .number(7), operation: .hello(HelloArguments(token: "t"))))
        // A small object is searched in order and has none.
        let small = try JSONDocument.parse(Array(#"{"a":1,"b":2}"#.utf8)).get()
        #expect(small.nodes[JSONDocument.root].index == -1 && small.member("b", of: JSONDocument.root) == 4)
    }

    @Test func keysAreFoundAsSwiftComparesStrings() throws {
        let document = try JSONDocument.parse(Array(#"{"e\u0301":1,"\u0061":2}"#.utf8)).get()
        #expect(document.member("\u{E9}", of: JSONDocument.root) != nil)
        #expect(document.member("a", of: JSONDocument.root) != nil)
        let big = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + #","e\u0301":1}"#
        let indexed = try JSONDocument.parse(Array(big.utf8)).get()
        #expect(indexed.member("\u{E9}", of: JSONDocument.root) != nil)
        #expect(DuplicateKeyScan.firstDuplicate(in: Array((String(big.dropLast()) + ",\"\u{E9}\":2}").utf8)) == .init(path: [], key: "\u{E9}"))
    }

    @Test func numbersKeepWhatTheyNeed() throws {
        let document = try JSONDocument.parse(Array("[-9223372036854775808,9223372036854775807,9223372036854775808,-0,1e2,0]".utf8)).get()
        let kinds = (1...6).map { document.kind($0) }
        #expect(kinds == [.integer, .integer, .number, .number, .number, .integer])
        #expect(document.nodes[1].payload == .min && document.nodes[2].payload == .max)
        #expect(try WireJSON.decode([Int].self, from: Array("[1e2, 100.0, -0, 1E+1]".utf8)) == [100, 100, 0, 10])
        #expect(try WireJSON.decode(UInt64.self, from: Array("18446744073709551615".utf8)) == .max)
        #expect(throws: DecodingError.self) { try WireJSON.decode(Int.self, from: Array("9223372036854775808".utf8)) }
    }

    @Test func aRepeatedKeyIsReportedAfterTheRestIsRead() throws {
        // Valid text: the id is still read, even after the repeat.
        #expect(try decodeBad(#"{"op":"hello","op":"hello","id":9}"#) == BadRequest(id: .number(9), duplicate: .init(path: [], key: "op")))
        // Not JSON after the repeat: the repeat is reported (as the separate scan did), with no id.
        #expect(try decodeBad(#"{"id":9,"op":"hello","op":"hello""#) == BadRequest(id: .null, duplicate: .init(path: [], key: "op")))
        // Not JSON before it: that is what is reported.
        #expect(try decodeBad(#"{"id":9,"x":01,"op":"a","op":"b"}"#).message == "The frame is not valid JSON.")
    }
}
