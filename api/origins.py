"""Which web pages on other origins may use the API: CORS for HTTP, the Origin check for
WebSockets (browsers apply no CORS to them), from one setting.

`RISIKO_CORS_ORIGINS` is a comma-separated list of origins (`https://risiko.example`); a
port may be `*` (`http://localhost:*`), and `*` alone admits every origin. The default admits
pages served from this machine on any port (`localhost`, `127.0.0.1`, `[::1]`), where front
ends are developed. The API authenticates with bearer tokens, never cookies, so an admitted
page gains nothing a script could not do from anywhere; production lists its own origins.
"""

from __future__ import annotations

import re

DEVELOPMENT_ORIGINS = "http://localhost:*,http://127.0.0.1:*,http://[::1]:*"


def origin_pattern(setting: str) -> re.Pattern[str] | None:
    """The origins of `setting` as one regular expression (None: no page is admitted)."""
    origins = [origin.strip().rstrip("/") for origin in setting.split(",") if origin.strip()]
    if not origins:
        return None
    if "*" in origins:
        return re.compile(r".*")
    alternatives = []
    for origin in origins:
        if "://" not in origin:
            raise ValueError(f"{origin!r} is not an origin such as https://risiko.example")
        if origin.endswith(":*"):
            alternatives.append(re.escape(origin[:-2]) + r"(?::\d{1,5})?")
        else:
            alternatives.append(re.escape(origin))
    return re.compile("|".join(f"(?:{alternative})" for alternative in alternatives))


def admits(pattern: re.Pattern[str] | None, origin: str) -> bool:
    return pattern is not None and pattern.fullmatch(origin.lower()) is not None
