#!/usr/bin/env python3
"""Writes the jwt fuzz target's seeds (Tests/Fuzz/Corpus/jwt/) and the keys it verifies with
(Tests/Fuzz/Sources/fuzz-jwt/FuzzKeys.swift), from the test keys in Tests/Fuzz/Keys/jwt/ (made once
with the openssl CLI; they sign nothing but these seeds). Tokens are signed by PyJWT, an implementation
we did not write (`pip install pyjwt cryptography`).

The seeds are the bad-input table of issue 30 — `alg: none`, an algorithm the issuer is not allowed,
HS256 signed with the public key (the confusion), a wrong `iss`, a wrong `aud`, expired, not yet valid,
a bad signature, truncated and non-base64url tokens, an unknown `kid` (the public-key issuer also has a
JWKS, served from memory) — beside tokens that pass, of every kind of key, so the fuzzer starts from both sides of each check. Every token is dated around the
target's fixed clock (`FuzzKeys.now`), so the same bytes pass or fail on every run.

    python3 Tests/Fuzz/make-jwt-seeds.py
"""

import base64
import hashlib
import hmac
import json
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization

HERE = Path(__file__).resolve().parent
KEYS = HERE / "Keys" / "jwt"
CORPUS = HERE / "Corpus" / "jwt"

NOW = 1_800_000_000
SECRET = "fuzz-target-hmac-secret-of-at-least-32-bytes"
HS_ISSUER = "https://abcdefghijklmnop.supabase.co/auth/v1"
PK_ISSUER = "https://securetoken.google.com/parlor-fuzz"


def private(name):
    return serialization.load_pem_private_key((KEYS / f"{name}.pem").read_bytes(), password=None)


def public_pem(key):
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def claims(iss=HS_ISSUER, aud="authenticated", **extra):
    body = {"iss": iss, "sub": "9f0c6a3e-2b1d-4c8e-9a7f-0d1e2f3a4b5c", "aud": aud, "role": "authenticated",
            "iat": NOW - 60, "exp": NOW + 3600}
    body.update(extra)
    return body


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unsigned(header, body, signature=b""):
    return ".".join([b64(json.dumps(header).encode()), b64(json.dumps(body).encode()), b64(signature)])


def main():
    rsa, ec, ed = private("rsa"), private("ec256"), private("ed25519")
    pk = claims(iss=PK_ISSUER, aud="parlor-fuzz")
    seeds = {
        # Passing tokens, one per kind of key.
        "ok-hs256": jwt.encode(claims(), SECRET, algorithm="HS256"),
        "ok-hs512-aud-array": jwt.encode(claims(aud=["other", "authenticated"]), SECRET, algorithm="HS512"),
        "ok-rs256": jwt.encode(pk, rsa, algorithm="RS256"),
        "ok-ps256": jwt.encode(pk, rsa, algorithm="PS256"),
        "ok-es256": jwt.encode(pk, ec, algorithm="ES256"),
        "ok-eddsa": jwt.encode(pk, ed, algorithm="EdDSA"),
        # The bad-input table.
        "alg-none": unsigned({"alg": "none", "typ": "JWT"}, claims()),
        "alg-none-capitals": unsigned({"alg": "NONE", "typ": "JWT"}, claims()),
        "alg-not-allowed": jwt.encode(claims(), SECRET, algorithm="HS384"),
        "alg-unknown": unsigned({"alg": "ES512"}, pk, b"\x00" * 132),
        "wrong-iss": jwt.encode(claims(iss="https://evil.example/auth/v1"), SECRET, algorithm="HS256"),
        "wrong-aud": jwt.encode(claims(aud="anon"), SECRET, algorithm="HS256"),
        "expired": jwt.encode(claims(exp=NOW - 3600, iat=NOW - 7200), SECRET, algorithm="HS256"),
        "not-yet-valid": jwt.encode(claims(nbf=NOW + 3600), SECRET, algorithm="HS256"),
        "issued-in-the-future": jwt.encode(claims(iat=NOW + 3600), SECRET, algorithm="HS256"),
        "no-sub": jwt.encode({k: v for k, v in claims().items() if k != "sub"}, SECRET, algorithm="HS256"),
        "crit-header": jwt.encode(claims(), SECRET, algorithm="HS256", headers={"crit": ["exp"]}),
        "ok-rs256-kid-from-jwks": jwt.encode(pk, rsa, algorithm="RS256", headers={"kid": "rsa"}),
        "unknown-kid": jwt.encode(pk, rsa, algorithm="RS256", headers={"kid": "rotated-away"}),
        "jwe-five-parts": "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d",
        "empty": "",
        "two-parts": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0",
        "padded-base64": "eyJhbGciOiJIUzI1NiJ9==.eyJzdWIiOiJ4In0=.c2ln",
        "standard-base64-alphabet": "eyJhbGciOiJIUzI1NiJ9.eyJ+c3ViIjoieCJ9/.c2ln",
        "header-not-json": b64(b"{not json") + "." + b64(b"{}") + ".",
        "header-array": b64(b"[1,2]") + "." + b64(b"{}") + ".",
        "exp-as-string": jwt.encode(claims(exp="tomorrow"), SECRET, algorithm="HS256"),
        "exp-huge": jwt.encode(claims(exp=1e300), SECRET, algorithm="HS256"),
    }
    # The confusion, signed for real: HS256 keyed with the RSA public key's PEM (PyJWT refuses to, so by hand).
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(pk).encode())
    mac = hmac.new(public_pem(rsa).encode(), head.encode(), hashlib.sha256).digest()
    seeds["hs256-with-public-key"] = head + "." + b64(mac)
    # An ES256 header over an RSA signature: no configured EC key verifies it.
    rs256 = jwt.encode(pk, rsa, algorithm="RS256").split(".")
    seeds["es256-header-over-rs256-signature"] = ".".join([b64(json.dumps({"alg": "ES256", "typ": "JWT"}).encode())] + rs256[1:])
    good = seeds["ok-hs256"]
    seeds["bad-signature"] = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    seeds["truncated"] = good[: len(good) // 2]
    seeds["truncated-signature"] = good[:-7]
    seeds["non-base64url-character"] = good[:10] + "*" + good[11:]
    seeds["trailing-dot"] = good + "."
    seeds["whitespace"] = " " + good

    CORPUS.mkdir(parents=True, exist_ok=True)
    for name, token in seeds.items():
        (CORPUS / name).write_bytes(token.encode())

    numbers = rsa.public_key().public_numbers()
    jwks = json.dumps({"keys": [{"kty": "RSA", "kid": "rsa", "alg": "RS256", "use": "sig",
                                 "n": b64(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")),
                                 "e": b64(numbers.e.to_bytes(3, "big"))}]}, sort_keys=True)
    swift = f'''// Written by Tests/Fuzz/make-jwt-seeds.py from the test keys in Tests/Fuzz/Keys/jwt/: do not edit.

/// What the jwt target verifies with: its issuers' keys, and the clock its seeds are dated by.
enum FuzzKeys {{
    /// The target's clock, seconds since 1970: the seeds' `iat` is a minute before, `exp` an hour after.
    static let now: Int64 = {NOW}
    static let hmacIssuer = "{HS_ISSUER}"
    static let hmacSecret = "{SECRET}"
    static let publicKeyIssuer = "{PK_ISSUER}"
    static let rsa = """
{public_pem(rsa).strip()}
"""
    static let ec256 = """
{public_pem(ec).strip()}
"""
    static let ed25519 = """
{public_pem(ed).strip()}
"""
    /// The public-key issuer's JWKS: the RSA key again, as `kid` "rsa".
    static let jwks = #"{jwks}"#
}}
'''
    (HERE / "Sources" / "fuzz-jwt" / "FuzzKeys.swift").write_text(swift)
    print(f"wrote {len(seeds)} seeds to {CORPUS}")


if __name__ == "__main__":
    main()
