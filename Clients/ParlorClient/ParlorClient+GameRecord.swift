import ParlorWire

// A finished game's record (`getGameRecord`), a page at a time or whole.

extension ParlorClient {
    /// The most steps `wholeGameRecord` reads: records are hundreds of steps at most, so this bounds a
    /// misbehaving server, not a real game.
    public static let maxRecordSteps = 10_000

    /// One page of the record of the last finished game with `code`: steps `from`… (1 by default), at
    /// most `limit` (the server's default, 50, unless told; 1…200). A game still being played or a
    /// code never used fails with `RECORD_NOT_AVAILABLE`.
    public func gameRecord(code: String, from: Int? = nil, limit: Int? = nil) async throws(ParlorClientError) -> GameRecordPage {
        try await call(Operation.getGameRecord, GameRecordArguments(code: code, from: from, limit: limit))
    }

    /// The whole record, page after page, up to `maxSteps` steps (`GameRecord.isComplete` says whether
    /// it stopped short).
    public func wholeGameRecord(code: String, maxSteps: Int = maxRecordSteps) async throws(ParlorClientError) -> GameRecord {
        var page = try await gameRecord(code: code, limit: GameRecordArguments.maxLimit)
        guard let initial = page.initial else {
            throw .protocolViolation("the first page of \(code)'s record has no initial view")
        }
        var steps = page.steps
        while let next = page.nextFrom, steps.count < maxSteps {
            guard next > (steps.last?.step ?? 0) else {
                throw .protocolViolation("the record of \(code) named page \(next) after step \(steps.last?.step ?? 0)")
            }
            page = try await gameRecord(code: code, from: next, limit: GameRecordArguments.maxLimit)
            steps += page.steps
        }
        return GameRecord(
            kind: page.kind, code: page.code, createdAt: page.createdAt, finishedAt: page.finishedAt,
            stepCount: page.stepCount, initial: initial, steps: Array(steps.prefix(maxSteps)))
    }
}

/// A finished game's whole record as the asker saw it: how it began and every step after.
public struct GameRecord: Sendable, Equatable {
    public let kind: String
    public let code: String
    public let createdAt: String
    public let finishedAt: String
    /// Steps in the whole record on the server (more than `steps` holds when it stopped short).
    public let stepCount: Int
    public let initial: GameRecordPage.Initial
    public let steps: [GameRecordPage.Step]

    public init(
        kind: String, code: String, createdAt: String, finishedAt: String, stepCount: Int,
        initial: GameRecordPage.Initial, steps: [GameRecordPage.Step]
    ) {
        self.kind = kind
        self.code = code
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.stepCount = stepCount
        self.initial = initial
        self.steps = steps
    }

    /// Every step of the record was read.
    public var isComplete: Bool { steps.count >= stepCount }
}
