/// One dart as it landed, in the notation scorers write: `S1`…`S20` (or bare `1`…`20`), `D1`…`D20`,
/// `T1`…`T20`, `25` (outer bull), `DB` or `50` (bull, a double), `M` or `0` (a miss).
///
/// Codable as its canonical notation (`S20`, `D16`, `T19`, `25`, `DB`, `M`), so a stored or sent dart
/// reads the same everywhere.
public enum Dart: Sendable, Hashable, Codable, CustomStringConvertible {
    case miss
    /// 1…20, or 25 for the outer bull.
    case single(Int)
    /// 1…20, or 25 for the bull.
    case double(Int)
    /// 1…20.
    case treble(Int)

    public static let outerBull = Dart.single(25)
    public static let bull = Dart.double(25)

    /// What the dart scores.
    public var points: Int {
        switch self {
        case .miss: 0
        case .single(let segment): segment
        case .double(let segment): 2 * segment
        case .treble(let segment): 3 * segment
        }
    }

    public var isDouble: Bool { if case .double = self { true } else { false } }
    public var isTreble: Bool { if case .treble = self { true } else { false } }
    /// The outer bull or the bull.
    public var isBull: Bool { self == .outerBull || self == .bull }

    /// The canonical notation.
    public var notation: String {
        switch self {
        case .miss: "M"
        case .single(25): "25"
        case .double(25): "DB"
        case .single(let segment): "S\(segment)"
        case .double(let segment): "D\(segment)"
        case .treble(let segment): "T\(segment)"
        }
    }

    public var description: String { notation }

    /// Every dart that scores, each once: 20 singles, 20 doubles, 20 trebles, the outer bull and the bull.
    public static let scoring: [Dart] =
        (1...20).map(Dart.single) + [.outerBull] + (1...20).map(Dart.double) + [.bull] + (1...20).map(Dart.treble)

    /// Reads a dart a scorer typed: trimmed, any case. Nil for anything that is not a dart.
    public init?(notation text: String) {
        let written = text.trimmingWhitespace().uppercased()
        switch written {
        case "M", "0", "MISS": self = .miss
        case "25", "S25", "SB", "OB": self = .outerBull
        case "50", "DB", "D25", "BULL": self = .bull
        default:
            guard let first = written.first else { return nil }
            let ring: (Int) -> Dart
            let digits: Substring
            switch first {
            case "S": (ring, digits) = (Dart.single, written.dropFirst())
            case "D": (ring, digits) = (Dart.double, written.dropFirst())
            case "T": (ring, digits) = (Dart.treble, written.dropFirst())
            default: (ring, digits) = (Dart.single, Substring(written))
            }
            // Only plain ASCII digits, at most two of them, with no sign or leading zero.
            guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
                  let segment = Int(digits), (1...20).contains(segment)
            else { return nil }
            self = ring(segment)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let dart = Dart(notation: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a dart")
        }
        self = dart
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(notation)
    }
}
