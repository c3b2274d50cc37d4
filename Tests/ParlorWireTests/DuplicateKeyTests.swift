import ParlorRules
import ParlorWire
import Testing

/// A key repeated in one object is refused, wherever it is, however it is spelled: two parsers that
/// keep different copies would read two different requests.
@Suite struct DuplicateKeyTests {
    @Test(arguments: [
        (#"{"id":1,"op":"hello","op":"getRoom","args":{}}"#, "op", RequestID.number(1)),
        (#"{"id":1,"id":2,"op":"hello"}"#, "id", RequestID.null),
        (#"{"id":"r","op":"joinRoom","args":{"code":"A1B2C3","playerName":"Bo","playerName":"Al"}}"#, "args.playerName", RequestID.string("r")),
        (#"{"id":3,"op":"createLobby","args":{"user":{"username":"A","colorNumber":1,"colorNumber":2,"emojiNumber":3}}}"#,
         "args.user.colorNumber", RequestID.number(3)),
        (#"{"id":4,"op":"hello","args":{"token":"a","\u0074oken":"b"}}"#, "args.token", RequestID.number(4)),
        (#"{"id":5,"op":"hello","extra":[{"a":1},{"b":1,"b":2}]}"#, "extra[1].b", RequestID.number(5)),
        (#"{"id":6,"op":"hello","x":{"é":1,"e\u0301":2}}"#, "x.é", RequestID.number(6)),
        // The empty key is named too (found by fuzz-envelope: the message named nothing).
        (#"{"id":7,"op":"hello","":1,"":2}"#, #""""#, RequestID.number(7)),
        (#"{"id":8,"op":"hello","args":{"":{"":1,"":2}}}"#, "args.\"\".\"\"", RequestID.number(8)),
    ])
    func framesWithARepeatedKeyAreRefused(frame: String, field: String, id: RequestID) throws {
        let bad = try decodeBad(frame)
        #expect(bad.id == id)
        #expect(bad.field == field)
        #expect(bad.message == "\(field) appears more than once; send each key once.")
    }

    @Test(arguments: [
        // The same key in different objects, and strings that only look like keys, are fine.
        #"{"id":1,"op":"hello","args":{"token":"id"},"x":{"args":{"token":1}}}"#,
        #"{"id":1,"op":"hello","x":[{"a":1},{"a":2}],"y":"\"a\":1,\"a\":2"}"#,
        #"{"id":1,"op":"hello","x":{"a\"":1,"a":2,"a\\":3}}"#,
    ])
    func keysRepeatedOnlyAcrossObjectsAreAccepted(frame: String) throws {
        _ = try decodeOK(frame)
    }

    @Test func largeObjectsAreCheckedInLinearTime() throws {
        let keys = (0..<5_000).map { "\"k\($0)\":0" }
        let unique = "{" + keys.joined(separator: ",") + "}"
        #expect(DuplicateKeyScan.firstDuplicate(in: Array(unique.utf8)) == nil)
        let repeated = "{" + (keys + ["\"k4321\":1"]).joined(separator: ",") + "}"
        #expect(DuplicateKeyScan.firstDuplicate(in: Array(repeated.utf8)) == .init(path: [], key: "k4321"))
    }

    @Test(arguments: [
        "", "{", "}", "]]]", #"{"a"#, #"{"a\"#, #"{"\u12"#, #"{"\ud800":1,"\ud800":2}"#, #"{"a":1,"a"#,
        String(repeating: "[", count: 10_000), String(repeating: "{\"a\":", count: 10_000),
    ])
    func documentsItCannotFollowAreLeftToTheDecoder(text: String) {
        // Nothing to report (or a repeat in what was read); never a crash, never a hang.
        _ = DuplicateKeyScan.firstDuplicate(in: Array(text.utf8))
    }

    @Test func callableBodiesAndRESTBodiesAreCheckedToo() throws {
        let choice = ArgumentsChoice<HelloArguments>.one(.reading(HelloArguments.self) { $0 })
        guard case .failure(let bad) = RequestEnvelope.decodeCallable(Array(#"{"data":{"token":"a","token":"b"}}"#.utf8), choice) else {
            Issue.record("a repeated key in a callable body was accepted")
            return
        }
        #expect(bad.field == "data.token")
        guard case .failure(let body) = RequestEnvelope.decodeBody(HelloArguments.self, from: Array(#"{"token":"a","token":"b"}"#.utf8)) else {
            Issue.record("a repeated key in a body was accepted")
            return
        }
        #expect(body.message == "token appears more than once; send each key once.")
        #expect(try RequestEnvelope.decodeBody(HelloArguments.self, from: Array(#"{"token":"a"}"#.utf8)).get() == HelloArguments(token: "a"))
    }
}
