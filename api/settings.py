"""Settings, from the environment (prefix RISIKO_) and the command line's flags."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting can be given as an environment variable, e.g. RISIKO_DATA_DIR=/var/risiko."""

    model_config = SettingsConfigDict(env_prefix="RISIKO_", extra="ignore")

    host: str = Field("127.0.0.1", description="address the server listens on")
    port: int = Field(8000, ge=0, le=65535, description="port the server listens on")
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
    graphiql: bool = Field(True, description="serve GraphiQL in the browser at /graphql")
    clock_interval_seconds: float = Field(
        1.0, gt=0, description="how often tournament time limits are checked"
    )
    readiness_timeout_seconds: float = Field(
        2.0, gt=0, description="how long /readyz waits for the store before answering 503"
    )
    log_level: str = Field("info", description="uvicorn's log level")

    @property
    def database(self) -> Path:
        return self.data_dir / "risiko.sqlite3"
