import Foundation
import ParlorWire

/// The photo being revealed, drawn from the tiles' previews (a few RGB pixels each) as `▀` cells in
/// true colour, two pixels a cell, so the picture fills in on the terminal as tiles appear. A tile not
/// yet out is `░`. Scaled down (nearest pixel) to fit the room given.
public enum QuizPhoto {
    /// The tiles per side of the grid (issue 16: 6 × 6).
    public static let tilesPerSide = 6

    /// The rows of the picture, at most `maxColumns` wide and `maxRows` tall; empty when nothing fits.
    public static func lines(_ photo: QuizView.CurrentPhoto, maxColumns: Int, maxRows: Int) -> [ScreenLine] {
        let grid = pixels(photo)
        guard let fullWidth = grid.first?.count, fullWidth > 0, maxColumns > 0, maxRows > 0 else { return [] }
        let fullHeight = grid.count
        // One scale for both axes keeps the picture's shape; a cell holds two pixel rows.
        let scale = max(1, max((fullWidth + maxColumns - 1) / maxColumns, (fullHeight + 2 * maxRows - 1) / (2 * maxRows)))
        let width = fullWidth / scale
        let height = fullHeight / scale
        guard width > 0, height > 0 else { return [] }
        var lines: [ScreenLine] = []
        var row = 0
        while row < height {
            var line = ScreenLine("  ")
            for column in 0..<width {
                let top = grid[row * scale][column * scale]
                let bottom = row + 1 < height ? grid[(row + 1) * scale][column * scale] : nil
                if top == nil && bottom == nil {
                    line.append("░", .dim)
                } else {
                    line.spans.append(Span("▀", .pixels(top: top ?? hidden, bottom: bottom ?? (row + 1 < height ? hidden : black))))
                }
            }
            lines.append(line)
            row += 2
        }
        return lines
    }

    /// Where a tile that has not appeared shows, next to one that has.
    static let hidden = RGB(48, 48, 48)
    static let black = RGB(0, 0, 0)

    /// The whole picture's pixels, row by row: nil where the tile is not out (or its preview unreadable).
    static func pixels(_ photo: QuizView.CurrentPhoto) -> [[RGB?]] {
        let (tileWidth, tileHeight) = (photo.previewWidth, photo.previewHeight)
        guard (1...64).contains(tileWidth), (1...64).contains(tileHeight) else { return [] }
        var grid = Array(repeating: Array(repeating: RGB?.none, count: tileWidth * tilesPerSide), count: tileHeight * tilesPerSide)
        for tile in photo.revealedTiles where (0..<tilesPerSide * tilesPerSide).contains(tile) {
            guard let text = photo.previews[tile], let data = Data(base64Encoded: text), data.count == tileWidth * tileHeight * 3 else {
                continue
            }
            let bytes = [UInt8](data)
            let (left, top) = ((tile % tilesPerSide) * tileWidth, (tile / tilesPerSide) * tileHeight)
            for y in 0..<tileHeight {
                for x in 0..<tileWidth {
                    let at = (y * tileWidth + x) * 3
                    grid[top + y][left + x] = RGB(bytes[at], bytes[at + 1], bytes[at + 2])
                }
            }
        }
        return grid
    }
}
