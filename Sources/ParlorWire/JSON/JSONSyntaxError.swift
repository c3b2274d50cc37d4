/// Why a text is not JSON (RFC 8259, UTF-8), and where: the byte offset the parser stopped at.
///
/// Foundation's decoder checks strings and numbers only when they are decoded, so it lets some of these
/// through in values nobody reads, and takes trailing commas everywhere; this parser refuses them all,
/// wherever they are.
@usableFromInline
struct JSONSyntaxError: Error, Sendable, Equatable {
    @usableFromInline
    enum Reason: Sendable, Equatable {
        case unexpectedEnd
        case unexpectedCharacter
        /// `[1,]`, `{"a":1,}`: Foundation accepts them.
        case trailingComma
        /// After the top-level value.
        case trailingGarbage
        /// A number that breaks the grammar: `01`, `1.`, `.5`, `1e`, `-`, `+1`.
        case invalidNumber
        /// `\x`, `\u12G4`.
        case invalidEscape
        /// A `\u` escape of half a surrogate pair, without its other half.
        case loneSurrogate
        /// A byte below 0x20 inside a string.
        case controlCharacter
        case invalidUTF8
        /// More than `JSONParser.maxDepth` arrays and objects inside one another.
        case tooDeep
    }

    @usableFromInline let reason: Reason
    @usableFromInline let offset: Int

    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}

/// What keeps a text from being read as a document.
@usableFromInline
enum JSONParseFailure: Error, Sendable {
    case invalid(JSONSyntaxError)
    /// A key found twice in one object, the first such in the text; the document when the rest of the text
    /// is valid JSON (a caller still reads the request's id from it), nil when it is not.
    case repeatedKey(DuplicateKeyScan.Duplicate, JSONDocument?)
}
