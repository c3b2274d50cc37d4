import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// Photos over HTTP: a member uploads a JPEG before the start; anyone fetches a tile once it has
/// appeared and a whole photo once it has been revealed. What is served was encoded from pixels by the
/// server, so it carries no EXIF.
struct QuizPhotoRoutes: Sendable {
    let host: GameHost<PhotoQuizGame>
    let media: QuizMedia
    let maxUploadBytes: Int

    var routes: [HTTPRoute] {
        [
            HTTPRoute(.POST, "/quizzes/{code}/photos", maxBodySize: maxUploadBytes) { [self] request, user throws(WireError) in
                try await upload(request, by: try HTTPRoutes.signedIn(user))
            },
            HTTPRoute(.GET, "/quizzes/{code}/photos/{photo}", access: .anyone) { [self] request, _ throws(WireError) in
                let (quiz, photo) = (request.parameters[0], request.parameters[1])
                return try await serve(quiz: quiz, photo: photo, check: { quiz throws(PhotoQuizError) in
                    try quiz.checkPhotoVisible(photoId: photo)
                }, read: { store, id throws(StoreError) in try await store.image(quiz: id, photo: photo) })
            },
            HTTPRoute(.GET, "/quizzes/{code}/photos/{photo}/tiles/{tile}", access: .anyone) { [self] request, _ throws(WireError) in
                let (quiz, photo) = (request.parameters[0], request.parameters[1])
                guard let tile = Int(request.parameters[2]) else {
                    throw WireError(.invalidInput, "tile must be a number from 0 to \(QuizLimits.tileCount - 1).")
                }
                return try await serve(quiz: quiz, photo: photo, check: { quiz throws(PhotoQuizError) in
                    try quiz.checkTileVisible(photoId: photo, tile: tile)
                }, read: { store, id throws(StoreError) in try await store.tile(tile, quiz: id, photo: photo) })
            },
        ]
    }

    /// `POST /quizzes/{code}/photos?album=NAME` with the JPEG as the body: `201 {photoId, album, takenAt}`.
    /// Cheap refusals (not a member, the quiz started, it is full, not a JPEG, no GPS position) come
    /// before the photo is decoded.
    private func upload(_ request: HTTPRouteRequest, by user: UserID) async throws(WireError) -> HTTPResponse {
        let actor = try await host.game(code: request.parameters[0])
        let (quiz, _) = try await actor.current()
        do throws(PhotoQuizError) {
            guard quiz.isMember(user) else { throw .notMember }
            guard quiz.phase == .waiting else { throw .invalidState(reason: "Photos can be added only before the quiz starts.") }
            guard quiz.photos.count < QuizLimits.maxPhotos else { throw .tooManyPhotos(limit: QuizLimits.maxPhotos) }
        } catch {
            throw WireError(error)
        }
        let album: String
        do throws(PhotoQuizError) {
            album = try QuizSettings.albumName(request.query["album"] ?? QuizLimits.defaultAlbum, field: "album")
        } catch {
            throw WireError(error)
        }
        let body = request.request.body
        guard body.readableBytes > 0 else { throw WireError(.notJPEG, "The request has no photo: send the JPEG as the body.") }
        let processed = try await media.processor.process(Array(body.readableBytesView), id: PhotoQuizGame.randomID(), album: album, uploadedBy: user)
        let photo = processed.photo
        do {
            try await media.store.save(processed.files, quiz: quiz.id, photo: photo.id)
        } catch {
            throw host.storeFailure(error, operation: "save photo \(photo.id) of quiz \(quiz.id)")
        }
        do {
            _ = try await actor.perform(.addPhoto(photo), by: user)
        } catch {
            try? await media.store.removePhoto(quiz: quiz.id, photo: photo.id)
            throw error
        }
        media.previews.insert(processed.files.previews, photo: photo.id)
        let result = PhotoUploadResult(photoId: photo.id, album: photo.album, takenAt: photo.takenAt?.iso8601)
        return HTTPRoutes.json(.created, try EncodedJSON.encoding(result))
    }

    /// A JPEG of a photo, once `check` says the quiz shows it.
    private func serve(
        quiz code: String, photo: String, check: (PhotoQuiz) throws(PhotoQuizError) -> Void,
        read: (any QuizPhotoStore, String) async throws(StoreError) -> [UInt8]?
    ) async throws(WireError) -> HTTPResponse {
        let (quiz, _) = try await host.game(code: code).current()
        do {
            try check(quiz)
        } catch {
            throw WireError(error)
        }
        let bytes: [UInt8]?
        do {
            bytes = try await read(media.store, quiz.id)
        } catch {
            throw host.storeFailure(error, operation: "read photo \(photo) of quiz \(quiz.id)")
        }
        guard let bytes else { throw WireError(PhotoQuizError.photoNotFound(id: photo)) }
        // Once shown, a tile or photo never changes: caches may keep it (only for whoever fetched it).
        let headers: HTTPHeaders = ["Content-Type": "image/jpeg", "Cache-Control": "private, max-age=86400"]
        return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: bytes))
    }
}
