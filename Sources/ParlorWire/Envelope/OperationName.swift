/// An operation's name on the wire (`"op"`), exactly as the seeds spell it.
///
/// Open, not an enum: each game brings its own operations, declared in its wire folder
/// (`Operation.createRoom` in `Games/Rummy/RummyOperations.swift`), so a name is any string.
public struct OperationName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

extension OperationName: CaseIterable {
    /// Every operation Parlor's clients send, once each: the names the games declared.
    public static let allCases: [OperationName] = {
        var seen: Set<OperationName> = []
        return WireVocabulary.operations.map(\.name).filter { seen.insert($0).inserted }
    }()
}
