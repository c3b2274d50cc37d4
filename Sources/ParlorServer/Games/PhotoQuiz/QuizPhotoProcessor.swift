import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import ParlorMedia
import ParlorPlaces
import ParlorRules
import ParlorWire

/// Turns an uploaded file into a quiz photo: checks what it is by its bytes, reads its EXIF (a photo
/// without a position is refused: the quiz would have no answer), decodes and tiles it on NIO's thread
/// pool (CPU work, never on an event loop), and names the place it was taken.
///
/// At most `maxInFlight` uploads are processed or waiting at once; one more is refused with
/// `UPLOADS_BUSY` rather than queued without bound, since each holds its body in memory.
final class QuizPhotoProcessor: Sendable {
    let limits: TiledPhoto.Limits
    let places: PlacesLoader
    let maxInFlight: Int
    private let pool: NIOThreadPool
    private let inFlight = NIOLockedValueBox(0)

    init(limits: TiledPhoto.Limits, places: PlacesLoader, maxInFlight: Int, pool: NIOThreadPool = .singleton) {
        self.limits = limits
        self.places = places
        self.maxInFlight = max(0, maxInFlight)
        self.pool = pool
    }

    /// What an upload became: the photo as the rules know it, and its files.
    struct Processed: Sendable {
        var photo: QuizPhoto
        var files: QuizPhotoFiles
    }

    func process(_ bytes: [UInt8], id: String, album: String, uploadedBy user: UserID) async throws(WireError) -> Processed {
        guard ImageFormat.sniff(bytes) == .jpeg else {
            throw WireError(.notJPEG, "Upload a JPEG photo (its bytes are not a JPEG file, whatever its name says).")
        }
        let file: JPEGFile
        let metadata: EXIFMetadata
        do {
            file = try JPEGFile(bytes)
        } catch {
            throw WireError(.invalidImage, "The photo cannot be read: \(error.reason).")
        }
        do {
            metadata = try EXIFMetadata.read(jpeg: file)
        } catch {
            throw WireError(.noLocation, "The photo's EXIF cannot be read (\(error.reason)), so it has no location to guess.")
        }
        guard let position = metadata.location, let location = GeoCoordinate(latitude: position.latitude, longitude: position.longitude) else {
            throw WireError(.noLocation, "The photo has no GPS position in its EXIF, so there is nothing to guess: pick one taken with location on.")
        }
        let admitted = inFlight.withLockedValue { count -> Bool in
            guard count < maxInFlight else { return false }
            count += 1
            return true
        }
        guard admitted else { throw WireError(.uploadsBusy, "The server is busy with other photos; send this one again in a moment.") }
        defer { inFlight.withLockedValue { $0 -= 1 } }

        let (limits, orientation) = (limits, metadata.orientation)
        let tiled: Result<TiledPhoto, MediaError>
        do {
            tiled = try await pool.runIfActive { Result { () throws(MediaError) in try TiledPhoto.make(from: file, orientation: orientation, limits: limits) } }
        } catch {
            throw WireError(.uploadsBusy, "The server is shutting down; send the photo again later.")
        }
        let photo: TiledPhoto
        switch tiled {
        case .success(let made): photo = made
        case .failure(let error): throw WireError(.invalidImage, "The photo cannot be used: \(error.reason).")
        }
        let place = await places.places()?.name(at: location)
        let previews = TilePreviews(
            width: photo.previewWidth, height: photo.previewHeight, tiles: photo.previews.map { Data($0).base64EncodedString() })
        let takenAt = metadata.takenAt
        return Processed(
            photo: QuizPhoto(id: id, album: album, uploadedBy: user, location: location, takenAt: takenAt, place: place),
            files: QuizPhotoFiles(image: photo.image, tiles: photo.tiles, previews: previews))
    }

    /// Uploads being processed now (for tests and metrics).
    var busy: Int { inFlight.withLockedValue { $0 } }
}
