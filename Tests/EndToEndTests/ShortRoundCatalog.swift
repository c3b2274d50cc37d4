/// A word-game catalog of one category game (the Greek alphabet), for tests whose round must end on
/// the server's clock within seconds: `parlor-server catalog import` takes it as a file.
enum ShortRoundCatalog {
    /// The catalog with a round of `timeLimit` seconds (10…600).
    static func json(timeLimit: Int) -> String {
        """
        {"version": 1, "updatedAt": "2026-01-01T00:00:00.000Z", "gameModes": [
          {"id": "category", "name": "Category", "description": "Name things.", "levels": [
            {"id": "quick", "name": "Quick", "description": "Short rounds.", "difficulty": 1, "games": [
              {"id": "greek-letters", "name": "Greek letters", "description": "The Greek alphabet.",
               "instructions": "Name letters of the Greek alphabet.", "timeLimit": \(timeLimit), "caseSensitive": false,
               "type": "category", "answerBank": ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Omega"]}]}]}]}
        """
    }
}
