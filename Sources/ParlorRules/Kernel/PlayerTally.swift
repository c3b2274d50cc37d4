/// Named whole numbers a game files with one player's entry of a finished game — a darts match's points
/// scored, darts thrown, whether they won — so the server can add up a player's lifetime without reading
/// every game they played. Each game names its own counts; the store keeps them as they are.
public typealias PlayerTally = [String: Int]
