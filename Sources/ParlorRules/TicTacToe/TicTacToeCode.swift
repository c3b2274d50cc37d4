/// A tic-tac-toe game's code: 7 digits. Digits only and seven of them, so it says its kind: no room
/// (6 characters), lobby (4 letters), match or quiz code (5 characters) has that shape. 10⁷ codes.
public struct TicTacToeCode: ShortCode {
    public static let space = CodeSpace(alphabet: "0123456789", length: 7)
    public static let kindName = "Tic-tac-toe code"
    public let rawValue: String

    public init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}
