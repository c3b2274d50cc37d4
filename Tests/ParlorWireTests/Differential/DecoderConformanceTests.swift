import Foundation
import Testing

@testable import ParlorWire

/// `DocumentDecoder` against `JSONDecoder` as a `Decoder`: every container and every `decode` overload,
/// on values of every JSON type, every integer width's edges, numbers Foundation converts in its own
/// ways (`1e2`, `100.0`, `9007199254740993.5`), escapes and Unicode spellings of keys, and nesting.
/// The transcripts (`DecoderTranscript`) must be the same line for line.
@Suite struct DecoderConformanceTests {
    static let scalars: [String] = [
        "null", "true", "false", "0", "-0", "1", "-1", "0.0", "-0.0", "1.5", "-2.5", "1e2", "1E2", "1e+2", "100.0", "1.00e2", "0.1e1",
        "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769", "65535", "65536", "2147483647", "2147483648",
        "-2147483649", "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "170141183460469231731687303715884105727",
        "9007199254740992", "9007199254740993", "9007199254740993.0", "9007199254740993.5", "12345678901234567.5",
        "9007199254740993.00000000000000000001", "1.0000000000000001", "1e15", "1.5e16", "1e19", "1e20", "1e300", "1E400",
        "-1e400", "1e-400", "0e5", "0.000", "0.000e-400", "3.4028235e38", "3.5e38", "1e-46", "1.17549435e-38", "65504", "65520",
        "123456789012345678901234567890", "0.1", "0.30000000000000004", "2.2250738585072014e-308", "5e-324",
        #""""#, #""a""#, #""1""#, #""true""#, #""\u00e9""#, #""e\u0301""#, #""\ud83d\ude00""#, #""\u0000""#, #""\/\b\f\n\r\t\"\\""#,
        #""aGVsbG8=""#, #""aGVsbG8""#, #""not base64!""#, #""https://example.com/a?b=c""#, #""a b""#, "\"caf\u{E9}\"",
    ]

    static let containers: [String] = [
        "{}", "[]", "[null]", "[[]]", "[{}]", #"[1,null,"x",[2],{"a":1},true,1.5,-0,1e400]"#,
        #"{"a":1,"b":null,"c":"x","d":[1,2],"e":{"f":true},"g":1.5,"h":9223372036854775808}"#,
        #"{"\u0061":1,"b\u0062":"\u00e9"}"#, "{\"\u{E9}\":1}", #"{"e\u0301":2}"#, #"{"super":{"a":1},"x":null}"#,
        #"{"1":"one","2":"two","-3":"minus three","x":"ex"}"#, #"{"":0}"#,
        #"[[1,[2,[3,[4]]]],{"a":{"b":{"c":[null]}}}]"#, #"{"a":[{"b":[{"c":1}]}]}"#,
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"a\":\"last\"}",
        "[" + (0..<20).map(String.init).joined(separator: ",") + "]",
        // A sample of the scalars in arrays and objects, for the containers' overloads (each scalar is read
        // through every overload of a single-value container above; all three share their conversions).
        "[" + sample.joined(separator: ",") + "]",
        "{" + sample.enumerated().map { "\"s\($0.offset)\":\($0.element)" }.joined(separator: ",") + "}",
    ]

    static let sample: [String] = scalars.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        + ["null", "-0", "256", "1e2", "100.0", "1.5", "1E400", "9223372036854775808", #""x""#, #""aGVsbG8=""#]

    @Test(arguments: scalars + containers)
    func decodesAsFoundation(text: String) throws {
        let ours = Self.transcript { try WireJSON.decode(DecoderTranscript.self, from: Array(text.utf8)) }
        let theirs = Self.transcript { try JSONDecoder().decode(DecoderTranscript.self, from: Data(text.utf8)) }
        #expect(ours.count == theirs.count)
        for (line, (mine, foundation)) in zip(ours, theirs).enumerated() where mine != foundation {
            Issue.record("line \(line): decoded \(mine)\n  Foundation \(foundation)")
            break
        }
    }

    /// Top-level `Decodable`s of each kind, through `WireJSON.decode` and `decodeBody`.
    @Test func topLevelValuesDecodeAsFoundation() throws {
        #expect(try WireJSON.decode([String: [Int]].self, from: Array(#"{"a":[1,2],"b":[]}"#.utf8)) == ["a": [1, 2], "b": []])
        #expect(try WireJSON.decode(Int.self, from: Array("1e2".utf8)) == 100)
        #expect(try WireJSON.decode(Double.self, from: Array("-0".utf8)).sign == .minus)
        #expect(try WireJSON.decode(Data.self, from: Array(#""aGVsbG8=""#.utf8)) == Data("hello".utf8))
        #expect(try WireJSON.decode(Decimal.self, from: Array("12.50".utf8)) == Decimal(string: "12.5"))
        #expect(try WireJSON.decode(UInt64.self, from: Array("18446744073709551615".utf8)) == .max)
        #expect(try WireJSON.decode(Int64.self, from: Array("-9223372036854775808".utf8)) == .min)
        #expect(try RequestEnvelope.decodeBody([Int: String].self, from: Array(#"{"1":"a","-2":"b"}"#.utf8)).get() == [1: "a", -2: "b"])
        let bad = RequestEnvelope.decodeBody([Int].self, from: Array("[1,2.5]".utf8))
        #expect(bad == .failure(BadRequest(id: .null, field: "[1]", message: "[1] must be an integer.")))
    }

    /// The lines of a transcript, or of the error that stopped it at the top.
    private static func transcript(_ decode: () throws -> DecoderTranscript) -> [String] {
        do {
            return try decode().lines
        } catch {
            return ["top: \(DecoderTranscript.describe(error))"]
        }
    }
}
