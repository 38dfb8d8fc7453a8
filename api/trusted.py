"""Trusted documents: the documents this server's own clients send, known in advance, so that
a server may run those and nothing else (RISIKO_PERSISTED_QUERIES=trusted), as production
GraphQL services do (https://benjie.dev/graphql/trusted-documents).

Known documents:

- the Python client's (risiko_client.api's documents: every module-level text of it that is
  a GraphQL operation), as the client sends them, printed by graphql-core;
- the web client's, listed by its build (web/vite.config.ts writes `documents.json` beside the
  built client: every document it sends, as it sends them, by SHA-256);
- those of the files RISIKO_TRUSTED_DOCUMENTS names: Apollo's persisted query manifest
  (`@apollo/generate-persisted-query-manifest`), an object of documents by id (GraphQL Code
  Generator's persisted-documents.json, Relay's query map), or a JSON list of documents.

A document is known by the SHA-256 of its text, or of its text as graphql-core prints it: the
same operations written with other spaces or comments are the same document.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from graphql import (
    DocumentNode,
    GraphQLError,
    OperationDefinitionNode,
    parse,
    print_ast,
)
from risiko_client import api as python_client
from strawberry.extensions import SchemaExtension

from api.identity_memo import IdentityMemo

logger = logging.getLogger("risiko.trusted")

WEB_DOCUMENTS = "documents.json"  # beside the built web client (its build writes it)
NOT_ALLOWED = "PERSISTED_QUERY_NOT_ALLOWED"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _printed(text: str) -> str | None:
    """The document as graphql-core prints it; None for a text that holds no operation."""
    try:
        document = parse(text)
    except GraphQLError:
        return None
    if not any(isinstance(d, OperationDefinitionNode) for d in document.definitions):
        return None
    return print_ast(document)


class TrustedDocuments:
    """Documents by the SHA-256 of their text and of their printed text."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.by_hash: dict[str, str] = {}
        self._admitted: IdentityMemo[DocumentNode, bool] = IdentityMemo(1024)
        for text in texts:
            printed = _printed(text)
            if printed is None:
                logger.warning("not a GraphQL operation, left out: %.80r", text)
                continue
            self.by_hash[sha256(text)] = text
            self.by_hash[sha256(printed)] = printed

    def __len__(self) -> int:
        return len(set(self.by_hash.values()))

    def get(self, hash_: str) -> str | None:
        return self.by_hash.get(hash_)

    def admits(self, text: str | None, document: DocumentNode | None) -> bool:
        """Whether a request's document is one of these: its text, else its printed text."""
        if text is not None and sha256(text) in self.by_hash:
            return True
        if document is None:
            return False
        admitted = self._admitted.get(document)
        if admitted is None:
            admitted = self._admitted.keep(document, sha256(print_ast(document)) in self.by_hash)
        return admitted


def python_client_documents() -> list[str]:
    """The Python client's documents, as it sends them (printed by graphql-core)."""
    found = []
    for value in vars(python_client).values():
        if isinstance(value, str) and (printed := _printed(value)) is not None:
            found.append(printed)
    return found


def web_client_documents(folder: Path) -> list[str]:
    """The built web client's documents (none if it is not built)."""
    listed = folder / WEB_DOCUMENTS
    return manifest_documents(listed) if listed.is_file() else []


def manifest_documents(path: Path) -> list[str]:
    """The documents of a manifest file (ValueError, naming the file, if it holds none)."""
    try:
        data: Any = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: not a readable JSON file ({error})") from None
    texts = list(_texts(data))
    if not texts:
        raise ValueError(f"{path}: no GraphQL documents (see docs/api.md, trusted documents)")
    return texts


def _texts(data: Any) -> Iterator[str]:
    if isinstance(data, dict) and isinstance(data.get("operations"), list):  # Apollo's
        data = [operation.get("body") for operation in data["operations"]]
    elif isinstance(data, dict):  # by id: Code Generator's, Relay's
        data = list(data.values())
    if isinstance(data, list):
        yield from (text for text in data if isinstance(text, str))


def trusted_documents(web_client_dir: Path, manifests: Iterable[Path]) -> TrustedDocuments:
    texts = python_client_documents() + web_client_documents(web_client_dir)
    for path in manifests:
        texts += manifest_documents(path)
    return TrustedDocuments(texts)


class TrustedOnly(SchemaExtension):
    """Refuses every document that is not trusted, before it is validated, measured or
    charged (over HTTP and over the WebSocket alike): PERSISTED_QUERY_NOT_ALLOWED."""

    def __init__(self, trusted: TrustedDocuments) -> None:
        super().__init__()
        self.trusted = trusted

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        if context.pre_execution_errors is None and not self.trusted.admits(
            context.query, context.graphql_document
        ):
            context.pre_execution_errors = [
                GraphQLError(
                    "this server runs only its registered documents (trusted documents): "
                    "this one is not one of them",
                    extensions={"code": NOT_ALLOWED},
                )
            ]
        yield
