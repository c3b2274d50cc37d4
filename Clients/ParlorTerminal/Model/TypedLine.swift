extension String {
    /// The line without leading and trailing whitespace: what a typed or scripted line says.
    var trimmedLine: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
