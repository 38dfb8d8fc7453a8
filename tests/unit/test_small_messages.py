"""Small messages go uncompressed under permessage-deflate, and a client decodes them all."""

from __future__ import annotations

import json

from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode

from api.small_messages import (
    SMALL_MESSAGE,
    SmallMessagesPlain,
    SmallMessagesPlainFactory,
    small_messages_plain,
)


def agreed_pair() -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's and the client's extension, as a browser's offer would agree them."""
    client_factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    offer = client_factory.get_request_params()
    server_factory = small_messages_plain(
        [ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12)]
    )[0]
    answer, server = server_factory.process_request_params(offer, [])
    client = client_factory.process_response_params(answer, [])
    assert isinstance(server, SmallMessagesPlain)
    return server, client


def event(size: int) -> bytes:
    text = json.dumps({"id": "1", "type": "next", "payload": {"data": {"pad": "x" * size}}})
    return text.encode()


def test_a_small_message_goes_as_it_is_and_a_large_one_compressed() -> None:
    server, _ = agreed_pair()
    small = Frame(Opcode.TEXT, event(100))
    sent = server.encode(small)
    assert not sent.rsv1
    assert sent.data == small.data
    large = Frame(Opcode.TEXT, event(SMALL_MESSAGE * 2))
    sent = server.encode(large)
    assert sent.rsv1
    assert len(sent.data) < len(large.data)


def test_a_client_decodes_plain_and_compressed_messages_in_any_order() -> None:
    """Context takeover: the compressed messages around a plain one still decode."""
    server, client = agreed_pair()
    messages = [event(SMALL_MESSAGE * 3), event(50), event(SMALL_MESSAGE * 3), event(10)]
    messages += [event(n) for n in range(0, 2 * SMALL_MESSAGE, 97)]
    for data in messages:
        received = client.decode(server.encode(Frame(Opcode.TEXT, data)))
        assert received.data == data


def test_fragments_of_one_message_are_compressed_alike() -> None:
    server, client = agreed_pair()
    first = server.encode(Frame(Opcode.TEXT, b'{"a":', fin=False))
    last = server.encode(Frame(Opcode.CONT, b"1}"))
    assert first.rsv1  # the message is compressed: its first frame says so
    assert bytes(client.decode(first).data) + bytes(client.decode(last).data) == b'{"a":1}'


def test_other_extension_factories_are_kept() -> None:
    other = object()
    assert small_messages_plain([other]) == [other]
    factory = small_messages_plain([ServerPerMessageDeflateFactory(server_max_window_bits=11)])[0]
    assert isinstance(factory, SmallMessagesPlainFactory)
    assert factory.server_max_window_bits == 11
