/// Why a photo quiz refused an action or a request for its pixels. Each case is one wire code
/// (`ParlorWire` maps them); never rename one that has shipped.
public enum PhotoQuizError: Error, Sendable, Equatable {
    case quizNotFound(code: String)
    /// The quiz seats no one more.
    case quizFull(capacity: Int)
    /// `action` completes "Only the host can …", e.g. "start the quiz".
    case notHost(action: String)
    /// The caller has no seat at this quiz.
    case notMember
    /// No player of this quiz has this id.
    case playerNotFound(id: String)
    /// Starting needs at least one photo in the albums the session plays.
    case noPhotos
    case tooManyPhotos(limit: Int)
    /// The uploader of a photo does not guess it.
    case ownPhoto
    case photoNotFound(id: String)
    /// Tile `tile` of the photo has not appeared yet.
    case tileHidden(tile: Int)
    /// The whole photo is shown only once it has been revealed.
    case photoHidden
    /// `reason` is a full sentence.
    case invalidState(reason: String)
    /// `reason` is a full sentence naming `field`.
    case invalidInput(field: String, reason: String)

    /// A sentence for the person who asked.
    public var message: String {
        switch self {
        case .quizNotFound(let code): "Quiz \(Self.clip(code)) was not found."
        case .quizFull(let capacity): "The quiz is full (\(capacity) of \(capacity) players)."
        case .notHost(let action): "Only the host can \(action)."
        case .notMember: "You are not a player in this quiz; join it first."
        case .playerNotFound(let id): "Player \(Self.clip(id)) is not in this quiz."
        case .noPhotos: "There are no photos to play: upload some (with a location) first, or pick albums that have them."
        case .tooManyPhotos(let limit): "The quiz already holds \(limit) photos, as many as it can."
        case .ownPhoto: "This is your own photo: the others guess it."
        case .photoNotFound(let id): "Photo \(Self.clip(id)) is not in this quiz."
        case .tileHidden(let tile): "Tile \(tile) has not been revealed yet."
        case .photoHidden: "The photo is shown once it has been revealed."
        case .invalidState(let reason): reason
        case .invalidInput(_, let reason): reason
        }
    }

    /// Echoed input is cut short so a huge argument cannot bloat a reply.
    static func clip(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
