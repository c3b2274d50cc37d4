import ParlorRules

// The kernel's refusals as wire errors; each game's folder maps its rules' errors (`WireError(DartsError)`).

extension WireError {
    /// Code generation ran out of free codes (rooms or lobbies).
    public init(_ error: CodeSpaceExhausted) {
        self.init(.noFreeCode, "No free code could be found; try again.")
    }

    public static func badRequest(_ message: String) -> WireError { WireError(.badRequest, message) }
    public static func internalError(_ message: String = "Something went wrong on the server.") -> WireError {
        WireError(.internal, message)
    }
}
