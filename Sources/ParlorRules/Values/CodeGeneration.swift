/// No free code was found: every candidate tried was taken.
public struct CodeSpaceExhausted: Error, Sendable, Equatable {
    /// How many candidates were tried.
    public let attempts: Int

    public init(attempts: Int) { self.attempts = attempts }

    public var message: String { "No free code was found after \(attempts) attempts." }
}

extension ShortCode {
    /// Draws a code for which `isTaken` returns false.
    ///
    /// A space no bigger than `maxAttempts` is searched exhaustively in a random order, so "exhausted"
    /// then means every code is taken; a bigger space gets `maxAttempts` random draws. Candidates that
    /// are not valid codes of this kind (possible only with an injected space) count as taken.
    public static func generate(
        in space: CodeSpace = Self.space,
        using generator: inout some RandomNumberGenerator,
        maxAttempts: Int = 64,
        isTaken: (Self) -> Bool
    ) throws(CodeSpaceExhausted) -> Self {
        let attempts = max(1, maxAttempts)
        if let size = space.size, size <= attempts {
            var order = Array(0..<size)
            order.shuffle(using: &generator)
            for index in order {
                if let code = free(space.code(at: index), isTaken) { return code }
            }
            throw CodeSpaceExhausted(attempts: size)
        }
        for _ in 0..<attempts {
            if let code = free(space.randomCode(using: &generator), isTaken) { return code }
        }
        throw CodeSpaceExhausted(attempts: attempts)
    }

    private static func free(_ candidate: String, _ isTaken: (Self) -> Bool) -> Self? {
        guard let code = try? Self(parsing: candidate), code.rawValue == candidate, !isTaken(code) else { return nil }
        return code
    }
}
