"""Python `websockets` against Parlor's /echo: text, binary, fragmented and large messages, pings and a
close code, with and without permessage-deflate. Usage: echo_websockets.py URL (deflate|plain) [CA_FILE]
(a wss:// URL is verified against CA_FILE)."""
import asyncio
import json
import os
import ssl
import sys

import websockets


async def main(url, mode, ca_file=None):
    compression = "deflate" if mode == "deflate" else None
    context = ssl.create_default_context(cafile=ca_file) if url.startswith("wss:") else None
    async with websockets.connect(url, compression=compression, max_size=2**22, ssl=context) as ws:
        checks = 0
        for message in ["Hello", "κόσμε 🎲", "x" * 20000, b"\x00\xff" * 3000, os.urandom(60000)]:
            await ws.send(message)
            echo = await asyncio.wait_for(ws.recv(), 10)
            assert echo == message, f"echo mismatch for {type(message).__name__} of {len(message)}"
            checks += 1
        # A fragmented message (websockets sends an iterable as fragments).
        await ws.send(["frag", "mented ", "message"])
        assert await asyncio.wait_for(ws.recv(), 10) == "fragmented message"
        pong = await ws.ping(b"are you there")
        await asyncio.wait_for(pong, 10)
        await ws.close(code=4001, reason="done here")
        assert ws.close_code == 4001, f"close code {ws.close_code}"
        print(json.dumps({"ok": True, "mode": mode, "checks": checks + 2,
                          "extensions": ws.response.headers.get("Sec-WebSocket-Extensions"),
                          "tls": ws.transport.get_extra_info("ssl_object").version() if context else None}))


asyncio.run(main(*sys.argv[1:4]))
