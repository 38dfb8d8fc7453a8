"""The server of the API benchmark: the real app, plus the same service call behind a bare
Starlette JSON route, to measure what GraphQL costs on top of it."""

from __future__ import annotations

import os
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from api.app import create_app
from api.service import GameService, ServiceError
from api.settings import Settings
from domain.actions import action_from_dict


def create() -> ASGIApp:
    settings = Settings(data_dir=Path(os.environ["RISIKO_DATA_DIR"]))
    app = create_app(settings)
    starlette = app.app  # type: ignore[attr-defined]
    service: GameService = starlette.state.service

    async def submit(request: Request) -> Response:
        body = await request.json()
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        try:
            submitted = await service.submit_action(
                body["gameId"], token, action_from_dict(body["action"]), body["expectedVersion"]
            )
        except ServiceError as error:
            return JSONResponse({"error": {"code": error.code, "message": error.message}})
        return JSONResponse(submitted.to_dict())

    starlette.router.routes.append(Route("/bare/submit", submit, methods=["POST"]))
    return app
