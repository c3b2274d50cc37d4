import ParlorRules
import ParlorWire

/// How the rummy score grid fits a width: at 80 columns and more, six-column rounds and full names; below
/// that, five-column rounds and names cut to what is left; and where even that cannot hold six rounds
/// and the Total (about 46 columns), a window of rounds that ends at the current one, so the round being
/// played and the Total are always on screen.
struct ScoreGridLayout: Equatable {
    var nameWidth: Int
    var cellWidth: Int
    var totalWidth: Int
    /// The rounds shown, left to right.
    var rounds: ClosedRange<Int>
    /// Names carry " (you)" (else only the marks fit).
    var namesSayYou: Bool

    static let wideCell = 6
    static let wideTotal = 7
    static let narrowCell = 5
    static let narrowTotal = 6
    /// A name is never cut shorter than this; rounds scroll first.
    static let shortestName = 6

    /// `labels` are the names as the wide grid writes them; `leading` the columns before a name (the
    /// cursor and, once known, the presence dot).
    init(width: Int, leading: Int, labels: [String], shortLabels: [String], current: Int) {
        let longest = min(max(labels.map { TextWidth.of($0) }.max() ?? 0, Self.shortestName), 24)
        let all = 1...RummyRules.roundCount
        let wide = leading + longest + all.count * Self.wideCell + Self.wideTotal
        if wide <= width {
            self.init(nameWidth: longest, cellWidth: Self.wideCell, totalWidth: Self.wideTotal, rounds: all, namesSayYou: true)
            return
        }
        let fixed = leading + Self.narrowTotal
        let room = width - fixed - all.count * Self.narrowCell
        if room >= longest {
            self.init(nameWidth: longest, cellWidth: Self.narrowCell, totalWidth: Self.narrowTotal, rounds: all, namesSayYou: true)
            return
        }
        let shortest = min(max(shortLabels.map { TextWidth.of($0) }.max() ?? 0, Self.shortestName), 24)
        if room >= Self.shortestName {
            self.init(nameWidth: min(room, shortest), cellWidth: Self.narrowCell, totalWidth: Self.narrowTotal, rounds: all, namesSayYou: false)
            return
        }
        let name = min(shortest, max(Self.shortestName, width / 4))
        let count = min(max((width - fixed - name) / Self.narrowCell, 1), all.count)
        let last = min(max(current, count), all.upperBound)
        self.init(
            nameWidth: name, cellWidth: Self.narrowCell, totalWidth: Self.narrowTotal, rounds: (last - count + 1)...last,
            namesSayYou: false)
    }

    init(nameWidth: Int, cellWidth: Int, totalWidth: Int, rounds: ClosedRange<Int>, namesSayYou: Bool) {
        self.nameWidth = nameWidth
        self.cellWidth = cellWidth
        self.totalWidth = totalWidth
        self.rounds = rounds
        self.namesSayYou = namesSayYou
    }

    /// The current round's header: bracketed where the cell has room for it.
    func label(round: Int, isCurrent: Bool) -> String {
        isCurrent ? "[R\(round)]" : "R\(round)"
    }
}
