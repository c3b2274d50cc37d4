import ParlorWire

/// Rematches being started, by the old game's id: a second request for the same game while the first
/// is under way waits for it and answers the same code (afterwards the old game itself carries it).
actor RematchStarts {
    private var running: [String: Task<Result<String, WireError>, Never>] = [:]

    func start(_ id: String, _ body: @escaping @Sendable () async -> Result<String, WireError>) async -> Result<String, WireError> {
        if let task = running[id] { return await task.value }
        let task = Task { await body() }
        running[id] = task
        let result = await task.value
        running[id] = nil
        return result
    }
}
