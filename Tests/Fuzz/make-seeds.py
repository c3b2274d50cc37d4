#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Tests/Fuzz/Corpus/<target>/).

The seeds are real traffic: frames and handshakes made by Python's `websockets` (an implementation we
did not write; `scripts/setup.sh --test` installs it), the request heads browsers, curl and our own
client send, a request for every operation as docs/PROTOCOL.md shows them, and photos written by
Pillow with EXIF blocks from piexif and Pillow (GPS positions included; `pip install Pillow piexif`).
Masking keys and websockets' handshake key are fixed, and the photos are drawn, not random, so running
this again writes the same files.

    python3 Tests/Fuzz/make-seeds.py

Each target reads a few choice bytes before the bytes under test; see the comment at the top of its
source (Tests/Fuzz/Sources/fuzz-*/Fuzz*.swift). The helpers below write those bytes.
"""

import io
import json
import os
import zlib
from pathlib import Path

import piexif
from PIL import Image, ImageCms

import websockets.frames as frames
import websockets.client
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "Corpus"

# websockets draws masking keys and handshake keys from `secrets`; fixed values keep the seeds stable.
frames.secrets.token_bytes = lambda n: bytes([0x37, 0xFA, 0x21, 0x3D] * 4)[:n]
websockets.client.generate_key = lambda: "dGhlIHNhbXBsZSBub25jZQ=="


def write(target: str, name: str, data: bytes) -> None:
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def wire(*frames_: Frame, client: bool = True, deflate: PerMessageDeflate | None = None) -> bytes:
    """Frames as a client (masked) or a server (unmasked) sends them."""
    extensions = [deflate] if deflate else []
    return b"".join(f.serialize(mask=client, extensions=extensions) for f in frames_)


def raw_frame(opcode: int, payload: bytes, *, fin: bool = True, rsv1: bool = False, mask: bool = True) -> bytes:
    """A frame written by hand, for what websockets will not write itself (RSV1 set by us)."""
    head = bytes([(0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([bit | 127]) + n.to_bytes(8, "big")
    if not mask:
        return head + payload
    key = bytes([0x37, 0xFA, 0x21, 0x3D])
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def deflater(no_context_takeover: bool) -> PerMessageDeflate:
    """A sender's side of permessage-deflate, as websockets runs it."""
    return PerMessageDeflate(
        remote_no_context_takeover=False, local_no_context_takeover=no_context_takeover,
        remote_max_window_bits=15, local_max_window_bits=15)


# MARK: fuzz-frames — [flags, limits, decompressed limit, reads, close before frame] + frames

def frames_seed(name: str, data: bytes, *, client_role: bool = False, deflate: bool = False,
                peer_no_takeover: bool = False, limits: int = 0x77, reads: int = 0, close: int = 0) -> None:
    flags = (1 if client_role else 0) | (2 if deflate else 0) | (4 if peer_no_takeover else 0)
    write("frames", name, bytes([flags, limits, 7, reads, close]) + data)


def text(s: str, fin: bool = True) -> Frame:
    return Frame(Opcode.TEXT, s.encode(), fin=fin)


def cont(data: bytes, fin: bool = True) -> Frame:
    return Frame(Opcode.CONT, data, fin=fin)


def make_frames() -> None:
    hello = text("Hello")
    frames_seed("text-hello", wire(hello))
    frames_seed("text-hello-in-pieces", wire(hello), reads=3)
    frames_seed("fragmented-with-ping", wire(
        text("Hel", fin=False), Frame(Opcode.PING, b"p"), cont(b"lo, ", fin=False), Frame(Opcode.PONG, b""), cont(b"world")))
    utf8 = "κόσμε – 🎲".encode()
    frames_seed("utf8-split-inside-a-character", wire(
        Frame(Opcode.TEXT, utf8[:3], fin=False), cont(utf8[3:9], fin=False), cont(utf8[9:])), reads=2)
    frames_seed("binary-256", wire(Frame(Opcode.BINARY, bytes(range(256)))))
    frames_seed("binary-16-bit-length", wire(Frame(Opcode.BINARY, bytes(300))))
    # A 64-bit length for a short payload: longer than needed, still valid.
    long_form = bytes([0x82, 0xFF]) + (10).to_bytes(8, "big") + bytes([0x37, 0xFA, 0x21, 0x3D]) + bytes(10)
    frames_seed("binary-64-bit-length-form", long_form)
    frames_seed("ping-pong", wire(Frame(Opcode.PING, b"are you there"), Frame(Opcode.PONG, b"yes")))
    frames_seed("close-1000-with-reason", wire(Frame(Opcode.CLOSE, (1000).to_bytes(2, "big") + "bye ✓".encode())))
    frames_seed("close-empty", wire(Frame(Opcode.CLOSE, b"")))
    frames_seed("close-4001", wire(text("last"), Frame(Opcode.CLOSE, (4001).to_bytes(2, "big"))))
    frames_seed("we-close-first", wire(text("a"), Frame(Opcode.PING, b""), Frame(Opcode.CLOSE, (1000).to_bytes(2, "big"))), close=2)
    frames_seed("request-frames", wire(
        text('{"id":1,"op":"hello"}'),
        text('{"id":2,"op":"createRoom","args":{"pointLimit":201,"pointValue":25,"playerCount":4,"playerName":"Ann"}}')))
    frames_seed("small-limits", wire(text("x" * 200)), limits=0x44)
    frames_seed("invalid-utf8", wire(Frame(Opcode.TEXT, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited")))

    # permessage-deflate, compressed by websockets' own zlib use.
    message = '{"id":3,"op":"submitWord","args":{"lobbyId":"BD8T95IYI6cf77tvFA1m","word":"pirate"}}'
    for takeover in (True, False):
        sender = deflater(no_context_takeover=not takeover)
        data = wire(text(message), text(message), Frame(Opcode.BINARY, bytes(2000)), deflate=sender)
        frames_seed(f"compressed-{'context-takeover' if takeover else 'no-context-takeover'}", data,
                    deflate=True, peer_no_takeover=not takeover)
    # A compressed message in fragments: only the first carries RSV1.
    payload = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = payload.compress(("Hello, compressed world! " * 20).encode()) + payload.flush(zlib.Z_SYNC_FLUSH)
    body = body[:-4]
    third = len(body) // 3
    fragmented = (raw_frame(0x1, body[:third], fin=False, rsv1=True) + wire(Frame(Opcode.PING, b""))
                  + raw_frame(0x0, body[third:2 * third], fin=False) + raw_frame(0x0, body[2 * third:]))
    frames_seed("compressed-fragmented", fragmented, deflate=True)
    frames_seed("compressed-fragmented-small-decompressed-limit", fragmented, deflate=True, limits=0x77)
    # A zip bomb: 1 MiB of zeros in about a kilobyte.
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb_body = (bomb.compress(bytes(1 << 20)) + bomb.flush(zlib.Z_SYNC_FLUSH))[:-4]
    frames_seed("compressed-bomb", raw_frame(0x2, bomb_body, rsv1=True), deflate=True)

    # The client's side: unmasked frames from a server.
    frames_seed("client-text-and-close", wire(text("welcome"), Frame(Opcode.CLOSE, (1001).to_bytes(2, "big")), client=False),
                client_role=True)
    frames_seed("client-compressed", wire(text(message), deflate=deflater(True), client=False),
                client_role=True, deflate=True, peer_no_takeover=True)


# MARK: fuzz-http — [flags, limits, reads, event read, websocket limits] + the client's bytes

def http_seed(name: str, data: bytes, *, flags: int = 1, limits: int = 0x33, reads: int = 0,
              event_read: int = 0xFF, ws_limits: int = 3) -> None:
    write("http", name, bytes([flags, limits, reads, event_read, ws_limits]) + data)


def crlf(*lines: str) -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def make_http() -> None:
    # websockets' client handshake, offering permessage-deflate as it does by default.
    protocol = websockets.client.ClientProtocol(
        websockets.uri.parse_uri("ws://127.0.0.1:8080/ws"), extensions=[ClientPerMessageDeflateFactory()])
    protocol.send_request(protocol.connect())
    python_request = b"".join(protocol.data_to_send())
    http_seed("python-websockets-upgrade", python_request)
    http_seed("python-websockets-upgrade-then-frames", python_request + wire(
        text('{"id":1,"op":"hello"}'), Frame(Opcode.PING, b"x"), Frame(Opcode.CLOSE, (1000).to_bytes(2, "big"))))
    http_seed("python-websockets-upgrade-in-pieces", python_request, reads=7)

    ours = crlf(
        "GET /ws HTTP/1.1", "Host: 127.0.0.1:8080", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits; client_no_context_takeover")
    http_seed("parlor-client-upgrade", ours)
    compressed = wire(text('{"id":1,"op":"hello"}' * 8), deflate=deflater(True))
    http_seed("parlor-client-upgrade-compressed-frames", ours + compressed)

    browser = crlf(
        "GET /echo?room=K7Q2ZD HTTP/1.1", "Host: play.example", "Connection: keep-alive, Upgrade",
        "Pragma: no-cache", "Cache-Control: no-cache",
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
        "Upgrade: websocket", "Origin: https://play.example", "Sec-WebSocket-Version: 13",
        "Accept-Encoding: gzip, deflate, br", "Accept-Language: en-US,en;q=0.9",
        "Sec-WebSocket-Key: x3JJHMbDL1EzLkh9GBhXDw==",
        "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits",
        "Sec-WebSocket-Protocol: parlor.v1, chat")
    http_seed("browser-upgrade", browser, flags=1 | (1 << 1))
    http_seed("browser-upgrade-origin-checked", browser, flags=1 | (1 << 6))
    http_seed("firefox-upgrade", crlf(
        "GET /ws HTTP/1.1", "Host: localhost:8080", "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "Accept: */*", "Sec-WebSocket-Version: 13", "Origin: http://localhost:8080",
        "Sec-WebSocket-Extensions: permessage-deflate", "Sec-WebSocket-Key: 2l2cEJTKoGXSlm+kPLk3Tw==",
        "Connection: keep-alive, Upgrade", "Upgrade: websocket"))
    http_seed("upgrade-offering-several-deflate-forms", crlf(
        "GET /ws HTTP/1.1", "Host: h", "Upgrade: websocket", "Connection: upgrade", "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        'Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits="10"; client_max_window_bits=12',
        "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; client_no_context_takeover"))
    http_seed("upgrade-wrong-version", crlf(
        "GET /ws HTTP/1.1", "Host: h", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 8"))
    http_seed("upgrade-refused", ours, flags=1 | (2 << 1))
    http_seed("upgrade-during-shutdown", ours, flags=1 | 8, event_read=0)

    curl_get = crlf("GET /healthz HTTP/1.1", "Host: 127.0.0.1:8080", "User-Agent: curl/7.88.1", "Accept: */*")
    http_seed("curl-healthz", curl_get)
    session = b'{"name":"Ann"}'
    post = crlf("POST /session HTTP/1.1", "Host: 127.0.0.1:8080", "User-Agent: curl/7.88.1", "Accept: */*",
                "Content-Type: application/json", f"Content-Length: {len(session)}") + session
    http_seed("curl-post-session", post)
    http_seed("pipelined-keep-alive", curl_get + post + crlf("HEAD /metrics HTTP/1.1", "Host: h") + ours)
    chunked = crlf("POST /functions/createLobby HTTP/1.1", "Host: h", "Transfer-Encoding: chunked",
                   "Authorization: Bearer v1.abc.def") + b"5\r\n{\"dat\r\n9\r\na\":{}}   \r\n0\r\n\r\n"
    http_seed("chunked-body", chunked)
    http_seed("http-1.0", b"GET / HTTP/1.0\r\n\r\n")
    http_seed("head-too-large", crlf("GET / HTTP/1.1", "Host: h", "X-Padding: " + "a" * 300), limits=0x31)
    http_seed("body-too-large", post, limits=0x13)
    http_seed("idle-then-timers", curl_get, flags=1 | (1 << 5))


# MARK: fuzz-envelope — a request frame as it arrives

def make_envelope() -> None:
    requests = {
        "hello": {"id": 1, "op": "hello"},
        "hello-resume": {"id": 1, "op": "hello", "args": {"token": "v1.9f0c5e2a.AbC-_x"}},
        "unsubscribe": {"id": 9, "op": "unsubscribe", "args": {"subscription": 17}},
        "getCatalog": {"id": "c1", "op": "getCatalog", "args": {"since": 3}},
        "observeCatalog": {"id": 2, "op": "observeCatalog", "args": {}},
        "createRoom": {"id": 1, "op": "createRoom", "args": {"pointLimit": 201, "pointValue": 25, "playerCount": 4, "playerName": "Ann"}},
        "joinRoom": {"id": 7, "op": "joinRoom", "args": {"code": "A1B2C3", "playerName": "Bo"}},
        "setReady": {"id": 2, "op": "setReady", "args": {"roomCode": "K7Q2ZD", "playerId": "9f0c5e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6", "ready": True}},
        "leaveRoom": {"id": 5, "op": "leaveRoom", "args": {"roomCode": "K7Q2ZD", "playerId": "9f0c5e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6"}},
        "observeRoom": {"id": 4, "op": "observeRoom", "args": {"code": "A1B2C3"}},
        "submitScore": {"id": 3, "op": "submitScore", "args": {"roomCode": "K7Q2ZD", "playerId": "9f0c5e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6", "round": 1, "score": 12}},
        "nextRound": {"id": 4, "op": "nextRound", "args": {"roomCode": "K7Q2ZD"}},
        "getRoom": {"id": 8, "op": "getRoom", "args": {"code": "K7Q2ZD"}},
        "listGames": {"id": 6, "op": "listGames", "args": {"limit": 10, "before": "2026-11-21T06:55:34.856Z"}},
        "listGames-by-user": {"id": 6, "op": "listGames", "args": {"userId": "9f0c5e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6"}},
        "startGame-room": {"id": 2, "op": "startGame", "args": {"roomCode": "K7Q2ZD"}},
        "startGame-lobby": {"id": 6, "op": "startGame", "args": {"lobbyId": "BD8T95IYI6cf77tvFA1m", "gameId": "word-lightning-start-p"}},
        "createLobby": {"id": 3, "op": "createLobby", "args": {"user": {"username": "Ann", "colorNumber": 2, "emojiNumber": 4}}},
        "joinLobby": {"id": 4, "op": "joinLobby", "args": {"lobbyCode": "gdts", "user": {"username": "Bo", "colorNumber": 5, "emojiNumber": 9}}},
        "submitWord": {"id": 7, "op": "submitWord", "args": {"lobbyId": "BD8T95IYI6cf77tvFA1m", "word": "pirate"}},
        "leaveLobby": {"id": 12, "op": "leaveLobby", "args": {"lobbyId": "BD8T95IYI6cf77tvFA1m"}},
        "observeLobby": {"id": 5, "op": "observeLobby", "args": {"lobbyId": "BD8T95IYI6cf77tvFA1m"}},
    }
    for name, request in requests.items():
        write("envelope", name, json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode())
    # Forms the sentences for bad requests are made of.
    write("envelope", "bad-missing-field", b'{"id":"r9","op":"joinRoom","args":{}}')
    write("envelope", "bad-fraction", b'{"id":1,"op":"createRoom","args":{"pointLimit":201.5,"pointValue":25,"playerCount":4,"playerName":"A"}}')
    write("envelope", "bad-unknown-op", b'{"id":1,"op":"dropTables","args":{}}')
    write("envelope", "spaced-and-escaped", '{ "op" : "submitWord" , "args" : { "word" : "caf\\u00e9 \\ud83c\\udfb2", "lobbyId" : "L" } , "id" : "é" }'.encode())
    # A callable function's body for each callable operation.
    write("envelope", "callable-createLobby", b'{"data":{"user":{"username":"Ann","colorNumber":2,"emojiNumber":4}}}')
    write("envelope", "callable-startGame", b'{"data":{"lobbyId":"BD8T95IYI6cf77tvFA1m"}}')


# MARK: fuzz-inflate — [flags, limit, frames, messages] + a compressed message or plain text

def inflate_seed(name: str, data: bytes, *, window_bits: int = 15, round_trip: bool = False,
                 no_takeover: bool = False, level: int = 6, limit: int = 5, frames_: int = 0, messages: int = 0) -> None:
    flags = (window_bits - 8) | (8 if round_trip else 0) | (16 if no_takeover else 0) | ((level - 1) << 5)
    write("inflate", name, bytes([flags, limit, frames_, messages]) + data)


def make_inflate() -> None:
    text_ = ('{"id":3,"op":"submitWord","args":{"lobbyId":"BD8T95IYI6cf77tvFA1m","word":"pirate"}}' * 4).encode()
    for bits in (9, 12, 15):
        c = zlib.compressobj(6, zlib.DEFLATED, -bits)
        inflate_seed(f"sync-flushed-{bits}-bits", (c.compress(text_) + c.flush(zlib.Z_SYNC_FLUSH))[:-4], window_bits=bits, frames_=5)
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    inflate_seed("final-block", c.compress(text_) + c.flush(zlib.Z_FINISH))
    c = zlib.compressobj(0, zlib.DEFLATED, -15)
    inflate_seed("stored-block", (c.compress(text_) + c.flush(zlib.Z_SYNC_FLUSH))[:-4], frames_=3)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    inflate_seed("bomb", (c.compress(bytes(1 << 20)) + c.flush(zlib.Z_SYNC_FLUSH))[:-4], limit=4)
    c = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_FIXED)
    inflate_seed("fixed-huffman", (c.compress(text_) + c.flush(zlib.Z_SYNC_FLUSH))[:-4], limit=2)
    c = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_HUFFMAN_ONLY)
    inflate_seed("huffman-only", (c.compress(bytes(range(256)) * 3) + c.flush(zlib.Z_SYNC_FLUSH))[:-4])
    # websockets' own compression of a message.
    frame = deflater(True).encode(Frame(Opcode.TEXT, text_))
    inflate_seed("websockets-message", frame.data, frames_=16)
    inflate_seed("round-trip", text_, round_trip=True, messages=40, frames_=9)
    inflate_seed("round-trip-no-takeover", text_, round_trip=True, no_takeover=True, messages=40, window_bits=10, level=1)
    inflate_seed("round-trip-binary", bytes(range(256)) * 4, round_trip=True, level=8, limit=3, messages=200)


# MARK: fuzz-media — a photo's bytes (no choice bytes), or an EXIF block's TIFF bytes

def photo(width: int = 32, height: int = 24, mode: str = "RGB", **save) -> bytes:
    """A small drawn picture (a gradient: entropy-coded data with stuffed bytes), saved by Pillow."""
    image = Image.new(mode, (width, height))
    bands = len(mode)
    image.putdata([tuple((x * 8 + y * 3 + b * 40) % 256 for b in range(bands)) if bands > 1 else (x * 8 + y * 3) % 256
                   for y in range(height) for x in range(width)])
    out = io.BytesIO()
    image.save(out, "JPEG", quality=save.pop("quality", 75), **save)
    return out.getvalue()


def gps(lat: tuple, lat_ref: str, lon: tuple, lon_ref: str) -> dict:
    rational = lambda parts: tuple((round(p * 100), 100) for p in parts)
    return {
        piexif.GPSIFD.GPSLatitudeRef: lat_ref, piexif.GPSIFD.GPSLatitude: rational(lat),
        piexif.GPSIFD.GPSLongitudeRef: lon_ref, piexif.GPSIFD.GPSLongitude: rational(lon),
        piexif.GPSIFD.GPSAltitude: (1250, 10), piexif.GPSIFD.GPSDateStamp: "2025:06:01",
    }


def piexif_block(orientation: int | None, location: dict | None, *, thumbnail: bytes | None = None,
                 taken: str = "2025:06:01 14:03:59", offset: str | None = "+02:00") -> bytes:
    """An APP1 EXIF payload (`Exif\\0\\0` + big-endian TIFF) as piexif writes it, with a phone's usual tags."""
    zeroth = {piexif.ImageIFD.Make: "Parlor", piexif.ImageIFD.Model: "Seed Phone 1",
              piexif.ImageIFD.Software: "make-seeds.py", piexif.ImageIFD.DateTime: taken}
    if orientation is not None:
        zeroth[piexif.ImageIFD.Orientation] = orientation
    exif = {piexif.ExifIFD.DateTimeOriginal: taken, piexif.ExifIFD.LensModel: "4.2mm f/1.8",
            piexif.ExifIFD.MakerNote: b"SEEDMAKERNOTE" * 4, piexif.ExifIFD.UserComment: b"ASCII\0\0\0at the club"}
    if offset is not None:
        exif[piexif.ExifIFD.OffsetTimeOriginal] = offset
    data = {"0th": zeroth, "Exif": exif, "GPS": location or {}, "1st": {}, "thumbnail": thumbnail}
    if thumbnail:
        data["1st"] = {piexif.ImageIFD.Compression: 6, piexif.ImageIFD.XResolution: (72, 1),
                       piexif.ImageIFD.YResolution: (72, 1)}
    return piexif.dump(data)


def pillow_block(orientation: int, lat: tuple, lon: tuple) -> bytes:
    """An APP1 EXIF payload as Pillow writes it, little-endian, with a GPS directory."""
    exif = Image.Exif()
    exif.endian = "<"
    exif[0x0112] = orientation
    location = exif.get_ifd(0x8825)
    location[1], location[2], location[3], location[4] = "S", lat, "W", lon
    return exif.tobytes()


XMP = (b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
       b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description '
       b'xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="52,22.0N" exif:GPSLongitude="4,53.5E"/>'
       b'</rdf:RDF></x:xmpmeta><?xpacket end="w"?>')


def make_media() -> None:
    amsterdam = gps((52, 22, 1.5), "N", (4, 53, 30.25), "E")
    sydney = gps((33, 52, 4.0), "S", (151, 12, 26.0), "E")
    thumbnail = photo(8, 8, quality=50)
    write("media", "phone-rotated-with-gps", photo(exif=piexif_block(6, amsterdam)))
    write("media", "upright-with-gps", photo(exif=piexif_block(1, sydney, offset=None)))
    write("media", "no-orientation-with-gps", photo(exif=piexif_block(None, amsterdam)))
    write("media", "thumbnail-xmp-comment", photo(exif=piexif_block(8, sydney, thumbnail=thumbnail), xmp=XMP,
                                                   comment=b"taken at the club, table 4"))
    write("media", "little-endian-gps", photo(exif=pillow_block(3, (12.0, 30.0, 0.5), (70.0, 1.0, 59.99))))
    write("media", "icc-profile", photo(exif=piexif_block(5, None),
                                        icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()))
    write("media", "progressive", photo(exif=piexif_block(6, amsterdam), progressive=True))
    write("media", "restart-markers", photo(40, 40, exif=piexif_block(7, sydney), restart_marker_blocks=1))
    write("media", "cmyk-adobe", photo(16, 16, mode="CMYK", exif=piexif_block(2, amsterdam)))
    write("media", "greyscale-no-exif", photo(16, 8, mode="L"))
    write("media", "subsampled", photo(exif=piexif_block(4, sydney), subsampling=2, quality=40))
    plain = photo(exif=piexif_block(6, amsterdam))
    write("media", "no-end-of-image", plain[:-2])
    write("media", "data-after-end-of-image", plain + b"\xff\xd8trailer: a second picture's metadata")
    png = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(png, "PNG")
    write("media", "png", png.getvalue())
    # EXIF blocks alone, read as TIFF (the target reads every input that way too).
    write("media", "tiff-big-endian", piexif_block(6, amsterdam)[6:])
    write("media", "tiff-little-endian", pillow_block(8, (0.0, 0.0, 0.0), (180.0, 0.0, 0.0))[6:])


if __name__ == "__main__":
    make_frames()
    make_http()
    make_envelope()
    make_inflate()
    make_media()
    for target in sorted(os.listdir(CORPUS)):
        files = list((CORPUS / target).iterdir())
        print(f"{target}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")
