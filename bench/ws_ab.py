"""A/B of WebSocket servers in one run: each message a client sends is answered with
four of ~700 bytes (one move's updates), over 100 connections; the server's CPU per
message in. Implementations alternate in rounds, each in a fresh server process:

- ``websockets-sansio`` — uvicorn's default (what ``twmj serve`` runs), under Starlette;
- ``websockets`` — uvicorn's older websockets implementation, under Starlette;
- ``websockets-sansio+rawsend`` — as the first, sending through the raw ASGI ``send``
  (what skipping Starlette's ``send_text`` would save);
- ``picows-raw`` — picows (Cython) with no ASGI at all: the floor a compiled server
  could reach (``pip install picows``; not a dependency of twmahjong).

    .venv/bin/python bench/ws_ab.py websockets-sansio websockets picows-raw
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import sys
import time

import psutil

PAYLOAD = ('{"v":1,"type":"update","turn":12,"events":[],"observation":{"x":"'
           + "a" * 640 + '"}}')


def serve_picows(port: int) -> None:
    import uvloop
    from picows import WSListener, WSMsgType, ws_create_server
    data = PAYLOAD.encode()

    class Listener(WSListener):
        def on_ws_frame(self, transport, frame):
            if frame.msg_type == WSMsgType.CLOSE:
                transport.send_close(frame.get_close_code(), frame.get_close_message())
                transport.disconnect()
            elif frame.msg_type == WSMsgType.TEXT:
                frame.get_payload_as_ascii_text()
                for _ in range(4):
                    transport.send(WSMsgType.TEXT, data)

    async def main() -> None:
        server = await ws_create_server(lambda _: Listener(), "127.0.0.1", port)
        await server.serve_forever()
    uvloop.run(main())


def serve(port: int, ws: str) -> None:
    if ws == "picows-raw":
        return serve_picows(port)
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    raw = ws.endswith("+rawsend")
    ws = ws.removesuffix("+rawsend")

    async def endpoint(websocket) -> None:
        await websocket.accept()
        send = websocket._send if raw else None
        try:
            while True:
                await websocket.receive_text()
                for _ in range(4):
                    if send is not None:
                        await send({"type": "websocket.send", "text": PAYLOAD})
                    else:
                        await websocket.send_text(PAYLOAD)
        except Exception:  # noqa: BLE001 - the client went away
            pass
    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    uvicorn.run(app, host="127.0.0.1", port=port, ws=ws, http="httptools", loop="uvloop",
                log_level="error")


async def client(port: int, conns: int, msgs: int) -> None:
    from websockets.asyncio.client import connect

    async def one() -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws", ping_interval=None) as w:
            for _ in range(msgs):
                await w.send('{"type":"action"}')
                for _ in range(4):
                    await w.recv()
    await asyncio.gather(*(one() for _ in range(conns)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(ws: str, conns: int = 100, msgs: int = 100) -> tuple[float, int]:
    port = free_port()
    p = multiprocessing.Process(target=serve, args=(port, ws), daemon=True)
    p.start()
    for _ in range(600):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    proc = psutil.Process(p.pid)
    c0 = sum(proc.cpu_times()[:2])
    asyncio.run(client(port, conns, msgs))
    cpu = sum(proc.cpu_times()[:2]) - c0
    p.terminate()
    p.join()
    return cpu, conns * msgs


def main() -> None:
    impls = sys.argv[1:] or ["websockets-sansio", "websockets", "picows-raw"]
    spent = {k: [0.0, 0] for k in impls}
    for r in range(3):
        for k in (impls if r % 2 == 0 else impls[::-1]):
            cpu, n = run(k)
            spent[k][0] += cpu
            spent[k][1] += n
    base = spent[impls[0]][0] / spent[impls[0]][1]
    for k, (cpu, n) in spent.items():
        print(f"{k:26s} server CPU {1e6 * cpu / n:.0f} us per message in (+4 out), "
              f"x{cpu / n / base:.2f}")
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
