import ParlorWire

/// The repeated-key scan as it was before `JSONParser` took over its work: a separate pass over the
/// bytes, ahead of Foundation's decoder, that follows strings and brackets only far enough to tell keys
/// apart. Kept here, unchanged, as half of the reference `FoundationFrameDecoder` that the new decoder
/// is compared with.
enum FoundationRepeatedKeyScan {
    /// Deeper documents are left to the decoder, which refuses them.
    static let maxDepth = 512
    /// Objects with more keys than this are checked with a set instead of by comparing each key with
    /// every earlier one, so a frame of thousands of keys costs linear time, not quadratic.
    static let linearLimit = 16

    static func firstDuplicate(in bytes: some Sequence<UInt8>) -> DuplicateKeyScan.Duplicate? {
        if let found = bytes.withContiguousStorageIfAvailable({ scan(UnsafeRawBufferPointer($0)) }) { return found }
        return Array(bytes).withUnsafeBytes { scan($0) }
    }

    /// A key as it appears in the bytes (between its quotes). `text` is its decoded text, made only
    /// for keys that need it: ones with escapes or bytes beyond ASCII, which may equal another key
    /// spelled differently. Plain ASCII keys are compared as bytes, without making a string.
    private struct Key {
        var start: Int
        var end: Int
        var text: String?
    }

    private struct Container {
        var isObject: Bool
        /// An object's keys are `keys[firstKey...]`.
        var firstKey: Int
        /// An array's current element.
        var index: Int
        /// An object's keys as text, once it has more than `linearLimit`.
        var set: Set<String>?
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer) -> DuplicateKeyScan.Duplicate? {
        var stack: [Container] = []
        stack.reserveCapacity(8)
        var keys: [Key] = []
        keys.reserveCapacity(16)
        // True right after `{` or after `,` inside an object: the next string is a key.
        var expectingKey = false
        var index = 0
        let end = bytes.count
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard stack.count < maxDepth else { return nil }
                stack.append(Container(isObject: true, firstKey: keys.count, index: 0, set: nil))
                expectingKey = true
            case UInt8(ascii: "["):
                guard stack.count < maxDepth else { return nil }
                stack.append(Container(isObject: false, firstKey: keys.count, index: 0, set: nil))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let closed = stack.popLast() else { return nil }
                if closed.isObject { keys.removeSubrange(closed.firstKey...) }
                expectingKey = false
            case UInt8(ascii: ","):
                guard let top = stack.indices.last else { return nil }
                if stack[top].isObject {
                    expectingKey = true
                } else {
                    stack[top].index += 1
                }
            case UInt8(ascii: "\""):
                guard let closing = endOfString(bytes, from: index + 1) else { return nil }
                if expectingKey, let top = stack.indices.last, stack[top].isObject {
                    guard let key = readKey(bytes, from: index + 1, to: closing) else { return nil }
                    if isRepeated(key, in: &stack[top], keys: &keys, bytes: bytes) {
                        return DuplicateKeyScan.Duplicate(path: path(of: stack, keys: keys, bytes: bytes), key: text(of: key, bytes))
                    }
                    keys.append(key)
                    expectingKey = false
                }
                index = closing
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// Whether `key` equals one of its object's earlier keys.
    private static func isRepeated(_ key: Key, in object: inout Container, keys: inout [Key], bytes: UnsafeRawBufferPointer) -> Bool {
        let earlier = object.firstKey..<keys.count
        if object.set != nil || earlier.count >= linearLimit {
            var set = object.set ?? Set(earlier.map { text(of: keys[$0], bytes) })
            object.set = nil  // so `set` is the only reference and grows in place
            let inserted = set.insert(text(of: key, bytes)).inserted
            object.set = set
            return !inserted
        }
        for other in earlier {
            if key.text == nil && keys[other].text == nil {
                if sameBytes(key, keys[other], bytes) { return true }
            } else {
                // One of them needs decoding to compare as the decoder does (escapes, Unicode equivalence).
                if keys[other].text == nil { keys[other].text = text(of: keys[other], bytes) }
                if text(of: key, bytes) == keys[other].text { return true }
            }
        }
        return false
    }

    private static func sameBytes(_ a: Key, _ b: Key, _ bytes: UnsafeRawBufferPointer) -> Bool {
        a.end - a.start == b.end - b.start
            && UnsafeRawBufferPointer(rebasing: bytes[a.start..<a.end]).elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[b.start..<b.end]))
    }

    private static func text(of key: Key, _ bytes: UnsafeRawBufferPointer) -> String {
        key.text ?? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[key.start..<key.end]), as: UTF8.self)
    }

    /// The key whose text lies between `start` and `end`, decoded now when it has escapes or bytes
    /// beyond ASCII; nil for an escape the decoder would refuse anyway.
    private static func readKey(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Key? {
        var plain = true
        for index in start..<end where bytes[index] == UInt8(ascii: "\\") || bytes[index] >= 0x80 {
            plain = false
            break
        }
        if plain { return Key(start: start, end: end, text: nil) }
        guard let text = decodeKey(bytes, from: start, to: end) else { return nil }
        return Key(start: start, end: end, text: text)
    }

    /// The index of the quote that closes the string whose contents start at `start`.
    private static func endOfString(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// A key's text with its escapes resolved, or nil for an escape the decoder would refuse anyway.
    private static func decodeKey(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String? {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return nil }
            let escaped = raw[index + 1]
            index += 2
            let simple: UInt8? = switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escaped
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
            if let simple {
                utf8.append(simple)
                continue
            }
            guard escaped == UInt8(ascii: "u"), var unit = hex4(raw, at: index) else { return nil }
            index += 4
            flush()
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed by `\u` and a low one.
                guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                    let low = hex4(raw, at: index + 2), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                index += 6
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(unit) else { return nil }
            scalars.append(scalar)
        }
        flush()
        return String(scalars)
    }

    private static func hex4(_ raw: UnsafeRawBufferPointer, at start: Int) -> UInt32? {
        guard start + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = raw[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The keys and indices that lead from the top of the document to the innermost container of
    /// `stack`: an object's key is its last one so far (the one whose value is the next container).
    private static func path(of stack: [Container], keys: [Key], bytes: UnsafeRawBufferPointer) -> [String] {
        zip(stack, stack.dropFirst()).map { container, child in
            guard container.isObject else { return "[\(container.index)]" }
            let last = child.firstKey - 1
            return last >= container.firstKey ? text(of: keys[last], bytes) : ""
        }
    }
}
