import ParlorClient
import ParlorRules
import ParlorWire

/// Where a replay is and what its keys do: a plain value over a whole record, so stepping, playing and
/// the status line can be tested without a terminal. Position 0 is the game as it was created; N the
/// game after its last step.
struct ReplayPlayer: Sendable, Equatable {
    /// The longest pause between two steps while playing: a game left alone for minutes plays on.
    static let longestGap: Duration = .seconds(3)
    /// The shortest, so that steps taken at once are still each seen.
    static let shortestGap: Duration = .milliseconds(100)
    static let fastFactor = 4

    let record: GameRecord
    private(set) var position = 0
    private(set) var playing = false
    /// Playing ×4.
    private(set) var fast = false

    init(record: GameRecord, position: Int = 0) {
        self.record = record
        self.position = min(max(position, 0), record.steps.count)
    }

    var lastPosition: Int { record.steps.count }

    /// The step shown (nil at position 0: the game as created).
    var step: GameRecordPage.Step? { position > 0 ? record.steps[position - 1] : nil }

    var view: JSONFragment { step?.view ?? record.initial.view }
    var privateView: JSONFragment? { step.map(\.privateView) ?? record.initial.privateView }

    enum Reaction: Equatable {
        /// Something changed: draw again (and arm the next step's timer).
        case redraw
        case nothing
        case quit
    }

    /// ←/→ a step, Home/End the start and the end, space plays or pauses, `x` toggles ×4, `q` (Esc,
    /// Ctrl-C) quits. Stepping by hand pauses.
    mutating func press(_ key: Key) -> Reaction {
        switch key {
        case .left: return move(to: position - 1)
        case .right: return move(to: position + 1)
        case .home: return move(to: 0)
        case .end: return move(to: lastPosition)
        case .character(" "):
            if !playing && position == lastPosition { position = 0 }
            playing.toggle()
            return .redraw
        case .character("x"), .character("X"):
            fast.toggle()
            return .redraw
        case .character("q"), .character("Q"), .escape, .interrupt, .endOfInput:
            return .quit
        default:
            return .nothing
        }
    }

    private mutating func move(to target: Int) -> Reaction {
        let target = min(max(target, 0), lastPosition)
        guard target != position || playing else { return .nothing }
        position = target
        playing = false
        return .redraw
    }

    /// How long to show this position while playing before the next: the recorded gap, at most
    /// `longestGap` (a quarter with ×4); nil when not playing or at the end.
    var delayToNext: Duration? {
        guard playing, position < lastPosition else { return nil }
        let from = Instant(iso8601: step?.at ?? record.createdAt)
        let to = Instant(iso8601: record.steps[position].at)
        var gap = Self.longestGap
        if let from, let to {
            gap = min(.milliseconds(max(to.millisecondsSinceEpoch - from.millisecondsSinceEpoch, 0)), Self.longestGap)
        }
        if fast { gap /= Self.fastFactor }
        return max(gap, Self.shortestGap)
    }

    /// The timer's step while playing; playing stops at the end.
    mutating func advance() {
        guard playing, position < lastPosition else { return }
        position += 1
        if position == lastPosition { playing = false }
    }

    // MARK: The status line

    /// "step 3/9 · 21:04:05 · Ann" (the time in UTC; the actor's name from the view's players, else
    /// their id; "the clock" for a step no one took, "created" before the first).
    var statusText: String {
        let time = Self.clockTime(step?.at ?? record.createdAt)
        let who: String
        if let step {
            who = step.actor.map { ReplayNames.name(of: $0, in: view) ?? ReplayNames.name(of: $0, in: record.steps.last?.view ?? view) ?? $0.rawValue } ?? "the clock"
        } else {
            who = "created"
        }
        var text = "step \(position)/\(lastPosition) · \(time) · \(who)"
        if playing { text += fast ? " · playing ×4" : " · playing" } else if fast { text += " · ×4" }
        return text
    }

    /// "21:04:05" from "2026-11-29T21:04:05.123Z".
    static func clockTime(_ iso8601: String) -> String {
        guard iso8601.count >= 19 else { return iso8601 }
        return String(iso8601.dropFirst(11).prefix(8))
    }
}
