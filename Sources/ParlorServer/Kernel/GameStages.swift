import NIOConcurrencyHelpers
import ParlorRules

/// The stage of every live game of one kind, kept as games change so that `/metrics` can count them by
/// stage without asking each game's actor.
final class GameStages: Sendable {
    private let stages = NIOLockedValueBox<[String: GameStage]>([:])

    /// Records game `id`'s stage; returns the one it had before (nil for a game not seen yet).
    @discardableResult
    func set(_ id: String, to stage: GameStage) -> GameStage? {
        stages.withLockedValue { $0.updateValue(stage, forKey: id) }
    }

    func remove(_ id: String) {
        _ = stages.withLockedValue { $0.removeValue(forKey: id) }
    }

    /// Live games per stage, every stage present (0 when none).
    var counts: [GameStage: Int] {
        stages.withLockedValue { stages in
            var counts = Dictionary(uniqueKeysWithValues: GameStage.allCases.map { ($0, 0) })
            for stage in stages.values { counts[stage, default: 0] += 1 }
            return counts
        }
    }
}
