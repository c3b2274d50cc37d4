import Foundation

/// Text as profile search compares it: case and accents folded away ("Chloé" and "CHLOE" are
/// "chloe"), runs of whitespace made one space, so a search for what a person remembers finds them.
enum ProfileText {
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
            .split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
    }
}
