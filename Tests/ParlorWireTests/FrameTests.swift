import ParlorRules
import ParlorWire
import Testing

@Suite struct FrameTests {
    struct Payload: Codable, Equatable { let b: Int; let a: String }

    @Test func replyLayout() throws {
        let bytes = try Reply.result(id: .number(7), Payload(b: 1, a: "x"))
        #expect(text(bytes) == #"{"id":7,"result":{"a":"x","b":1}}"#)
        let parsed = try parse(bytes)
        #expect(parsed["id"] as? Int == 7)
        #expect((parsed["result"] as? [String: Any])?["a"] as? String == "x")
        #expect(text(Reply.success(id: .string("q"))) == #"{"id":"q","result":null}"#)
        #expect(text(Reply.success(id: .null)) == #"{"id":null,"result":null}"#)
    }

    @Test func errorLayout() throws {
        let bytes = Reply.error(id: .number(7), WireError(.roomNotFound, "Room not found"))
        #expect(text(bytes) == #"{"id":7,"error":{"code":"ROOM_NOT_FOUND","message":"Room not found","status":"not-found"}}"#)
        let decoded = try WireJSON.decode(ServerFrame.Reply<Payload>.self, from: bytes)
        #expect(decoded.id == .number(7) && decoded.result == nil)
        #expect(decoded.error == WireError(.roomNotFound, "Room not found"))
    }

    @Test func stringsAreEscaped() throws {
        let nasty = "quote \" backslash \\ newline \n tab \t bell \u{7} emoji 🃏 slash /"
        let bytes = Reply.error(id: .string(nasty), WireError(.badRequest, nasty))
        let parsed = try parse(bytes)
        #expect(parsed["id"] as? String == nasty)
        #expect((parsed["error"] as? [String: Any])?["message"] as? String == nasty)
    }

    @Test func badRequestReplies() throws {
        guard case .failure(let bad) = Request.decode(#"{"id":"r9","op":"joinRoom","args":{}}"#) else {
            Issue.record("expected a bad request")
            return
        }
        let parsed = try parse(Reply.error(bad))
        #expect(parsed["id"] as? String == "r9")
        let error = try #require(parsed["error"] as? [String: Any])
        #expect(error["code"] as? String == "BAD_REQUEST" && error["status"] as? String == "invalid-argument")
        #expect((error["message"] as? String)?.contains("args.code") == true)
    }

    @Test func eventsSpliceThePreEncodedData() throws {
        let data = try EncodedJSON(Payload(b: 2, a: "y"))
        let first = EventMessage.frame(subscription: 3, event: .room, data: data)
        let second = EventMessage.frame(subscription: 12, event: .room, data: data)
        #expect(text(first) == #"{"sub":3,"event":"room","data":{"a":"y","b":2}}"#)
        #expect(text(second) == #"{"sub":12,"event":"room","data":{"a":"y","b":2}}"#)
        #expect(Array(first.suffix(data.bytes.count + 1).dropLast()) == data.bytes)
        #expect(text(EventMessage.end(subscription: 3)) == #"{"sub":3,"event":"end"}"#)
        let parsed = try parse(first)
        #expect(parsed["sub"] as? Int == 3 && parsed["event"] as? String == "room")
        let event = try WireJSON.decode(ServerFrame.Event<Payload>.self, from: first)
        #expect(event.sub == 3 && event.event == .room && event.data == Payload(b: 2, a: "y"))
    }

    @Test func headersTellRepliesFromEvents() throws {
        let reply = try WireJSON.decode(ServerFrame.Header.self, from: Reply.success(id: .null))
        #expect(reply.id == .null && !reply.isEvent)
        let event = try WireJSON.decode(ServerFrame.Header.self, from: EventMessage.end(subscription: 1))
        #expect(event.isEvent && event.event == .end && event.id == nil)
    }

    @Test func encodingIsStable() throws {
        let room = try RummyRoom.create(code: RoomCode(parsing: "A1B2C3"), pointLimit: 100, pointValue: 5, playerCount: 4,
                                        creator: user(1), playerName: "Mo", at: t0)
        #expect(try EncodedJSON(GameRoom(room)) == EncodedJSON(GameRoom(room)))
    }
}
