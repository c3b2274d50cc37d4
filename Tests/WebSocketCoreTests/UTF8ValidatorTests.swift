import Testing
@testable import WebSocketCore

@Suite struct UTF8ValidatorTests {
    private func isValid(_ bytes: [UInt8]) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isComplete
    }

    @Test func acceptsValidText() {
        #expect(isValid(Array("Hello-µ@ßöäüàá-UTF-8!!".utf8)))
        #expect(isValid(Array("κόσμε 🎲 ♠︎ 日本語".utf8)))
        #expect(isValid([0xF4, 0x8F, 0xBF, 0xBF]))  // U+10FFFF
        #expect(isValid([0xED, 0x9F, 0xBF]))  // U+D7FF
        #expect(isValid([0xEE, 0x80, 0x80]))  // U+E000
        #expect(isValid([]))
        #expect(isValid(Array(repeating: 0x41, count: 1000)))
    }

    @Test(arguments: [
        [0xC0, 0xAF],  // overlong '/'
        [0xE0, 0x80, 0xAF],  // overlong 3-byte
        [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
        [0xED, 0xA0, 0x80],  // U+D800 surrogate
        [0xED, 0xBF, 0xBF],  // U+DFFF surrogate
        [0xF4, 0x90, 0x80, 0x80],  // U+110000
        [0xF5, 0x80, 0x80, 0x80],
        [0xFF],
        [0x80],  // stray continuation
        [0xCE, 0xBA, 0xE1, 0xBD],  // truncated at the end
    ] as [[UInt8]])
    func rejectsInvalidSequences(bytes: [UInt8]) {
        #expect(!isValid(bytes))
    }

    /// Split anywhere, fed piece by piece, the verdict is the same as whole.
    @Test func incrementalEqualsWhole() {
        let text = Array("κόσμε 🎲 plain ascii text over eight bytes ♠︎".utf8)
        for split in 0...text.count {
            var validator = UTF8Validator()
            let first = validator.consume(text[..<split])
            let second = validator.consume(text[split...])
            #expect(first && second)
            #expect(validator.isComplete)
        }
    }

    /// The first invalid byte is reported at once, without waiting for the rest of the message.
    @Test func failsFastOnTheFirstInvalidPiece() {
        var validator = UTF8Validator()
        let prefixValid = validator.consume(Array("κόσμε".utf8))
        let surrogateValid = validator.consume([0xED, 0xA0])  // a surrogate's second byte is already impossible
        #expect(prefixValid && !surrogateValid)
        var incomplete = UTF8Validator()
        let partial = incomplete.consume([0xF0, 0x9F])  // a valid prefix of 🎲
        #expect(partial)
        #expect(!incomplete.isComplete)
    }
}
