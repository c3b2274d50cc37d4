"""A Python `websockets` echo server on 127.0.0.1 (port 0) for our client; prints "port N" and serves until
killed or 60 s pass. Usage: echo_server.py (deflate|plain)."""
import asyncio
import sys

import websockets


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def main(mode):
    compression = "deflate" if mode == "deflate" else None
    async with websockets.serve(echo, "127.0.0.1", 0, compression=compression, max_size=2**22) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"port {port}", flush=True)
        await asyncio.sleep(60)


asyncio.run(main(sys.argv[1]))
