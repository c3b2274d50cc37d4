/// The bounds of a photo quiz: every one is checked where a value enters the rules.
public enum QuizLimits {
    /// Players a quiz seats.
    public static let maxPlayers = 20
    /// Photos one quiz holds (uploads beyond are `TOO_MANY_PHOTOS`): enough for an endless evening,
    /// few enough that a quiz's stored form and its files stay small.
    public static let maxPhotos = 100
    public static let nameMaxCharacters = 50
    public static let albumMaxCharacters = 40
    /// Albums a session may pick.
    public static let maxAlbums = 20
    /// Seconds of the guess timer (the seed's 10…120).
    public static let timerDurations = 10...120
    public static let defaultTimerDuration = 30
    /// The photo is cut into a `grid` × `grid` board of tiles.
    public static let grid = 6
    public static let tileCount = grid * grid
    /// A tile's preview is at most this many pixels a side (RGB).
    public static let previewSide = 6
    /// The album a photo uploaded without one goes into.
    public static let defaultAlbum = "Photos"
}
