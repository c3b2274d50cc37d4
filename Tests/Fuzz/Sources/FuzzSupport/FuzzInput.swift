#if canImport(Glibc)
import Glibc
#endif

/// One fuzzer input read as a few choices (role, limits, chunk sizes) followed by the bytes under test.
///
/// The choices come off the front, one byte each, so a seed file is those bytes followed by a real
/// frame, request or stream, and the fuzzer mutates both. An input shorter than its choices reads zeros:
/// every input means something.
public struct FuzzInput {
    public let bytes: [UInt8]
    private var position = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        if let data, size > 0 {
            bytes = Array(UnsafeBufferPointer(start: data, count: size))
        } else {
            bytes = []
        }
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next choice byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// One of `options`, picked by the next byte.
    public mutating func pick<T>(_ options: [T]) -> T {
        precondition(!options.isEmpty)
        return options[Int(byte()) % options.count]
    }

    /// The bytes after the choices read so far.
    public var rest: ArraySlice<UInt8> {
        bytes[min(position, bytes.count)...]
    }
}

/// Splits `count` bytes into chunk lengths drawn from `seed`, the way a socket hands a stream over in
/// reads of varying size: a small seed gives tiny chunks (one byte at a time for 1), 0 gives one chunk.
public func chunkLengths(total count: Int, seed: UInt8) -> [Int] {
    guard seed != 0, count > 0 else { return [count] }
    var lengths: [Int] = []
    var state = UInt32(seed) &* 2_654_435_761
    var left = count
    while left > 0 {
        state = state &* 1_103_515_245 &+ 12_345
        let length = min(left, 1 + Int((state >> 16) % UInt32(seed)))
        lengths.append(length)
        left -= length
    }
    return lengths
}

/// Stops the run with a message libFuzzer records with the input, when an invariant does not hold.
/// Unlike `precondition`, it is kept in every build configuration.
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() {
        fatalError("invariant broken: \(message())", file: file, line: line)
    }
}

/// Whether two byte sequences are equal, compared by `memcmp`: comparing byte by byte in Swift would
/// go through the fuzzer's comparison hooks for every byte, which slows the run and teaches it nothing.
public func sameBytes(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    let compared = a.withContiguousStorageIfAvailable { left in
        b.withContiguousStorageIfAvailable { right in sameMemory(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) }
    }
    if let compared, let compared { return compared }
    return Array(a).withUnsafeBytes { left in Array(b).withUnsafeBytes { right in sameMemory(left, right) } }
}

private func sameMemory(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard let left = a.baseAddress, let right = b.baseAddress else { return true }
    return memcmp(left, right, a.count) == 0
}
