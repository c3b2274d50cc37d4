import Foundation
import ParlorTestSupport
import Testing

/// Keys made for one test by Python's `cryptography` (RSA 2048 twice, RSA 1024, EC P-256 and P-384,
/// Ed25519) and tokens signed with them by PyJWT — an implementation Parlor did not write — plus the
/// two tokens no library will make: `alg: none`, and HS256 with an RSA public key's PEM as the secret.
struct TestIssuer {
    /// One token to sign: with `key` (a key's name, or "secret" for the HMAC secret) under `alg`, with
    /// `kid` in its header, and these claims. `special` is "none" or "confusion".
    struct Spec {
        var key: String
        var alg: String
        var kid: String?
        var claims: [String: Any]
        var special: String?

        init(_ key: String, _ alg: String, kid: String? = nil, claims: [String: Any], special: String? = nil) {
            self.key = key
            self.alg = alg
            self.kid = kid
            self.claims = claims
            self.special = special
        }
    }

    /// Each key's public PEM, by name.
    let pems: [String: String]
    /// Each key's public JWK (with `kid` = its name), by name.
    let jwks: [String: [String: Any]]
    /// The tokens, in the order of the specs.
    let tokens: [String]

    static let secret = "a-supabase-style-jwt-secret-of-at-least-32-bytes"

    static func make(_ specs: [Spec]) async throws -> TestIssuer {
        let request: [String: Any] = [
            "secret": secret,
            "tokens": specs.map { spec -> [String: Any] in
                var entry: [String: Any] = ["key": spec.key, "alg": spec.alg, "claims": spec.claims]
                if let kid = spec.kid { entry["kid"] = kid }
                if let special = spec.special { entry["special"] = special }
                return entry
            },
        ]
        let process = try ExternalProcess(["python3", "-c", script], stdin: try JSONSerialization.data(withJSONObject: request))
        let result = try await process.wait(timeout: .seconds(60))
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let pems = object["pems"] as? [String: String], let jwks = object["jwks"] as? [String: [String: Any]],
            let tokens = object["tokens"] as? [String]
        else { throw TestFailure("the key maker failed (\(result.status)): \(result.stderr)") }
        return TestIssuer(pems: pems, jwks: jwks, tokens: tokens)
    }

    /// A JWK Set of these keys' public JWKs.
    func jwkSet(_ names: [String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["keys": names.map { jwks[$0]! }])
    }

    static var now: Int { Int(Date().timeIntervalSince1970) }

    private static let script = #"""
import base64, hashlib, hmac, json, sys
import jwt
from jwt.algorithms import RSAAlgorithm, ECAlgorithm, OKPAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa, ec, ed25519

request = json.load(sys.stdin)
keys = {
    "rsa": rsa.generate_private_key(public_exponent=65537, key_size=2048),
    "rsa2": rsa.generate_private_key(public_exponent=65537, key_size=2048),
    "rsa1024": rsa.generate_private_key(public_exponent=65537, key_size=1024),
    "ec256": ec.generate_private_key(ec.SECP256R1()),
    "ec384": ec.generate_private_key(ec.SECP384R1()),
    "ed25519": ed25519.Ed25519PrivateKey.generate(),
}
def pem(key):
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
def jwk(name, key):
    public = key.public_key()
    if name.startswith("rsa"):
        text = RSAAlgorithm.to_jwk(public)
    elif name.startswith("ec"):
        text = ECAlgorithm.to_jwk(public)
    else:
        text = OKPAlgorithm.to_jwk(public)
    value = json.loads(text)
    value["kid"] = name
    value["use"] = "sig"
    return value
def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
def compact(header, claims):
    return b64(json.dumps(header, separators=(",", ":")).encode()) + "." + b64(json.dumps(claims, separators=(",", ":")).encode())

tokens = []
for spec in request["tokens"]:
    headers = {"kid": spec["kid"]} if "kid" in spec else {}
    special = spec.get("special")
    if special == "none":
        tokens.append(compact({"alg": "none", "typ": "JWT", **headers}, spec["claims"]) + ".")
    elif special == "confusion":
        signing_input = compact({"alg": "HS256", "typ": "JWT", **headers}, spec["claims"])
        secret = pem(keys[spec["key"]]).encode()
        tokens.append(signing_input + "." + b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()))
    else:
        key = request["secret"] if spec["key"] == "secret" else keys[spec["key"]]
        tokens.append(jwt.encode(spec["claims"], key, algorithm=spec["alg"], headers=headers or None))
print(json.dumps({
    "pems": {name: pem(key) for name, key in keys.items()},
    "jwks": {name: jwk(name, key) for name, key in keys.items()},
    "tokens": tokens,
}))
"""#
}

/// A JWKS served on 127.0.0.1 by Python's http.server: the file it serves can be replaced between
/// fetches, it says `Cache-Control: max-age=<maxAge>`, and it counts the fetches it answered. It exits
/// when its file is removed (on `stop()` or when the test lets go of it), or after ten minutes: a
/// signal may not reach it (the test runner's children can inherit SIGTERM ignored). Two minutes could
/// run out before a test on a machine busy with the whole suite was done (the likeliest cause found
/// for one `keys-unavailable` failure of `JWKSKeysTests` that did not come back).
final class TestJWKSServer: @unchecked Sendable {
    let port: Int
    let file: String
    private let process: ExternalProcess

    init(serving document: Data, maxAge: Int = 3600) async throws {
        file = NSTemporaryDirectory() + "parlor-jwks-\(UUID().uuidString).json"
        try document.write(to: URL(fileURLWithPath: file))
        process = try ExternalProcess(["python3", "-u", "-c", Self.script, file, String(maxAge)])
        try await process.waitForOutput("the JWKS server's port") { out, _ in out.contains("port ") }
        guard let line = process.stdout.split(separator: "\n").first(where: { $0.hasPrefix("port ") }), let port = Int(line.dropFirst(5))
        else { throw TestFailure("the JWKS server said no port: \(process.stderr)") }
        self.port = port
    }

    deinit {
        try? FileManager.default.removeItem(atPath: file)
    }

    var url: String { "http://127.0.0.1:\(port)/jwks" }

    /// The fetches answered so far.
    var fetches: Int { process.stdout.split(separator: "\n").count { $0 == "fetch" } }

    func serve(_ document: Data) throws {
        // Written beside it and renamed over it: the server never sees the file missing.
        let next = file + ".next"
        try document.write(to: URL(fileURLWithPath: next))
        guard rename(next, file) == 0 else { throw TestFailure("cannot rename \(next) over \(file)") }
    }

    /// Stops answering: its port refuses connections from now on.
    func stop() async throws {
        try FileManager.default.removeItem(atPath: file)
        let result = try await process.wait(timeout: .seconds(10))
        guard result.status == 0 else { throw TestFailure("the JWKS server did not stop cleanly: \(result.stderr)") }
    }

    private static let script = #"""
import os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
path, max_age = sys.argv[1], sys.argv[2]
def watch():
    started = time.time()
    while os.path.exists(path) and time.time() - started < 600:
        time.sleep(0.05)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/jwks":
            self.send_response(404); self.end_headers(); return
        body = open(path, "rb").read()
        print("fetch", flush=True)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "public, max-age=" + max_age)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("port", server.server_address[1], flush=True)
server.serve_forever()
"""#
}
