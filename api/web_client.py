"""The web client (web/, built into api/web_client by Vite): its page at `/`, its hashed
assets under /assets/ for a year. The page itself is checked on every load (no-cache), so a
new build reaches browsers at once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response

BUILT = Path(__file__).resolve().parent / "web_client"

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>RisiKo! game server</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>The web client is not built</h1>
<p>This server serves its own web client, built from <code>web/</code> with Node:</p>
<pre>python3 dev.py run</pre>
<p>builds it when it is missing or stale. The API works all the same:
<a href="/graphql">/graphql</a>.</p>
</body></html>
"""


def page(folder: Path) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of `/`: the client's page from `folder`, or how to build it."""

    async def index(request: Request) -> Response:
        built = folder / "index.html"
        if not built.is_file():
            return HTMLResponse(NOT_BUILT, status_code=503, headers={"Cache-Control": "no-store"})
        return FileResponse(built, headers={"Cache-Control": "no-cache"})

    return index
