"""Document sync: one CudaDocument per open .cu/.cuh file, kept current by the editor's incremental changes.

The engine counts columns in UTF-8 bytes (Position, Span) or in characters (Location, 1-based); LSP counts them in
the position encoding negotiated at `initialize`, UTF-16 code units unless the client offers another. Every
conversion between the two goes through `PositionCodec`, against the text of the line it is on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePath

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from optiml_engine.model import Kernel, Location, Position, Span
from optiml_engine.source.parse import CudaDocument

CUDA_LANGUAGE_ID = "cuda-cpp"
CUDA_SUFFIXES = (".cu", ".cuh")
CONTRACT_MARKER = "@optiml"

# What a located error marks: the identifier, number or single character at its column.
_TOKEN = re.compile(r"\w+|\S")


class PositionCodec:
    """LSP positions (in the negotiated encoding) to and from the engine's, given the line's text."""

    def __init__(self, encoding: types.PositionEncodingKind | str):
        self.encoding = encoding

    def characters(self, line: str, units: int) -> int:
        """How many characters of `line` the first `units` LSP code units cover (a unit inside a character rounds
        down to its start)."""
        if self.encoding == types.PositionEncodingKind.Utf32 or line.isascii():
            return min(units, len(line))
        if self.encoding == types.PositionEncodingKind.Utf8:
            return len(line.encode()[:units].decode(errors="ignore"))
        counted = 0
        for index, character in enumerate(line):
            counted += 2 if ord(character) > 0xFFFF else 1   # outside the BMP: a surrogate pair
            if counted > units:
                return index
        return len(line)

    def units(self, text: str) -> int:
        """The length of `text` in LSP code units."""
        if self.encoding == types.PositionEncodingKind.Utf32 or text.isascii():
            return len(text)
        if self.encoding == types.PositionEncodingKind.Utf8:
            return len(text.encode())
        return len(text.encode("utf-16-le")) // 2

    def to_engine(self, line: str, position: types.Position) -> Position:
        return Position(line=position.line, column=len(line[:self.characters(line, position.character)].encode()))

    def from_engine(self, line: str, position: Position) -> types.Position:
        prefix = line.encode()[:position.column].decode(errors="ignore")
        return types.Position(line=position.line, character=self.units(prefix))

    def from_location(self, line: str, location: Location) -> types.Position:
        return types.Position(line=location.line - 1, character=self.units(line[:location.column - 1]))


class OpenDocument:
    """An open CUDA file: its URI, the path the engine names in locations, the editor's version and the model."""

    def __init__(self, uri: str, version: int, text: str, codec: PositionCodec):
        self.uri = uri
        self.path = to_fs_path(uri) or uri   # an unsaved buffer has no path: its URI names it
        self.version = version
        self.codec = codec
        self.cuda = CudaDocument(text, self.path)
        self._lines: list[str] | None = None   # of the current text, split when first asked for

    def line(self, number: int) -> str:
        if self._lines is None:
            self._lines = self.cuda.text.split("\n")
        return self._lines[number] if 0 <= number < len(self._lines) else ""

    def apply(self, change: types.TextDocumentContentChangeEvent) -> None:
        if isinstance(change, types.TextDocumentContentChangeWholeDocument):
            self.cuda = CudaDocument(change.text, self.path)
        else:
            start, end = change.range.start, change.range.end
            self.cuda.apply_change(self.codec.to_engine(self.line(start.line), start),
                                   self.codec.to_engine(self.line(end.line), end), change.text)
        self._lines = None

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.codec.from_engine(self.line(span.start.line), span.start),
                           end=self.codec.from_engine(self.line(span.end.line), span.end))

    def whole_range(self) -> types.Range:
        last = self.cuda.text.count("\n")
        return types.Range(start=types.Position(line=0, character=0),
                           end=types.Position(line=last, character=self.codec.units(self.line(last))))

    def location_range(self, location: Location) -> types.Range:
        """The token a located error points at (an empty range at the end of a line)."""
        line = self.line(location.line - 1)
        start = self.codec.from_location(line, location)
        token = _TOKEN.match(line, location.column - 1)
        end = start if token is None else types.Position(line=start.line,
                                                         character=start.character + self.codec.units(token[0]))
        return types.Range(start=start, end=end)

    def engine_position(self, position: types.Position) -> Position:
        return self.codec.to_engine(self.line(position.line), position)

    def kernel_at(self, position: types.Position, name_only: bool = False) -> Kernel | None:
        """The kernel whose definition (its comment block included) holds `position`; with `name_only`, the kernel
        whose name does."""
        at = self.engine_position(position)
        for kernel in self.cuda.model.kernels:
            if name_only:
                start, end = kernel.name_span.start, kernel.name_span.end
            else:
                start = (kernel.comment.span if kernel.comment else kernel.span).start
                end = kernel.span.end
            if (start.line, start.column) <= (at.line, at.column) <= (end.line, end.column):
                return kernel
        return None


def has_contract(kernel: Kernel) -> bool:
    """Whether the comment block above the kernel is an @optiml contract (valid or not)."""
    return kernel.comment is not None and CONTRACT_MARKER in kernel.comment.text


def is_cuda(document: types.TextDocumentItem) -> bool:
    return document.language_id == CUDA_LANGUAGE_ID or PurePath(document.uri).suffix in CUDA_SUFFIXES


class Documents:
    """The open CUDA documents, by URI; tells its listeners when one opened, changed or closed."""

    def __init__(self, server: LanguageServer):
        self._server = server
        self._open: dict[str, OpenDocument] = {}
        self.on_update: list[Callable[[OpenDocument], None]] = []
        self.on_close: list[Callable[[str], None]] = []

    def get(self, uri: str) -> OpenDocument | None:
        return self._open.get(uri)

    def find_path(self, path: str) -> OpenDocument | None:
        """The open document at `path`. A relative path (as another machine's `optiml optimize` was given it)
        names the one open document whose path ends with it; None when none or several do."""
        wanted = PurePath(path)
        if wanted.is_absolute():
            found = [document for document in self._open.values() if PurePath(document.path) == wanted]
        else:
            found = [document for document in self._open.values()
                     if PurePath(document.path).parts[-len(wanted.parts):] == wanted.parts]
        return found[0] if len(found) == 1 else None

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        if not is_cuda(item):
            return
        codec = PositionCodec(self._server.workspace.position_encoding)
        document = self._open[item.uri] = OpenDocument(item.uri, item.version, item.text, codec)
        self._updated(document)

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        document = self._open.get(params.text_document.uri)
        if document is None:
            return
        for change in params.content_changes:
            document.apply(change)
        document.version = params.text_document.version
        self._updated(document)

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        if self._open.pop(params.text_document.uri, None) is not None:
            for listener in self.on_close:
                listener(params.text_document.uri)

    def _updated(self, document: OpenDocument) -> None:
        for listener in self.on_update:
            listener(document)
