"""The `risiko` commands of the server: `serve` runs it, `graphiql-assets` fetches the files
its GraphiQL page serves, `export-schema` prints the schema it serves."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def add_server_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`serve`, `graphiql-assets` and `export-schema`: the server and what it serves."""
    serve = commands.add_parser("serve", help="run the GraphQL server (settings: RISIKO_* too)")
    serve.add_argument("--host", help="address to listen on (RISIKO_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (RISIKO_PORT, default 8000)")
    serve.add_argument("--data-dir", help="folder of the embedded store (RISIKO_DATA_DIR)")
    serve.add_argument(
        "--workers",
        type=int,
        help="server processes sharing the port and the store (RISIKO_WORKERS, default 1)",
    )
    serve.set_defaults(handler=_serve)

    assets = commands.add_parser(
        "graphiql-assets",
        help="fetch GraphiQL's files from the npm registry, for the server to serve them",
        description="Fetch GraphiQL's files from the npm registry into a folder, each checked "
        "against the hash GraphiQL's page names. An installed package carries them already; "
        "a checkout's server keeps them in the user's cache.",
    )
    assets.add_argument(
        "--dir",
        help="where (RISIKO_GRAPHIQL_ASSETS_DIR; default: the installed package's files, "
        "else ~/.cache/risiko/graphiql)",
    )
    assets.add_argument("--registry", help="npm registry (default: registry.npmjs.org)")
    assets.add_argument(
        "--list",
        action="store_true",
        help="print the files GraphiQL's page names, as api/graphiql_files.json lists them "
        "for the build, and fetch nothing",
    )
    assets.set_defaults(handler=_graphiql_assets)

    export = commands.add_parser("export-schema", help="print the GraphQL schema (SDL)")
    export.set_defaults(handler=_export_schema)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.connections import uvicorn_options
    from api.graphiql import missing_assets
    from api.logs import log_config
    from api.settings import Settings
    from api.workers import limits_of, serving_app

    overrides = {
        name: value
        for name, value in (
            ("host", args.host),
            ("port", args.port),
            ("data_dir", args.data_dir),
            ("workers", args.workers),
        )
        if value is not None
    }
    settings = Settings(**overrides)
    workers = f", {settings.workers} processes" if settings.workers > 1 else ""
    print(
        f"risiko: GraphQL at http://{settings.host}:{settings.port}/graphql, "
        f"store {settings.database}{workers}",
        flush=True,
    )
    if settings.graphiql and missing_assets(settings.graphiql_assets_dir):
        print("risiko: GraphiQL's files are missing: `risiko graphiql-assets` fetches them")
    common: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "log_config": log_config(settings.log_level, settings.log_format),
        "proxy_headers": True,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
    }
    if settings.workers > 1:  # each process builds its own from the environment: api/workers.py
        for name, value in overrides.items():
            os.environ[f"RISIKO_{name.upper()}"] = str(value)
        uvicorn.run(
            "api.workers:app",
            factory=True,
            workers=settings.workers,
            http="api.workers:Http",
            ws="api.workers:WebSocket",
            **common,
        )
        return 0
    uvicorn.run(serving_app(settings), **common, **uvicorn_options(limits_of(settings)))
    return 0


def _graphiql_assets(args: argparse.Namespace) -> int:
    from api.graphiql import REGISTRY, AssetError, fetch_assets
    from api.settings import Settings

    if args.list:
        from api.graphiql import cdn_page, page_assets
        from api.npm_files import list_text

        print(list_text(page_assets(cdn_page())), end="")
        return 0
    folder = Path(args.dir) if args.dir else Settings().graphiql_assets_dir
    try:
        fetched = fetch_assets(folder, registry=args.registry or REGISTRY)
    except AssetError as error:
        print(f"risiko: {error}", file=sys.stderr)
        return 1
    for asset in fetched:
        print(f"fetched {asset.relative}")
    print(f"GraphiQL's files are in {folder}")
    return 0


def _export_schema(args: argparse.Namespace) -> int:
    from api.graphql.schema import schema

    print(schema.as_str())
    return 0
