/// The finish to suggest for every score, darts left and out rule: the shortest legal finish, and among
/// those of one length the one players aim for — as few bulls as possible, the preferred finishing
/// double (D20, D16, D8, D12, D18, …, the bull last), then the biggest set-up darts (T20 first).
///
/// Built once per process by searching every sequence of up to three darts (62 scoring darts: about
/// 240,000 sequences per out rule), so it is right by construction rather than copied from a chart;
/// `CheckoutTableTests` checks it against a brute force for every score.
public struct CheckoutTable: Sendable {
    /// The highest score any rule finishes in three darts (T20 T20 T20, straight or master out).
    public static let maxScore = 180

    /// `finishes[outRule][darts - 1][score]`.
    private let finishes: [OutRule: [[[Dart]?]]]

    /// The table every match reads.
    public static let standard = CheckoutTable()

    /// The suggested finish for `score` with `darts` (1…3) left under `outRule`, or nil when there is none.
    public func suggestion(for score: Int, darts: Int, outRule: OutRule) -> [Dart]? {
        guard (1...DartsLimits.dartsPerVisit).contains(darts), (1...Self.maxScore).contains(score) else { return nil }
        return finishes[outRule]?[darts - 1][score] ?? nil
    }

    /// Whether `score` can be finished in one visit of three darts under `outRule`.
    public func isFinishable(_ score: Int, outRule: OutRule) -> Bool {
        suggestion(for: score, darts: DartsLimits.dartsPerVisit, outRule: outRule) != nil
    }

    init() {
        var finishes: [OutRule: [[[Dart]?]]] = [:]
        for rule in OutRule.allCases { finishes[rule] = Self.search(rule) }
        self.finishes = finishes
    }

    private static func search(_ rule: OutRule) -> [[[Dart]?]] {
        let all = Dart.scoring
        let finishers = all.filter(rule.finishes(with:))
        let setUpRanks = all.map(setUpRank)
        let bulls = all.map { $0.isBull ? 1 : 0 }
        // Preference keys packed into one integer (lower first) so the search allocates nothing per
        // sequence: bulls, then the finishing dart, then the set-up darts in throwing order.
        let base = rankBase
        // best[n][score]: the best finish of exactly n + 1 darts, with its key.
        var best = [[(key: Int, darts: [Dart])?]](
            repeating: [(key: Int, darts: [Dart])?](repeating: nil, count: maxScore + 1), count: DartsLimits.dartsPerVisit)
        func offer(_ score: Int, _ length: Int, _ key: Int, _ darts: @autoclosure () -> [Dart]) {
            guard score <= maxScore else { return }
            if let current = best[length - 1][score], current.key <= key { return }
            best[length - 1][score] = (key, darts())
        }
        for last in finishers {
            let lastKey = (last.isBull ? 1 : 0) * base + finishRank(last, rule)
            offer(last.points, 1, lastKey, [last])
            for (i, first) in all.enumerated() {
                let two = first.points + last.points
                guard two <= maxScore else { continue }
                let twoKey = lastKey + bulls[i] * base
                offer(two, 2, twoKey * base + setUpRanks[i], [first, last])
                for (j, second) in all.enumerated() where two + second.points <= maxScore {
                    let threeKey = ((twoKey + bulls[j] * base) * base + setUpRanks[i]) * base + setUpRanks[j]
                    offer(two + second.points, 3, threeKey, [first, second, last])
                }
            }
        }
        // With n darts left, the shortest finish of at most n darts.
        return (0..<DartsLimits.dartsPerVisit).map { allowed in
            (0...maxScore).map { score in (0...allowed).lazy.compactMap { best[$0][score] }.first?.darts }
        }
    }

    /// Every rank is below this, so packed keys compare as their parts do.
    private static let rankBase = 2048

    /// Doubles in the order players prefer to finish on: D20, D16, D8 (each halves to another double
    /// after a near miss), then the other even doubles, then the odd ones, the bull last.
    static let preferredDoubles: [Int] = [20, 16, 8, 12, 18, 10, 4, 14, 6, 2, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1]

    /// How much a finishing dart is preferred under `rule` (lower first): for straight out a single
    /// (the biggest target) first, for master out a double before a treble; the bull always last.
    static func finishRank(_ dart: Dart, _ rule: OutRule) -> Int {
        switch dart {
        case .double(25): return 1000
        case .double(let segment): return 100 + (preferredDoubles.firstIndex(of: segment) ?? 99)
        case .treble(let segment): return 200 + (20 - segment)
        case .single(25): return 50
        case .single(let segment): return 20 - segment
        case .miss: return 2000
        }
    }

    /// How much a set-up dart is preferred (lower first): trebles from T20 down, then singles from 20
    /// down, then doubles, the bulls last.
    static func setUpRank(_ dart: Dart) -> Int {
        switch dart {
        case .treble(let segment): return 20 - segment
        case .single(25): return 200
        case .single(let segment): return 40 - segment
        case .double(25): return 300
        case .double(let segment): return 100 + (preferredDoubles.firstIndex(of: segment) ?? 99)
        case .miss: return 1000
        }
    }
}
