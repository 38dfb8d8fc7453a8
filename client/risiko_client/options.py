"""A game's options as a command line gives them: `--option NAME=VALUE`, for
`risiko simulate` and the arena alike."""

from __future__ import annotations

import argparse
import json
from typing import Any


def option_argument(text: str) -> tuple[str, Any]:
    """NAME=VALUE, the value in JSON when it reads as JSON, else the text itself (an
    argparse `type`)."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: give NAME=VALUE")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value
