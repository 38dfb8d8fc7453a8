"""Settings, from the environment (prefix RISIKO_) and the command line's flags."""

from __future__ import annotations

import enum
from pathlib import Path

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from api.graphiql import default_folder
from api.origins import DEVELOPMENT_ORIGINS, origin_pattern
from api.web_client import BUILT


class PersistedQueryMode(enum.StrEnum):
    """What a persisted query may be (api/persisted.py)."""

    AUTO = "auto"
    TRUSTED = "trusted"
    OFF = "off"


class MetricsMode(enum.StrEnum):
    """Who may read /metrics (api/metrics.py)."""

    OFF = "off"
    ON = "on"
    TOKEN = "token"


class LogFormat(enum.StrEnum):
    TEXT = "text"
    JSON = "json"


class Settings(BaseSettings):
    """Every setting can be given as an environment variable, e.g. RISIKO_DATA_DIR=/var/risiko."""

    model_config = SettingsConfigDict(env_prefix="RISIKO_", extra="ignore")

    @model_validator(mode="after")
    def _metrics_token(self) -> Settings:
        if self.metrics is MetricsMode.TOKEN and not self.metrics_token:
            raise ValueError(
                "RISIKO_METRICS=token needs RISIKO_METRICS_TOKEN (16 characters or more)"
            )
        return self

    @field_validator("cors_origins")
    @classmethod
    def _origins(cls, value: str) -> str:
        origin_pattern(value)  # a clear error at start rather than pages refused later
        return value

    host: str = Field("127.0.0.1", description="address the server listens on")
    port: int = Field(8000, ge=0, le=65535, description="port the server listens on")
    workers: int = Field(
        1, ge=1, le=64, description="server processes sharing the port and the store"
    )
    store: str | None = Field(
        None,
        description="a MongoDB connection string (mongodb://…) for the MongoDB store; "
        "unset: the embedded store in data_dir",
    )
    mongodb_write_concern: str = Field(
        "majority", description="MongoDB write concern: majority (production), or a number"
    )
    data_dir: Path = Field(Path("data"), description="folder of the embedded store (SQLite)")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="largest request body accepted")
    max_query_depth: int = Field(12, ge=2, description="deepest GraphQL selection accepted")
    max_aliases: int = Field(30, ge=1, description="most aliases in one GraphQL document")
    max_tokens: int = Field(3000, ge=100, description="most tokens in one GraphQL document")
    max_cost: int = Field(
        50_000,
        ge=100,
        description="most cost points in one GraphQL document (a field 1, lists once per item)",
    )
    budget_points: int = Field(
        500_000,
        ge=0,
        description="each client's budget of cost points (per token, else per address); 0: off",
    )
    budget_refill_per_second: float = Field(
        25_000, gt=0, description="cost points each client's budget gets back each second"
    )
    max_unstarted_games_per_client: int = Field(
        50, ge=0, description="games one client (seat, else address) may have not started; 0: any"
    )
    unstarted_game_ttl_seconds: float = Field(
        86_400,
        ge=0,
        description="a game not started is abandoned this long after its last change; 0: never",
    )
    max_connections: int = Field(
        2000, ge=0, description="open sockets (HTTP and WebSocket) in all; 0: no cap"
    )
    max_connections_per_address: int = Field(
        200, ge=0, description="open sockets from one address; 0: no cap"
    )
    header_timeout_seconds: float = Field(
        10, gt=0, description="time for a request's headers to arrive, from its first byte"
    )
    body_timeout_seconds: float = Field(30, gt=0, description="time for a request's body to arrive")
    stalled_reader_timeout_seconds: float = Field(
        10, gt=0, description="a WebSocket that reads nothing this long with its buffer full is cut"
    )
    connection_init_timeout_seconds: float = Field(
        10, gt=0, description="time for a WebSocket's connection_init to arrive"
    )
    credential_recheck_seconds: float = Field(
        2.0,
        gt=0,
        description="a socket holding an account's token judges it again at least this "
        "often (at once when this instance, or MongoDB's change stream, tells of a change)",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1",
        description="proxies whose X-Forwarded-For names the client (comma-separated, or *)",
    )
    cors_origins: str = Field(
        DEVELOPMENT_ORIGINS,
        description="origins of pages that may use the API (comma-separated; a port may be *; "
        "* alone: any); the default admits localhost on any port",
    )
    graphiql: bool = Field(True, description="serve GraphiQL in the browser at /graphql")
    graphiql_assets_dir: Path = Field(
        default_factory=default_folder,
        description="folder of GraphiQL's files, served by this server; default: those the "
        "installed package carries, else ~/.cache/risiko/graphiql (risiko graphiql-assets "
        "fills it)",
    )
    web_client_dir: Path = Field(
        default_factory=lambda: BUILT,
        description="folder of the built web client (web/, built by `python3 dev.py run`)",
    )
    clock_interval_seconds: float = Field(
        1.0, gt=0, description="how often deadlines (turn clocks, time limits) are checked"
    )
    readiness_timeout_seconds: float = Field(
        2.0, gt=0, description="how long /readyz waits for the store before answering 503"
    )
    log_level: str = Field("info", description="uvicorn's log level")
    log_format: LogFormat = Field(
        LogFormat.TEXT, description="text, or json: one JSON object a line, with the request id"
    )
    metrics: MetricsMode = Field(
        MetricsMode.OFF,
        description="Prometheus metrics at /metrics: off, on (to anyone), or token (to a "
        "scraper that sends RISIKO_METRICS_TOKEN as a bearer token)",
    )
    metrics_token: str | None = Field(
        None, min_length=16, description="the bearer token /metrics asks for with metrics=token"
    )
    persisted_queries: PersistedQueryMode = Field(
        PersistedQueryMode.AUTO,
        description="persisted queries (Apollo's APQ): auto (any document, kept by hash), "
        "trusted (only the trusted documents run), off",
    )
    trusted_documents: str = Field(
        "",
        description="files of trusted documents beyond the server's own clients' "
        "(comma-separated: Apollo's persisted query manifest, a JSON object or list of documents)",
    )
    persisted_query_max_documents: int = Field(
        10_000, ge=1, description="persisted queries kept in the store; past it the oldest go"
    )
    persisted_query_max_bytes: int = Field(
        16_384, ge=1, description="a longer document runs but is not kept as a persisted query"
    )

    @property
    def database(self) -> Path:
        return self.data_dir / "risiko.sqlite3"

    @property
    def trusted_document_files(self) -> list[Path]:
        return [Path(name.strip()) for name in self.trusted_documents.split(",") if name.strip()]
