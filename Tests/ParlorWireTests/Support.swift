import Foundation
import ParlorRules
import ParlorWire
import Testing

func user(_ n: Int) -> UserID {
    UserID(String(format: "00000000-0000-4000-8000-%012d", n))!
}

let t0 = Instant(millisecondsSinceEpoch: 1_769_776_496_789)  // 2026-01-30T12:34:56.789Z

/// Parses frame bytes back into Foundation objects for comparison.
func parse(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

func decodeOK(_ frame: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Request {
    switch Request.decode(frame) {
    case .success(let request): return request
    case .failure(let bad):
        Issue.record("unexpected bad request: \(bad.message)", sourceLocation: sourceLocation)
        throw bad
    }
}

func decodeBad(_ frame: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> BadRequest {
    switch Request.decode(frame) {
    case .success(let request):
        Issue.record("expected a bad request, decoded \(request)", sourceLocation: sourceLocation)
        throw CancellationError()
    case .failure(let bad): return bad
    }
}
