"""The standard introspection queries, as the tools send them, against a real server: each
is answered, with the schema the server serves, and charged what its answer holds.

graphql-js's getIntrospectionQuery and graphql-core's get_introspection_query (14 levels deep,
about 130,000 points by the lists' usual sizes) were refused as QUERY_TOO_DEEP, and with them
GraphQL Code Generator, gql's fetch_schema_from_transport, Postman and Insomnia.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from gql import Client, gql
from gql.transport.httpx import HTTPXAsyncTransport
from graphql import (
    GraphQLSchema,
    build_client_schema,
    build_schema,
    get_introspection_query,
    lexicographic_sort_schema,
    print_schema,
)

from tests.e2e.support import ROOT, Server
from tests.integration.api_support import running_server
from tests.node_tools import NODE_TOOLS, WEB, node

EVERY_OPTION = {
    "descriptions": True,
    "specified_by_url": True,
    "directive_is_repeatable": True,
    "schema_description": True,
    "input_value_deprecation": True,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory.mktemp("introspection") / "data")


def printed(schema: GraphQLSchema) -> str:
    return print_schema(lexicographic_sort_schema(schema))


SERVED = printed(build_schema((ROOT / "schema.graphql").read_text()))


def fields_in(answer: object) -> int:
    if isinstance(answer, dict):
        return len(answer) + sum(fields_in(value) for value in answer.values())
    if isinstance(answer, list):
        return sum(fields_in(item) for item in answer)
    return 0


def test_graphql_cores_standard_query_with_every_option(server: Server) -> None:
    query = get_introspection_query(**EVERY_OPTION, one_of=True)
    response = httpx.post(f"{server.url}/graphql", json={"query": query}, timeout=30)
    answer: dict[str, Any] = response.json()
    assert response.status_code == 200
    assert "errors" not in answer, answer["errors"]
    assert printed(build_client_schema(answer["data"])) == SERVED
    # Measured and charged: the exact size of its answer (about 10,000 fields).
    assert answer["extensions"]["cost"]["requested"] == fields_in(answer["data"])


def test_graphql_jss_standard_query_with_every_option(server: Server) -> None:
    done = subprocess.run(
        [node(), "introspect.mjs", server.url],
        cwd=NODE_TOOLS,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["errors"] is None, result["errors"]
    assert result["status"] == 200
    assert printed(build_schema(result["sdl"])) == SERVED
    assert 5_000 < result["cost"]["requested"] < 50_000


@pytest.mark.anyio
@pytest.mark.parametrize(
    "options", [{}, {**EVERY_OPTION, "input_object_one_of": True, "type_recursion_level": 9}]
)
async def test_gql_fetches_the_schema_from_the_server(
    server: Server, options: dict[str, Any]
) -> None:
    client = Client(
        transport=HTTPXAsyncTransport(url=f"{server.url}/graphql"),
        fetch_schema_from_transport=True,
        introspection_args=options,
    )
    async with client as session:
        answer = await session.execute(gql("{ variants { name } }"))  # checked on the schema
    assert {"name": "classic"} in answer["variants"]
    assert client.schema is not None
    if options:
        assert printed(client.schema) == SERVED


def test_graphql_code_generator_builds_the_web_clients_types_from_the_url(
    server: Server, tmp_path: Path
) -> None:
    """The web client's own codegen (web/codegen.ts) with the server's URL for its schema:
    the same types as from schema.graphql once it asks for `isOneOf` (ActionInput is
    @oneOf), and some types with the tool's default query."""
    plugin = {
        "plugins": ["typescript-operations"],
        "config": {
            "scalars": {"JSON": "unknown"},
            "avoidOptionals": True,
            "enumsAsTypes": True,
            "skipTypename": False,
        },
    }
    url = f"{server.url}/graphql"
    every_option = {
        "oneOf": True,
        "inputValueDeprecation": True,
        "specifiedByUrl": True,
        "directiveIsRepeatable": True,
        "schemaDescription": True,
    }
    config = {
        "documents": ["src/**/*.ts", "!src/generated/**"],
        "generates": {
            str(tmp_path / "file.ts"): {"schema": str(ROOT / "schema.graphql"), **plugin},
            str(tmp_path / "url.ts"): {"schema": [{url: every_option}], **plugin},
            str(tmp_path / "default.ts"): {"schema": url, **plugin},
        },
        "silent": True,
    }
    (tmp_path / "codegen.json").write_text(json.dumps(config))
    codegen = WEB / "node_modules" / "@graphql-codegen" / "cli" / "esm" / "bin.js"
    subprocess.run(
        [node(WEB), str(codegen), "--config", str(tmp_path / "codegen.json")],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    from_file = (tmp_path / "file.ts").read_text()
    assert "export type GameStateQuery = " in from_file
    assert (tmp_path / "url.ts").read_text() == from_file
    assert "export type GameStateQuery = " in (tmp_path / "default.ts").read_text()
