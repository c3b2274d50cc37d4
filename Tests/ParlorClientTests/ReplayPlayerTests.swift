import Foundation
import ParlorClient
import ParlorWire
import Testing

@testable import ParlorTerminal

/// `parlor replay`'s keys and pace, without a terminal: a record of three steps taken 1 s, 10 minutes
/// and 0 s apart.
@Suite("Replay keys and pace")
struct ReplayPlayerTests {
    private func record() throws -> GameRecord {
        let page = """
            {"kind":"darts","code":"3QX7K","createdAt":"2026-11-29T21:00:00.000Z","finishedAt":"2026-11-29T21:10:02.000Z",
             "stepCount":3,"initial":{"version":1,"view":{"players":[{"id":"aaaaaaaa-0000-4000-8000-000000000001","name":"Ann"}]}},
             "steps":[{"step":1,"actor":"bbbbbbbb-0000-4000-8000-000000000002","at":"2026-11-29T21:00:01.000Z","version":2,"view":{"players":[{"id":"aaaaaaaa-0000-4000-8000-000000000001","name":"Ann"},{"id":"bbbbbbbb-0000-4000-8000-000000000002","name":"Bo"}]}},
                      {"step":2,"actor":"aaaaaaaa-0000-4000-8000-000000000001","at":"2026-11-29T21:10:01.000Z","version":3,"view":{"players":[{"id":"aaaaaaaa-0000-4000-8000-000000000001","name":"Ann"},{"id":"bbbbbbbb-0000-4000-8000-000000000002","name":"Bo"}]}},
                      {"step":3,"at":"2026-11-29T21:10:01.000Z","version":4,"view":{"players":[]}}]}
            """
        let decoded = try JSONDecoder().decode(GameRecordPage.self, from: Data(page.utf8))
        return GameRecord(
            kind: decoded.kind, code: decoded.code, createdAt: decoded.createdAt, finishedAt: decoded.finishedAt,
            stepCount: decoded.stepCount, initial: try #require(decoded.initial), steps: decoded.steps)
    }

    @Test("Arrows, Home and End move and pause; q quits; the status names the step's actor or the clock")
    func stepping() throws {
        var player = ReplayPlayer(record: try record())
        #expect(player.statusText == "step 0/3 · 21:00:00 · created")
        #expect(player.press(.left) == .nothing)
        #expect(player.press(.right) == .redraw)
        #expect(player.statusText == "step 1/3 · 21:00:01 · Bo")
        #expect(player.press(.end) == .redraw)
        #expect(player.statusText == "step 3/3 · 21:10:01 · the clock")
        #expect(player.press(.right) == .nothing)
        #expect(player.press(.home) == .redraw)
        #expect(player.position == 0)
        #expect(player.press(.character("q")) == .quit)
    }

    @Test("Space plays at the recorded pace, gaps cut to 3 s, x four times as fast; it stops at the end")
    func playing() throws {
        var player = ReplayPlayer(record: try record())
        #expect(player.delayToNext == nil)
        _ = player.press(.character(" "))
        #expect(player.delayToNext == .seconds(1))
        player.advance()
        #expect(player.delayToNext == .seconds(3))
        _ = player.press(.character("x"))
        #expect(player.delayToNext == .milliseconds(750))
        #expect(player.statusText.hasSuffix("· Bo · playing ×4"))
        player.advance()
        #expect(player.delayToNext == ReplayPlayer.shortestGap)
        player.advance()
        #expect(player.position == 3)
        #expect(!player.playing)
        #expect(player.delayToNext == nil)
        // Space at the end plays again from the start.
        _ = player.press(.character(" "))
        #expect(player.position == 0 && player.playing)
    }
}
