"""Python `websockets` against Parlor's /echo: text, binary, fragmented and large messages, pings and a
close code, with and without permessage-deflate. Usage: echo_websockets.py WS_URL (deflate|plain)."""
import asyncio
import json
import os
import sys

import websockets


async def main(url, mode):
    compression = "deflate" if mode == "deflate" else None
    async with websockets.connect(url, compression=compression, max_size=2**22) as ws:
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
                          "extensions": ws.response.headers.get("Sec-WebSocket-Extensions")}))


asyncio.run(main(sys.argv[1], sys.argv[2]))
