/// A key press, decoded from the bytes a terminal sends.
public enum Key: Sendable, Equatable {
    case character(Character)
    case enter
    case escape
    case backspace
    case tab
    case up, down, left, right
    /// Home and End (`ESC [ H`, `ESC [ 1 ~`… and `ESC [ F`, `ESC [ 4 ~`…, as terminals differ).
    case home, end
    /// Ctrl-C (in raw mode it arrives as a byte, not a signal).
    case interrupt
    /// Ctrl-D.
    case endOfInput
}

/// Decodes terminal input bytes into keys. Arrow keys come as `ESC [ A` … (or `ESC O A` in application
/// mode); a lone ESC at the end of a read is the Escape key.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                if index + 2 < pending.count, pending[index + 1] == UInt8(ascii: "[") || pending[index + 1] == UInt8(ascii: "O") {
                    switch pending[index + 2] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    case UInt8(ascii: "C"): keys.append(.right)
                    case UInt8(ascii: "D"): keys.append(.left)
                    case UInt8(ascii: "H"): keys.append(.home)
                    case UInt8(ascii: "F"): keys.append(.end)
                    default:
                        // Another sequence (F-keys, Home and End as `ESC [ 1 ~`, …): skip to its final byte.
                        var end = index + 2
                        while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
                        guard end < pending.count else {
                            pending.removeFirst(index)
                            return keys
                        }
                        if pending[end] == UInt8(ascii: "~"), let key = Self.tildeKeys[Array(pending[(index + 2)..<end])] { keys.append(key) }
                        index = end + 1
                        continue
                    }
                    index += 3
                } else if index + 1 < pending.count, pending[index + 1] != UInt8(ascii: "[") && pending[index + 1] != UInt8(ascii: "O") {
                    keys.append(.escape)
                    index += 1
                } else if index + 1 == pending.count {
                    keys.append(.escape)
                    index += 1
                } else {
                    // An incomplete sequence: wait for the rest.
                    pending.removeFirst(index)
                    return keys
                }
            case 0x0D, 0x0A: keys.append(.enter); index += 1
            case 0x7F, 0x08: keys.append(.backspace); index += 1
            case 0x09: keys.append(.tab); index += 1
            case 0x03: keys.append(.interrupt); index += 1
            case 0x04: keys.append(.endOfInput); index += 1
            case 0x00..<0x20: index += 1
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= pending.count else {
                    pending.removeFirst(index)
                    return keys
                }
                let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
                if let character = text.first { keys.append(.character(character)) }
                index += length
            }
        }
        pending.removeAll()
        return keys
    }

    /// `ESC [ n ~` keys by their number: Home is 1 or 7, End 4 or 8 (VT220, rxvt, tmux).
    private static let tildeKeys: [[UInt8]: Key] = [
        Array("1".utf8): .home, Array("7".utf8): .home, Array("4".utf8): .end, Array("8".utf8): .end,
    ]
}
