"""The server of the API benchmarks: the real app, plus the same service calls and the same data
behind bare Starlette JSON routes, to measure what GraphQL costs on top of them.

    POST /bare/submit          {"gameId", "action", "expectedVersion"}: submitAction's service call
    GET  /bare/variants        what `{ variants { board { … } } }` answers, as plain JSON
    GET  /bare/game/{game_id}  what `game(id) { territories {…} players {…} }` answers (spectator)
    WS   /bare/events/{game_id}?after=N  the spectator's `gameEvents { seq version type }`: the
                               same service stream, sent as the same graphql-transport-ws `next`
                               messages, without GraphQL
    GET  /bare/fan-out         the server's side of a fan-out since the last call: when each
                               publish to subscribers happened and when each WebSocket message
                               was written to its socket (`timed_websocket`), perf_counter
                               seconds (one clock for every process of the machine)

The read routes answer the same JSON document as GraphQL (`{"data": …}`), computed per request
from the same objects the resolvers read, so the two can be compared byte for byte.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket

from api.app import create_app
from api.collector import tune_for_serving
from api.service import GameService, ServiceError, Session
from api.settings import Settings
from api.stores import codec
from domain.actions import action_from_dict
from variants import VARIANTS, Variant, get_variant


def board_json(variant: Variant) -> dict[str, Any]:
    board = variant.ruleset.board
    return {
        "territories": [
            {"id": t.id, "name": t.name, "region": t.region} for t in board.territories
        ],
        "regions": [
            {"id": r.id, "name": r.name, "bonus": r.bonus, "territories": list(r.territories)}
            for r in board.regions
        ],
        "edges": [{"a": e.a, "b": e.b, "kind": e.kind.value} for e in board.edges],
    }


def game_json(session: Session) -> dict[str, Any]:
    """The `territories` and `players` of a game as a spectator sees them (as the resolvers)."""
    game = session.game
    record = session.record
    board = get_variant(record.variant).ruleset.board
    if game is None:
        territories = [{"id": t.id, "owner": None, "armies": 0} for t in board.territories]
    else:
        territories = [
            {"id": t.id, "owner": game.owner[t.index], "armies": game.armies[t.index]}
            for t in board.territories
        ]
    players = []
    for seat in record.seats:
        s = seat.seat
        player: dict[str, Any] = {"seat": s, "name": seat.name, "colour": seat.colour}
        if game is None:
            player |= {"territories": 0, "armies": 0, "cards": 0}
            player |= {"eliminated": False, "resigned": False}
        else:
            player["territories"] = game.territory_count[s]
            player["armies"] = sum(n for t, n in enumerate(game.armies) if game.owner[t] == s)
            player["cards"] = len(game.hands[s])
            player["eliminated"] = game.eliminated[s]
            player["resigned"] = game.resigned[s]
        players.append(player)
    return {"territories": territories, "players": players}


class FanOutClock:
    """When the broker published (and on which channel), and when each message was written."""

    def __init__(self) -> None:
        self.published: list[tuple[float, str]] = []
        self.written: list[float] = []

    def take(self) -> dict[str, Any]:
        taken = {"published": self.published, "written": self.written}
        self.published, self.written = [], []
        return taken


FAN_OUT = FanOutClock()


def timed_websocket(protocol: type[Any]) -> type[Any]:
    """A uvicorn WebSocket protocol class that notes when it wrote each message: its `send`
    returns once the frame is in the socket (or, for a client that does not read, in the
    transport's buffer)."""

    class Timed(protocol):  # type: ignore[misc, valid-type]
        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.send":
                FAN_OUT.written.append(time.perf_counter())

    return Timed


def create() -> ASGIApp:
    settings = Settings(data_dir=Path(os.environ["RISIKO_DATA_DIR"]))
    app = create_app(settings)
    starlette = app
    service: GameService = starlette.state.service
    broker_publish = service.broker.publish

    def timed_publish(channel: str, messages: Any) -> None:
        FAN_OUT.published.append((time.perf_counter(), channel))
        broker_publish(channel, messages)

    service.broker.publish = timed_publish  # type: ignore[method-assign]

    async def submit(request: Request) -> Response:
        body = await request.json()
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        try:
            submitted = await service.submit_action(
                body["gameId"], token, action_from_dict(body["action"]), body["expectedVersion"]
            )
        except ServiceError as error:
            return JSONResponse({"error": {"code": error.code, "message": error.message}})
        stored = [codec.encode(event) for event in submitted.events]
        return JSONResponse(codec.encode_answer(submitted.version, stored))

    async def variants(request: Request) -> Response:
        boards = [{"board": board_json(variant)} for variant in VARIANTS.values()]
        return JSONResponse({"data": {"variants": boards}})

    async def game(request: Request) -> Response:
        try:
            session = await service.session(request.path_params["game_id"])
        except ServiceError:
            return JSONResponse({"data": {"game": None}})
        return JSONResponse({"data": {"game": game_json(session)}})

    async def events(websocket: WebSocket) -> None:
        await websocket.accept()
        game_id = websocket.path_params["game_id"]
        after = int(websocket.query_params.get("after", "0"))

        async def pump() -> None:
            async for event in service.stream(game_id, None, after):
                fields = {"seq": event.seq, "version": event.log_seq, "type": event.event.type}
                message = {"id": "1", "type": "next", "payload": {"data": {"gameEvents": fields}}}
                await websocket.send_text(json.dumps(message))

        task = asyncio.create_task(pump())
        try:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def fan_out(request: Request) -> Response:
        return JSONResponse(FAN_OUT.take())

    starlette.router.routes.extend(
        [
            Route("/bare/fan-out", fan_out, methods=["GET"]),
            Route("/bare/submit", submit, methods=["POST"]),
            Route("/bare/variants", variants, methods=["GET"]),
            Route("/bare/game/{game_id}", game, methods=["GET"]),
            WebSocketRoute("/bare/events/{game_id}", events),
        ]
    )
    tune_for_serving()  # as `risiko serve` does
    return app
