import NIOConcurrencyHelpers
import ParlorRules

/// Tile previews of photos about to be played, in memory, for the quiz rules to read when a photo starts
/// (`TilePreviewSource` is synchronous: the rules do no I/O). An upload puts its photo's previews here;
/// before starting a photo the operation warms the cache from the photo store, so the rules always find
/// them. At most `capacity` photos are kept; the least recently used go first.
final class QuizPreviewCache: TilePreviewSource {
    private struct State {
        var entries: [String: (previews: TilePreviews, used: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func previews(ofPhoto id: String) -> TilePreviews? {
        state.withLockedValue { state in
            guard let entry = state.entries[id] else { return nil }
            state.clock += 1
            state.entries[id] = (entry.previews, state.clock)
            return entry.previews
        }
    }

    func insert(_ previews: TilePreviews, photo id: String) {
        state.withLockedValue { state in
            state.clock += 1
            state.entries[id] = (previews, state.clock)
            if state.entries.count > capacity {
                // Evict down to 7/8 of the capacity at once, so eviction's scan is paid rarely.
                let keep = capacity - capacity / 8
                let oldest = state.entries.sorted { $0.value.used < $1.value.used }.prefix(state.entries.count - keep)
                for (id, _) in oldest { state.entries[id] = nil }
            }
        }
    }

    /// Makes sure the previews of `photos` are here, reading the missing ones from `store`. A photo whose
    /// previews cannot be read plays without them.
    func warm(quiz: String, photos: [String], from store: any QuizPhotoStore) async {
        let missing = state.withLockedValue { state in photos.filter { state.entries[$0] == nil } }
        for photo in missing {
            if let previews = try? await store.previews(quiz: quiz, photo: photo) { insert(previews, photo: photo) }
        }
    }

    func forget(_ photos: [String]) {
        state.withLockedValue { state in
            for photo in photos { state.entries[photo] = nil }
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
}
