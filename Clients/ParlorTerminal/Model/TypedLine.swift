extension String {
    /// The line without leading and trailing whitespace: what a typed or scripted line says.
    var trimmedLine: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}

extension String {
    /// Applies a key that edits a line being typed — a printable character (up to `limit` characters)
    /// or Backspace — and says whether it was one.
    mutating func edit(with key: Key, limit: Int) -> Bool {
        switch key {
        case .character(let character):
            if count < limit && !character.isNewline { append(character) }
            return true
        case .backspace:
            if !isEmpty { removeLast() }
            return true
        default:
            return false
        }
    }
}
