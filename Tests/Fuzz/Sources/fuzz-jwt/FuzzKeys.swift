// Written by Tests/Fuzz/make-jwt-seeds.py from the test keys in Tests/Fuzz/Keys/jwt/: do not edit.

/// What the jwt target verifies with: its issuers' keys, and the clock its seeds are dated by.
enum FuzzKeys {
    /// The target's clock, seconds since 1970: the seeds' `iat` is a minute before, `exp` an hour after.
    static let now: Int64 = 1800000000
    static let hmacIssuer = "https://abcdefghijklmnop.supabase.co/auth/v1"
    static let hmacSecret = "fuzz-target-hmac-secret-of-at-least-32-bytes"
    static let publicKeyIssuer = "https://securetoken.google.com/parlor-fuzz"
    static let rsa = """
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuMyZIUvK2+fW3Ke9HJFy
ryMzD++CDOFIqTCOKV0iNgWhozCM0gVYbVk97BE4Qml7ZsfSGGtCIsklvp5ZriXo
lR1ZdRfwNKumVXsmkZlu5XyRVB+hUk4WkUEZ6QRpKHHvxgouVk5vSzJi/Reua1ol
RasGXc2woegm+2fOTspkP3ZNoHpghJLUUsX9t7jJL34k4gOI5FNc6A2mjeyr8M8Z
RmndGVV+q0NXyMapLAgnz6coGWrGH+dO0Ywk8zSHUAmZ9G6PejjW5RmoswD1SpfT
dKKZx1sOl+xSdRNoN0mlR4I4nUCnKMcrEpRxyOxTasl4qadYHHaHgB+CdaKxaejr
SQIDAQAB
-----END PUBLIC KEY-----
"""
    static let ec256 = """
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEC8FD/BH3/p7biSDWjMpJzUycNFNZ
USji114zz/dblzNtZ2zSbhqwiQQIgNSkpxnbv5aR5lvPkSfCi8eahjT3cQ==
-----END PUBLIC KEY-----
"""
    static let ed25519 = """
-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAKv2xWxiYKpy4BtL32Hz5BYysVCHmMxuH2vE3TBvsGL0=
-----END PUBLIC KEY-----
"""
    /// The public-key issuer's JWKS: the RSA key again, as `kid` "rsa".
    static let jwks = #"{"keys": [{"alg": "RS256", "e": "AQAB", "kid": "rsa", "kty": "RSA", "n": "uMyZIUvK2-fW3Ke9HJFyryMzD--CDOFIqTCOKV0iNgWhozCM0gVYbVk97BE4Qml7ZsfSGGtCIsklvp5ZriXolR1ZdRfwNKumVXsmkZlu5XyRVB-hUk4WkUEZ6QRpKHHvxgouVk5vSzJi_Reua1olRasGXc2woegm-2fOTspkP3ZNoHpghJLUUsX9t7jJL34k4gOI5FNc6A2mjeyr8M8ZRmndGVV-q0NXyMapLAgnz6coGWrGH-dO0Ywk8zSHUAmZ9G6PejjW5RmoswD1SpfTdKKZx1sOl-xSdRNoN0mlR4I4nUCnKMcrEpRxyOxTasl4qadYHHaHgB-CdaKxaejrSQ", "use": "sig"}]}"#
}
