/// What an uploaded file is, judged by its first bytes — never by the name or the `Content-Type` the
/// client gave it.
public enum ImageFormat: String, Sendable, Equatable {
    case jpeg
    case png

    /// The format whose signature `bytes` start with, or nil.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }

    /// The `Content-Type` it is served with.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }
}
