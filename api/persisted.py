"""Persisted queries over HTTP: Apollo's automatic persisted queries (APQ), as Apollo Server
answers them, for Apollo Client's persisted query link, urql's persisted exchange and others.

A request (POST, or GET for queries) may carry `extensions.persistedQuery`, `{"version": 1,
"sha256Hash": "<hex>"}`:

- with its `query`: the hash must be the query's SHA-256 (else PERSISTED_QUERY_HASH_MISMATCH,
  400, nothing runs); the query runs as any other, and once it has run (it passed validation,
  the limits and the client's budget) it is kept in the store under its hash, so that every
  instance knows it;
- without one: the query kept under the hash runs; if none is, PERSISTED_QUERY_NOT_FOUND with
  the message `PersistedQueryNotFound` (the code and the message Apollo's link and urql's
  exchange look for), and the client sends the query again with its hash.

The store keeps at most RISIKO_PERSISTED_QUERY_MAX_DOCUMENTS documents: past it, the oldest
are dropped (a client of a dropped one gets PERSISTED_QUERY_NOT_FOUND once and sends it
again: the protocol's own recovery); a document longer than
RISIKO_PERSISTED_QUERY_MAX_BYTES runs but is not kept. Each instance keeps the documents it
used last in memory too (a document never changes under its hash).

RISIKO_PERSISTED_QUERIES chooses the mode: `auto` (the above), `trusted` (only the trusted
documents of api/trusted.py run, by hash or in full; nothing is registered; any other
document is PERSISTED_QUERY_NOT_ALLOWED, over the WebSocket too), `off` (a persisted query
is PERSISTED_QUERY_NOT_SUPPORTED, message `PersistedQueryNotSupported`: the clients then
send their queries in full). A mutation by GET stays refused (405), persisted or not.

These answers are request errors: status 200 for a client of `application/json`, 400 for one
that accepts `application/graphql-response+json` (GraphQL over HTTP), never cached.
"""

from __future__ import annotations

import contextvars
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from strawberry import Schema
from strawberry.extensions import ParserCache
from strawberry.http import GraphQLRequestData

from api.refusals import GRAPHQL_RESPONSE, RequestRefused
from api.settings import PersistedQueryMode as Mode
from api.settings import Settings
from api.stores.base import Store
from api.trusted import TrustedDocuments, TrustedOnly, sha256, trusted_documents

HASH = re.compile(r"[0-9a-f]{64}")
KEPT_IN_MEMORY = 2048
NO_STORE = {"Cache-Control": "no-store"}


@dataclass(frozen=True, slots=True)
class Bounds:
    max_documents: int = 10_000
    max_bytes: int = 16_384


# The document of this request to keep once it has run: (its hash, its text).
_to_keep: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "persisted_query_to_keep", default=None
)


class PersistedQueries:
    def __init__(
        self, store: Store, mode: Mode, trusted: TrustedDocuments, bounds: Bounds = Bounds()
    ) -> None:
        self.store = store
        self.mode = mode
        self.trusted = trusted
        self.bounds = bounds
        self._memory: OrderedDict[str, str] = OrderedDict()

    async def resolve(self, data: GraphQLRequestData, accept: str) -> GraphQLRequestData:
        """The request with the query its hash stands for; RequestRefused for a persisted
        query this server does not run."""
        _to_keep.set(None)
        extension = (data.extensions or {}).get("persistedQuery")
        if extension is None:
            return data
        status = 400 if GRAPHQL_RESPONSE in accept else 200
        if self.mode is Mode.OFF:
            raise _refused(status, "PERSISTED_QUERY_NOT_SUPPORTED", "PersistedQueryNotSupported")
        hash_ = _hash_of(extension)
        if data.query is not None:
            if sha256(data.query) != hash_:
                raise _refused(
                    400, "PERSISTED_QUERY_HASH_MISMATCH", "provided sha does not match query"
                )
            if self.mode is Mode.AUTO and self.trusted.get(hash_) is None:
                _to_keep.set((hash_, data.query))
            return data
        query = await self._find(hash_)
        if query is None:
            raise _refused(status, "PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound")
        return replace(data, query=query)

    async def keep_after_run(self, ran: bool) -> None:
        """Keep the request's document, if it brought one to keep and it ran."""
        to_keep = _to_keep.get()
        _to_keep.set(None)
        if to_keep is None or not ran:
            return
        hash_, query = to_keep
        self._remember(hash_, query)
        if len(query.encode()) <= self.bounds.max_bytes:
            await self.store.persist_query(hash_, query, time.time(), self.bounds.max_documents)

    async def _find(self, hash_: str) -> str | None:
        found = self.trusted.get(hash_) or self._memory.get(hash_)
        if found is None and self.mode is Mode.AUTO:
            found = await self.store.persisted_query(hash_)
        if found is not None:
            self._remember(hash_, found)
        return found

    def _remember(self, hash_: str, query: str) -> None:
        self._memory[hash_] = query
        self._memory.move_to_end(hash_)
        while len(self._memory) > KEPT_IN_MEMORY:
            self._memory.popitem(last=False)


def carries_persisted_query(params: Any) -> bool:
    """A GET whose query string holds `extensions` is a request, not a browser's page."""
    return "extensions" in params


def _hash_of(extension: object) -> str:
    if not isinstance(extension, dict) or extension.get("version") != 1:
        raise _refused(400, "BAD_REQUEST", "Unsupported persisted query version")
    hash_ = extension.get("sha256Hash")
    if not isinstance(hash_, str) or not HASH.fullmatch(hash_):
        raise _refused(
            400, "BAD_REQUEST", "persistedQuery.sha256Hash must be 64 lowercase hex digits"
        )
    return hash_


def _refused(status: int, code: str, message: str) -> RequestRefused:
    return RequestRefused(status, code, message, NO_STORE)


def persisted_queries(store: Store, schema: Schema, settings: Settings) -> PersistedQueries:
    """The persisted queries of a server with these settings; in the trusted mode, its schema
    runs nothing but the trusted documents (TrustedOnly, before the document's limits)."""
    trusted = trusted_documents(settings.web_client_dir, settings.trusted_document_files)
    if settings.persisted_queries is Mode.TRUSTED:
        parsing, *others = schema.extensions
        assert parsing is ParserCache
        schema.extensions = (parsing, lambda: TrustedOnly(trusted), *others)
    bounds = Bounds(settings.persisted_query_max_documents, settings.persisted_query_max_bytes)
    return PersistedQueries(store, settings.persisted_queries, trusted, bounds)
