/// How a lobby player's chosen `colorNumber` (0–15) and `emojiNumber` (0–63) look in a terminal.
///
/// The phone app keeps its own tables; a terminal cannot match those pixels, so these are stand-ins that
/// keep players apart: 16 distinct colours of the 256-colour palette that read on dark and light
/// backgrounds, and 64 emoji that terminals draw two columns wide.
public enum PlayerLook {
    /// 256-colour palette indices: red, orange, yellow, lime, green, teal, cyan, sky, blue, indigo,
    /// purple, magenta, pink, brown, grey, salmon.
    public static let colors = [196, 208, 220, 118, 34, 37, 51, 39, 27, 63, 129, 201, 213, 130, 245, 210]

    public static let emoji: [String] = [
        "🐶", "🐱", "🐭", "🐹", "🐰", "🦊", "🐻", "🐼", "🐨", "🐯", "🦁", "🐮", "🐷", "🐸", "🐵", "🐔",
        "🐧", "🐦", "🐤", "🦆", "🦉", "🦇", "🐺", "🐗", "🐴", "🦄", "🐝", "🐛", "🦋", "🐌", "🐞", "🐜",
        "🐢", "🐍", "🦎", "🐙", "🦑", "🦀", "🐠", "🐬", "🐳", "🦈", "🐊", "🐘", "🦒", "🦓", "🦔", "🦜",
        "🍎", "🍋", "🍉", "🍇", "🍓", "🍒", "🥝", "🍄", "🌵", "🌻", "🌈", "⭐", "🔥", "🎈", "🎲", "🚀",
    ]

    /// The style of a player's colour swatch and name.
    public static func style(colorNumber: Int) -> TextStyle {
        colors.indices.contains(colorNumber) ? .color(colors[colorNumber]) : .plain
    }

    /// A player's emoji; a neutral face for a number this client does not know.
    public static func emoji(_ emojiNumber: Int) -> String {
        emoji.indices.contains(emojiNumber) ? emoji[emojiNumber] : "🙂"
    }

    /// The swatch drawn in the player's colour before the emoji.
    public static let swatch = "●"
}
