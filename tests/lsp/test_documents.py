"""Position conversion between LSP's encodings and the engine's UTF-8 byte columns, without a server."""

from __future__ import annotations

import pytest
from lsprotocol import types

from optiml_engine.model import Location, Position
from server.documents import OpenDocument, PositionCodec

LINE = "    x = 1; // é😀 y"   # é: 2 UTF-8 bytes, 1 UTF-16 unit; 😀: 4 bytes, 2 units (a surrogate pair)


@pytest.mark.parametrize("encoding, units, bytes_", [
    (types.PositionEncodingKind.Utf16, 14, 14),   # before é
    (types.PositionEncodingKind.Utf16, 15, 16),   # after é
    (types.PositionEncodingKind.Utf16, 17, 20),   # after 😀
    (types.PositionEncodingKind.Utf16, 16, 16),   # inside 😀's pair: its start
    (types.PositionEncodingKind.Utf32, 16, 20),
    (types.PositionEncodingKind.Utf8, 20, 20),
    (types.PositionEncodingKind.Utf8, 18, 16),    # inside 😀's bytes: its start
    (types.PositionEncodingKind.Utf16, 99, len(LINE.encode())),   # past the end: the end
])
def test_lsp_columns_to_utf8_bytes(encoding, units, bytes_):
    assert PositionCodec(encoding).to_engine(LINE, types.Position(line=3, character=units)) == Position(line=3,
                                                                                                         column=bytes_)


def test_utf8_bytes_and_character_columns_to_utf16():
    codec = PositionCodec(types.PositionEncodingKind.Utf16)
    assert codec.from_engine(LINE, Position(line=0, column=20)) == types.Position(line=0, character=17)
    assert codec.from_location(LINE, Location(file="f.cu", line=1, column=17)) == types.Position(line=0,
                                                                                                  character=17)


def test_incremental_changes_after_non_ascii_text():
    document = OpenDocument("file:///tmp/k.cu", 1, f"{LINE}\nint z;\n", PositionCodec(types.PositionEncodingKind.Utf16))
    document.apply(types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=0, character=17), end=types.Position(line=1, character=3)),
        text="!"))
    assert document.cuda.text == "    x = 1; // é😀! z;\n"
    assert document.location_range(Location(file="f.cu", line=1, column=17)) == types.Range(   # the `!`
        start=types.Position(line=0, character=17), end=types.Position(line=0, character=18))
