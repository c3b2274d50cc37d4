/// A random number generator that is a pure function of its seed (SplitMix64, Steele, Lea & Flood 2014):
/// the rules draw their randomness from it, so a game with its seed stored plays the same after a
/// restart, and a test can name the outcome of a shuffle.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one purpose of one game (`stream` 1 for the photo order, 2 + n for the tiles of
    /// photo n, …): streams from one seed do not repeat each other.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SeededGenerator(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// A number in `0..<bound` (Lemire's multiply-high, without the rejection step: the bias for the
    /// small bounds a game shuffles is below 2⁻⁵⁰).
    public mutating func index(below bound: Int) -> Int {
        precondition(bound > 0, "an index below \(bound)")
        return Int(UInt64(bound).multipliedFullWidth(by: next()).high)
    }

    /// `elements` in a Fisher–Yates order drawn from this generator: written out rather than the
    /// standard library's `shuffled(using:)`, whose algorithm is not promised to stay the same, so a
    /// seed names the same order with every toolchain.
    public mutating func shuffle<Element>(_ elements: [Element]) -> [Element] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, self.index(below: index + 1))
            index -= 1
        }
        return result
    }
}
