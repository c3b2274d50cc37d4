import Foundation
import ParlorRules
import ParlorWire

/// Draws a replay: the replay's status line on top (the game, its code, step n/N, the step's time and
/// who took it), the game's own screen body for the step's view, and the replay's keys at the foot.
enum ReplayScreen {
    static func render(
        _ player: ReplayPlayer, drawing: ReplayDrawing?, server: String, me: UserID?, width: Int, height: Int
    ) -> [ScreenLine] {
        let width = max(width, 1)
        let height = max(height, 1)
        let title = "Replay · \(History.kindName(player.record.kind)) \(player.record.code)"
        let status = ScreenLine([Span(title, .bold), Span(" · " + player.statusText)])
        let frame = ReplayFrame(
            server: server, code: player.record.code, me: me, view: player.view, privateView: player.privateView,
            at: Instant(iso8601: player.step?.at ?? player.record.createdAt) ?? .epoch)
        return ScreenLayout.compose(status: status, bottom: [note(player), keys(player, width: width)], width: width, height: height) { rows in
            drawing.flatMap { $0.body(frame, width, rows) } ?? plain(player, width: width)
        }
    }

    /// The text only (what tests and `--step` print).
    static func text(_ player: ReplayPlayer, drawing: ReplayDrawing?, server: String, me: UserID?, width: Int, height: Int) -> [String] {
        render(player, drawing: drawing, server: server, me: me, width: width, height: height).map(\.text)
    }

    private static func note(_ player: ReplayPlayer) -> ScreenLine {
        guard !player.record.isComplete else { return "" }
        return ScreenLine("  Only the first \(player.lastPosition) of \(player.record.stepCount) steps were read.", .warning)
    }

    private static func keys(_ player: ReplayPlayer, width: Int) -> ScreenLine {
        KeysLine.line(
            [("←/→", "step"), ("Home/End", "start/end"), ("space", player.playing ? "pause" : "play"),
             ("x", player.fast ? "×1" : "×4"), ("q", "quit")],
            width: width)
    }

    /// A game the terminal cannot draw from a record: the step's action, as the record has it.
    private static func plain(_ player: ReplayPlayer, width: Int) -> [ScreenLine] {
        guard let action = player.step?.action else { return ["", "  (this step's screen cannot be drawn here)"] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(action)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return ["", ScreenLine("  Action: " + text)]
    }
}
