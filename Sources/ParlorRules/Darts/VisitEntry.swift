/// What a scorer entered for one visit: the darts, or (for a visit that does not finish the leg) only
/// its total, which counts as three darts thrown.
public enum VisitEntry: Sendable, Equatable, Codable {
    case darts([Dart])
    case total(Int)

    /// The darts, when they were named.
    public var darts: [Dart]? {
        if case .darts(let darts) = self { return darts }
        return nil
    }

    /// Reads what a client sent: exactly one of `darts` (1 to 3, in notation) and `total`.
    public init(darts: [String]?, total: Int?) throws(DartsError) {
        switch (darts, total) {
        case (let darts?, nil):
            guard (1...DartsLimits.dartsPerVisit).contains(darts.count) else {
                throw .invalidDarts(reason: "A visit has 1 to \(DartsLimits.dartsPerVisit) darts (got \(darts.count)).")
            }
            var parsed: [Dart] = []
            for text in darts {
                guard let dart = Dart(notation: text) else {
                    throw .invalidDarts(reason: "\"\(DartsError.clip(text))\" is not a dart: write S1–S20 (or 1–20), D1–D20, T1–T20, 25, DB (or 50), or M (or 0) for a miss.")
                }
                parsed.append(dart)
            }
            self = .darts(parsed)
        case (nil, let total?):
            guard (0...DartsLimits.maxVisitTotal).contains(total) else {
                throw .invalidDarts(reason: "A visit's total is between 0 and \(DartsLimits.maxVisitTotal) (got \(total)).")
            }
            guard !Self.impossibleTotals.contains(total) else {
                throw .invalidDarts(reason: "\(total) cannot be scored with three darts.")
            }
            self = .total(total)
        case (nil, nil), (_?, _?):
            throw .invalidInput(field: "darts", reason: "Send either darts or total for a visit, not both and not neither.")
        }
    }

    /// The totals from 0 to 180 that no three darts add up to (179, 178, 176, 175, 173, 172, 169, 166, 163).
    public static let impossibleTotals: Set<Int> = {
        let values = Set([0] + Dart.scoring.map(\.points))
        var reachable: Set<Int> = []
        for a in values { for b in values { for c in values { reachable.insert(a + b + c) } } }
        return Set(0...DartsLimits.maxVisitTotal).subtracting(reachable)
    }()
}
