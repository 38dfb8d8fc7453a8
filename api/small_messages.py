"""permessage-deflate that sends small messages as they are.

Browsers always offer permessage-deflate, and uvicorn compresses every message once it is
agreed. A game event's frame is a few hundred bytes, and compressing it was a fifth of the
server's work for each delivery to a subscriber (`benchmarks/suite.py --only subscriptions`,
`--ws-compression deflate` against `none`), to save a few hundred bytes. RFC 7692 (section 6)
lets an endpoint send any message uncompressed, by leaving RSV1 unset, and every client
decodes such a message as it is. Messages from `SMALL_MESSAGE` bytes up, such as a whole
game's state, are still compressed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

SMALL_MESSAGE = 512  # bytes


class SmallMessagesPlain(PerMessageDeflate):
    """Compresses a message only from `SMALL_MESSAGE` bytes up."""

    def encode(self, frame: Frame) -> Frame:
        # A whole message in one frame: fragments of one message must be all or none.
        whole = frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
        if whole and len(frame.data) < SMALL_MESSAGE:
            return frame
        return super().encode(frame)


class SmallMessagesPlainFactory(ServerPerMessageDeflateFactory):
    """uvicorn's permessage-deflate offer, answered with `SmallMessagesPlain`."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, SmallMessagesPlain(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            self.compress_settings,
        )


def small_messages_plain(extensions: Sequence[Any]) -> list[Any]:
    """uvicorn's server extensions, with its permessage-deflate factory's settings kept."""
    return [
        SmallMessagesPlainFactory(
            server_no_context_takeover=factory.server_no_context_takeover,
            client_no_context_takeover=factory.client_no_context_takeover,
            server_max_window_bits=factory.server_max_window_bits,
            client_max_window_bits=factory.client_max_window_bits,
            compress_settings=factory.compress_settings,
            require_client_max_window_bits=factory.require_client_max_window_bits,
        )
        if type(factory) is ServerPerMessageDeflateFactory
        else factory
        for factory in extensions
    ]
