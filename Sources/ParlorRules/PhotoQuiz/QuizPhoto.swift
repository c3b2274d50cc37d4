/// A photo in a quiz: who uploaded it into which album, and the answer — where and when it was taken
/// and the place there — which no view shows before the photo is revealed.
///
/// The pixels (the photo and its 36 tiles) are files the server keeps beside the quiz; the rules know a
/// photo by its id and its tiles' small previews, which the server hands them when the photo starts.
public struct QuizPhoto: Sendable, Equatable, Codable {
    /// Opaque, made by the server at upload.
    public let id: String
    public let album: String
    public let uploadedBy: UserID
    /// From EXIF GPS; a photo without one is refused at upload.
    public let location: GeoCoordinate
    public let takenAt: PhotoDate?
    /// The nearest populated place; nil when the server has no places data or nothing is near.
    public let place: PlaceName?
    /// Whether the photo has been revealed in this quiz: then anyone may fetch it whole.
    public internal(set) var isRevealed: Bool

    public init(
        id: String, album: String, uploadedBy: UserID, location: GeoCoordinate, takenAt: PhotoDate?, place: PlaceName?,
        isRevealed: Bool = false
    ) {
        self.id = id
        self.album = album
        self.uploadedBy = uploadedBy
        self.location = location
        self.takenAt = takenAt
        self.place = place
        self.isRevealed = isRevealed
    }
}

/// A populated place as a reveal names it: the seed's `city` and `country`.
public struct PlaceName: Sendable, Equatable, Codable {
    public let city: String
    /// The country's English name; nil when its code is not one the server knows.
    public let country: String?

    public init(city: String, country: String?) {
        self.city = city
        self.country = country
    }
}

/// A tile's preview: a few RGB pixels a side, so a terminal can draw the photo as its tiles arrive.
public struct TilePreviews: Sendable, Equatable, Codable {
    /// Pixels a side of every preview (`QuizLimits.previewSide` on the longer side).
    public let width: Int
    public let height: Int
    /// Tile by tile in reading order (left to right, top to bottom): `width × height × 3` bytes of RGB,
    /// in base64.
    public let tiles: [String]

    public init(width: Int, height: Int, tiles: [String]) {
        self.width = width
        self.height = height
        self.tiles = tiles
    }
}

/// Where the rules get a photo's tile previews from when the photo starts: the server's photo store.
public protocol TilePreviewSource: Sendable {
    /// Nil when the photo's previews cannot be read (the photo then plays without them).
    func previews(ofPhoto id: String) -> TilePreviews?
}

/// What the quiz rules read from the server.
public struct PhotoQuizEnvironment: Sendable {
    public var previews: any TilePreviewSource

    public init(previews: any TilePreviewSource) { self.previews = previews }
}
