import Foundation
import CZlib

/// Whole-body gzip (RFC 1952) for HTTP's `Content-Encoding: gzip`: files that are compressed once, when
/// they are loaded, and then served to every client that accepts it.
public enum Gzip {
    /// `bytes` as one gzip member; nil only when zlib cannot set up a stream (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var stream = z_stream()
        guard parlor_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound covers the worst case; the gzip wrapper adds at most 18 bytes to it.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let result = input.withUnsafeMutableBufferPointer { inBytes in
            output.withUnsafeMutableBufferPointer { outBytes in
                stream.next_in = inBytes.baseAddress
                stream.avail_in = uInt(inBytes.count)
                stream.next_out = outBytes.baseAddress
                stream.avail_out = uInt(outBytes.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// Whether an `Accept-Encoding` header's values accept gzip (RFC 9110 §12.5.3): `gzip` or `*` with
    /// a quality above zero, where an explicit `gzip;q=0` refuses it whatever `*` says.
    public static func isAccepted(by acceptEncoding: [String]) -> Bool {
        var gzip: Double?
        var any: Double?
        for value in acceptEncoding {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let name = parts.first else { continue }
                var quality = 1.0
                for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                    quality = Double(parameter.dropFirst(2)) ?? 0
                }
                if name == "gzip" || name == "x-gzip" { gzip = quality } else if name == "*" { any = quality }
            }
        }
        return (gzip ?? any ?? 0) > 0
    }
}
