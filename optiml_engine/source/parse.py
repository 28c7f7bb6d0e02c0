"""The CUDA source model, on tree-sitter-cuda.

`CudaDocument` holds one file's syntax tree, re-parses it incrementally as the editor changes it, and derives from it
the `SourceModel` (kernels, launch sites, device items, syntax problems), per kernel the `CompileUnit` (the kernel
plus the device items it needs, with `#line` directives back into the user's file) and the kernel's contract.

Coordinates:
- `Position` and `Span`: 0-based line, column counted in UTF-8 bytes of the line (tree-sitter's own points). The LSP
  layer converts to and from UTF-16 columns.
- `Location` (syntax problems, errors): 1-based line and 1-based column counted in characters, as editors print them.

Comment block of a kernel: the comments directly above its definition (above `template<...>` and `extern "C"` when
present). Blank lines may stand between the block and the kernel; the comments of the block must be contiguous with
each other (a blank line between two comments ends the block), and a comment trailing code on its line belongs to that
code, not to the kernel.

Identifier uses: the names an item uses are read from its text with a small lexer (comments, string and number
literals and keywords skipped), not from the tree's identifier nodes: a tree-sitter query for every identifier of a
5,000-line file takes about 11 ms, a third of the editor's budget, the lexer about 4 ms; the item boundaries still come
from the tree.

Edits: the model is built per child of the tree's root (a `_Part`: its items, kernels and device items), and after an
edit only the parts whose bytes the edit or tree-sitter's changed ranges touch are built again; the others are taken
over, moved by the edit's byte, line and column delta. A keystroke costs the parts it touches, not the file.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator, Mapping, Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property

import tree_sitter_cuda
from tree_sitter import Language, Node, Parser, Point, Tree

from optiml_engine.model import (
    CompileUnit,
    Contract,
    DeviceItem,
    Kernel,
    LaunchSite,
    Location,
    OptimlError,
    Position,
    SourceModel,
    Span,
    SyntaxProblem,
    TemplateParam,
)
from optiml_engine.source.contract import ContractCache

_LANGUAGE = Language(tree_sitter_cuda.language())

# Angle-bracket or quoted, only these headers reach a compile unit: NVRTC resolves them for device code (given the
# CUDA include directory; the C math, limit and integer headers through gpu/nvrtc_prelude.h). Other host headers
# (stdio.h, cuda_runtime.h, vector, ...) are left out, as are the user's own headers: NVRTC pre-includes the
# runtime's device API, and a compile unit holds only what this file defines.
_DEVICE_HEADER = re.compile(
    r"cuda_(fp16|bf16|fp8|fp6|fp4)\.h(pp)?|mma\.h|cooperative_groups(\.h|/.+)|cuda/.+"
    r"|cuda_pipeline\w*\.h|cuda_awbarrier\w*\.h|math_constants\.h"
    r"|cmath|math\.h|cfloat|float\.h|climits|limits\.h|cstdint|stdint\.h"   # NVRTC: gpu/nvrtc_prelude.h
)

# Each match skips what is no identifier (space, punctuation, comments, string and number literals, preprocessor
# directive names) and captures the identifier after it, or nothing at the end of the text. The skipping is
# possessive: a token, once read, is never split again, so no identifier is found inside a comment or a literal. A
# lone `/`, `.` or `#` is skipped one character at a time. Runs of punctuation and space come first because they are
# most of what is skipped.
_IDENTIFIERS = re.compile(
    rb"(?:"
    rb"[^\w/\"'#.]+"                   # space and punctuation
    rb"|//[^\n]*"                       # line comment
    rb"|(?>/\*.*?(?:\*/|\Z))"           # block comment
    rb"|\"(?:\\.|[^\"\\\n])*+\"?"       # string literal
    rb"|'(?:\\.|[^'\\\n])*+'?"          # character literal
    rb"|\.?\d[\w.']*"                   # number literal, suffixes and digit separators included
    rb"|\#\s*+[A-Za-z_]\w*"             # preprocessor directive name
    rb"|[/.#]"                          # none of the above
    rb")*+"
    rb"(?:([A-Za-z_]\w*)|\Z)",
    re.DOTALL,
)

# Words the lexer finds that name nothing a device item could define.
_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
    compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default
    delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long
    mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
    reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template this
    thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor
    xor_eq defined __VA_ARGS__ restrict __restrict __restrict__ __global__ __device__ __host__ __shared__ __constant__
    __managed__ __forceinline__ __noinline__ __launch_bounds__ __grid_constant__""".split()
)

_RESTRICT = frozenset({"__restrict__", "restrict", "ms_restrict_modifier"})   # `__restrict` is the last one
_DEVICE_VARIABLE_QUALIFIERS = frozenset({"__device__", "__constant__", "__shared__", "__managed__"})
_TYPE_SPECIFIERS = frozenset({"struct_specifier", "class_specifier", "union_specifier", "enum_specifier"})
_TYPE_DEFINITIONS = _TYPE_SPECIFIERS | {"type_definition", "alias_declaration"}
_CONDITIONALS = frozenset({"preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef", "preproc_else"})

# Item kinds beyond DeviceItemKind, for what the model leaves out and a compile unit never holds.
_HOST = "host"
_COMMENT = "comment"
_ERROR = "error"
_LINKAGE = "linkage"      # extern "C" { ... }: a container that is no scope; its items count as top-level
_ROOT = "root"
_NOT_DEVICE = frozenset({_HOST, _COMMENT, _ERROR})
_CONTAINERS = frozenset({"namespace", "conditional", _LINKAGE, _ROOT})

_LAUNCH = b"<<<"
_NOT_KNOWN = object()
_NO_NAMES: frozenset[str] = frozenset()


@dataclass(eq=False, slots=True)
class _Item:
    """A top-level item, or an item of a namespace, linkage block or preprocessor conditional (a container).

    A container's `uses` are its own (the conditions of `#if`/`#elif`, the namespace name); its children's are theirs.
    Items hold no nodes, only where they are, so that an outline of an edited tree can take them over, moved.
    """

    kind: str
    start_byte: int
    end_byte: int             # with its `;` when that is a sibling of its node (`struct S {...};`)
    start_point: Point
    end_point: Point
    defines: list[str]
    uses: AbstractSet[str]    # not changed once the item is built
    children: tuple[_Item, ...] = ()
    scope: str | None = None  # a namespace's name as written: `a` or `a::b`

    @classmethod
    def of(cls, kind: str, node: Node, defines: list[str], uses: AbstractSet[str]) -> _Item:
        return cls(kind, node.start_byte, node.end_byte, node.start_point, node.end_point, defines, uses)

    @property
    def span_fields(self) -> dict:
        return _span_fields(self.start_byte, self.end_byte, self.start_point, self.end_point)

    @property
    def is_container(self) -> bool:
        return self.kind in _CONTAINERS

    @property
    def is_device(self) -> bool:
        if self.is_container:
            return any(child.is_device for child in self.children)
        return self.kind not in _NOT_DEVICE

    def device_leaves(self) -> Iterator[_Item]:
        for child in self.children:
            if child.is_container:
                yield from child.device_leaves()
            elif child.is_device:
                yield child

    def moved(self, shift: _Shift) -> _Item:
        return _Item(self.kind, shift.byte(self.start_byte), shift.byte(self.end_byte), shift.point(self.start_point),
                     shift.point(self.end_point), self.defines, self.uses,
                     tuple(child.moved(shift) for child in self.children), self.scope)


@dataclass(eq=False, slots=True)
class _Part:
    """A child of the tree's root and what the model takes from it.

    What it holds depends on the bytes from `reads_start` to `reads_end` only: its node, the comments above it and the
    node before them (a kernel's comment block), and the node after it (the `;` of `struct S {...};`).
    """

    type: str                 # its node's
    start_byte: int
    end_byte: int
    reads_start: int
    reads_end: int
    item: _Item
    kernels: tuple[Kernel, ...]           # most parts have none: tuples share the empty one
    device_items: tuple[DeviceItem, ...]

    def moved(self, shift: _Shift) -> _Part:
        return _Part(self.type, shift.byte(self.start_byte), shift.byte(self.end_byte), shift.byte(self.reads_start),
                     shift.byte(self.reads_end), self.item.moved(shift), tuple(map(shift.kernel, self.kernels)),
                     tuple(map(shift.device_item, self.device_items)))


class CudaDocument:
    """One .cu file: its text, syntax tree and (lazily) its source model and its kernels' contracts."""

    def __init__(self, text: str, path: str):
        self.path = path
        self._parser = Parser(_LANGUAGE)
        self._source = text.encode()
        self._tree = self._parser.parse(self._source)
        self._text: str | None = text
        self._edited_line = (0, 0)                # (line, where it starts) of the last edit's start
        self._outline: _Outline | None = None   # of the current source, or of an older one when `_changed` is set
        self._changed: _Changed | None = None   # where the current source differs from the outline's
        self._contracts = ContractCache(path)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._source.decode()
        return self._text

    @property
    def model(self) -> SourceModel:
        return self._current_outline().model

    @property
    def tree(self) -> Tree:
        """The current syntax tree (read it, do not edit it: edits go through apply_change)."""
        return self._tree

    def apply_change(self, start: Position, end: Position, new_text: str) -> None:
        """Replace the text between `start` and `end` (0-based lines, UTF-8 byte columns) and re-parse incrementally.

        Positions past the end of a line or of the document are clamped to it, as LSP asks; a column inside a
        character moves to the character's start.
        """
        start_line_start = self._line_start(start.line)
        start_byte = self._byte_offset(start)
        old_end_byte = max(start_byte, self._byte_offset(end))
        inserted = new_text.encode()
        new_end_byte = start_byte + len(inserted)
        start_point = _point_at(self._source, start_byte)
        old_end_point = _point_at(self._source, old_end_byte)
        inserted_lines = inserted.count(b"\n")
        if inserted_lines:
            new_end_point = Point(start_point.row + inserted_lines, len(inserted) - inserted.rfind(b"\n") - 1)
        else:
            new_end_point = Point(start_point.row, start_point.column + len(inserted))

        self._source = self._source[:start_byte] + inserted + self._source[old_end_byte:]
        old_tree = self._tree
        old_tree.edit(
            start_byte=start_byte,
            old_end_byte=old_end_byte,
            new_end_byte=new_end_byte,
            start_point=start_point,
            old_end_point=old_end_point,
            new_end_point=new_end_point,
        )
        self._tree = self._parser.parse(self._source, old_tree)
        self._text = None
        # the edit starts on or after the start of its first line: where that line starts has not moved
        self._edited_line = (0, 0) if start_line_start is None else (start.line, start_line_start)
        if self._outline is not None:
            changed = _Changed.edit(self._changed, start_byte, old_end_byte, new_end_byte)
            # the parse may re-shape nodes beyond the edited bytes (an unclosed `/*` swallows what follows)
            for reshaped in old_tree.changed_ranges(self._tree):
                changed = changed.covering(reshaped.start_byte, reshaped.end_byte)
            self._changed = changed

    def compile_unit(self, kernel_name: str, template: Mapping[str, str]) -> CompileUnit:
        """The kernel and the device items it needs, transitively, in file order, each preceded by a `#line`.

        `template` instantiates a template kernel: a value for every template parameter without a default.
        """
        return self._current_outline().compile_unit(kernel_name, template)

    def contract(self, kernel_name: str) -> Contract:
        """`parse_contract` of the named kernel, or the OptimlError it raises. Kept across edits: a kernel whose
        comment block and signature an edit leaves alone is not parsed again, only moved with its lines."""
        return self._contracts.contract(self._current_outline().kernel(kernel_name))

    def _current_outline(self) -> _Outline:
        if self._outline is None or self._changed is not None:
            with _collection_paused():
                self._outline = _Outline(self._source, self._tree, self.path, self._outline, self._changed)
            self._changed = None
        return self._outline

    def _byte_offset(self, position: Position) -> int:
        source = self._source
        line_start = self._line_start(position.line)
        if line_start is None:
            return len(source)
        line_end = source.find(b"\n", line_start)
        if line_end < 0:
            line_end = len(source)
        offset = min(line_start + position.column, line_end)
        while line_start < offset < line_end and source[offset] & 0xC0 == 0x80:   # a UTF-8 continuation byte
            offset -= 1
        return offset

    def _line_start(self, line: int) -> int | None:
        """Where `line` starts in the source; None past its last line. Counted from the line where the last edit
        started when `line` is not above it: edits come in runs at one place, and counting a line is a Python step."""
        known_line, line_start = self._edited_line
        if line < known_line:
            known_line, line_start = 0, 0
        for _ in range(line - known_line):
            newline = self._source.find(b"\n", line_start)
            if newline < 0:
                return None
            line_start = newline + 1
        return line_start


def parse_source(text: str, path: str) -> SourceModel:
    """The source model of one file's text; `path` is what locations name."""
    return CudaDocument(text, path).model


@contextmanager
def _collection_paused() -> Iterator[None]:
    """A model of a large file is some ten thousand small objects, none of them garbage yet: the collections their
    allocation triggers free nothing and cost about a tenth of the build."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# ---------------------------------------------------------------------------------------------------------------
# Edits


@dataclass(frozen=True)
class _Changed:
    """Where the current source differs from an older one: bytes before `start` are the same, [start, old_end) of the
    old source became [start, new_end) of the current one, and the bytes after moved by new_end - old_end."""

    start: int
    old_end: int
    new_end: int

    @staticmethod
    def edit(changed: _Changed | None, start: int, old_end: int, new_end: int) -> _Changed:
        """`changed`, then the current source's [start, old_end) replaced by new_end - start bytes."""
        if changed is None:
            return _Changed(start, old_end, new_end)
        if changed.new_end <= start:
            end = changed.new_end
        elif changed.new_end >= old_end:
            end = changed.new_end + new_end - old_end
        else:
            end = new_end   # the earlier change ends inside the replaced bytes
        end = max(end, new_end)
        delta = changed.new_end - changed.old_end + new_end - old_end
        return _Changed(min(changed.start, start), end - delta, end)

    def covering(self, start: int, end: int) -> _Changed:
        """Also the current source's [start, end)."""
        if start >= self.start and end <= self.new_end:
            return self
        grown = max(end, self.new_end) - self.new_end
        return _Changed(min(self.start, start), self.old_end + grown, self.new_end + grown)


@dataclass(frozen=True)
class _Shift:
    """How a position after a change moves: bytes by `bytes`, lines by new_row - old_row; on the change's last line
    (`old_row` before, `new_row` after) columns move from after `old_column` to after `new_column`."""

    bytes: int
    old_row: int
    old_column: int
    new_row: int
    new_column: int

    def byte(self, byte: int) -> int:
        return byte + self.bytes

    def point(self, point: Point) -> Point:
        if point.row == self.old_row:
            return Point(self.new_row, point.column - self.old_column + self.new_column)
        return Point(point.row + self.new_row - self.old_row, point.column)

    def span(self, span: Span) -> dict:
        """The fields of `span` moved (models are made from fields in one validation each, see _span_fields)."""
        return {"start_byte": span.start_byte + self.bytes, "end_byte": span.end_byte + self.bytes,
                "start": self._position(span.start), "end": self._position(span.end)}

    def _position(self, position: Position) -> Position | dict:
        """The position moved: itself when it keeps its line and column (all but the change's last line when the
        change keeps the line count), the fields of a new one otherwise."""
        line = position.line
        if line == self.old_row:
            return {"line": self.new_row, "column": position.column - self.old_column + self.new_column}
        if self.new_row == self.old_row:
            return position
        return {"line": line + self.new_row - self.old_row, "column": position.column}

    def kernel(self, kernel: Kernel) -> Kernel:
        comment = kernel.comment
        return Kernel.model_validate({
            "name": kernel.name,
            "params": [{"name": p.name, "type_text": p.type_text, "base_type": p.base_type, "is_pointer": p.is_pointer,
                        "is_const": p.is_const, "is_restrict": p.is_restrict, "span": self.span(p.span)}
                       for p in kernel.params],
            "template_params": kernel.template_params,
            "launch_bounds": kernel.launch_bounds,
            "span": self.span(kernel.span),
            "name_span": self.span(kernel.name_span),
            "body_span": self.span(kernel.body_span),
            "comment": None if comment is None else {"text": comment.text, "span": self.span(comment.span)},
        })

    def launch_site(self, site: LaunchSite) -> LaunchSite:
        return LaunchSite.model_validate({
            "kernel": site.kernel, "template_args": site.template_args, "grid": site.grid, "block": site.block,
            "smem": site.smem, "stream": site.stream, "args": site.args, "span": self.span(site.span),
            "in_function": site.in_function,
        })

    def device_item(self, item: DeviceItem) -> DeviceItem:
        return DeviceItem.model_validate(
            {"kind": item.kind, "defines": item.defines, "uses": item.uses, "span": self.span(item.span)})


class _Reuse:
    """What an outline of an edited tree takes over from the outline before the edit."""

    def __init__(self, previous: _Outline, changed: _Changed, source: bytes):
        self._changed = changed
        self._delta = changed.new_end - changed.old_end
        old_end = _point_at(previous.source, changed.old_end)
        new_end = _point_at(source, changed.new_end)
        self._shift = _Shift(self._delta, old_end.row, old_end.column, new_end.row, new_end.column)
        self._moves = self._delta != 0 or old_end != new_end
        self._parts = {part.start_byte: part for part in previous.parts}
        self._sites = previous.sites
        self._taken: list[tuple[int, int, bool]] = []   # (start, end, moved) of every part taken over, in order
        self._next_taken = 0

    def part(self, node: Node, reads_start: int, reads_end: int) -> _Part | None:
        """The previous outline's part for `node`, moved, when nothing it reads has changed."""
        if reads_end < self._changed.start:
            after = False
        elif reads_start > self._changed.new_end:
            after = True
        else:
            return None
        delta = self._delta if after else 0
        part = self._parts.get(node.start_byte - delta)
        if (part is None or part.type != node.type or part.end_byte + delta != node.end_byte
                or part.reads_start + delta != reads_start or part.reads_end + delta != reads_end):
            return None
        moved = after and self._moves
        self._taken.append((node.start_byte, node.end_byte, moved))
        return part.moved(self._shift) if moved else part

    def launch_site(self, start: int) -> LaunchSite | None | object:
        """The previous outline's result for the launch token at `start` (a site, or None for no launch), when it
        lies in a part taken over; `_NOT_KNOWN` otherwise. Asked in file order."""
        taken = self._taken
        while self._next_taken < len(taken) and taken[self._next_taken][1] < start + len(_LAUNCH):
            self._next_taken += 1
        if self._next_taken == len(taken) or taken[self._next_taken][0] > start:
            return _NOT_KNOWN
        moved = taken[self._next_taken][2]
        site = self._sites.get(start - self._delta if start > self._changed.new_end else start, _NOT_KNOWN)
        if moved and isinstance(site, LaunchSite):
            return self._shift.launch_site(site)
        return site


# ---------------------------------------------------------------------------------------------------------------
# The outline: parts, kernels, launch sites and problems of one tree


class _Outline:
    """Everything derived from one version of the tree: the source model and what compile units are cut from.

    Built from scratch, or from the outline of the tree before an edit (`previous`, with `changed` saying where the
    sources differ), taking over the parts and launch sites the edit leaves alone.
    """

    def __init__(self, source: bytes, tree: Tree, path: str, previous: _Outline | None = None,
                 changed: _Changed | None = None):
        self.source = source
        self._path = path
        self._builder = _Builder(source, path)
        reuse = None if previous is None or changed is None else _Reuse(previous, changed, source)
        root = tree.root_node

        self.parts: list[_Part] = []
        children = root.children
        reads_start = 0   # the start of the last named node that is no comment: a kernel's comment block reads it
        for index, node in enumerate(children):
            if not node.is_named:
                continue
            follower = children[index + 1] if index + 1 < len(children) else None
            reads_end = node.end_byte if follower is None else follower.end_byte
            part = None if reuse is None else reuse.part(node, reads_start, reads_end)
            self.parts.append(part or self._builder.part(node, follower, reads_start, reads_end))
            if node.type != "comment":
                reads_start = node.start_byte

        self.sites: dict[int, LaunchSite | None] = {}   # by the start of each `<<<` of the source
        self.model = SourceModel(
            path=path,
            kernels=[kernel for part in self.parts for kernel in part.kernels],
            launch_sites=self._launch_sites(root, reuse),
            device_items=[item for part in self.parts for item in part.device_items],
            syntax_problems=self._builder.syntax_problems(root),
        )

    def _launch_sites(self, root: Node, reuse: _Reuse | None) -> list[LaunchSite]:
        sites = []
        start = self.source.find(_LAUNCH)
        while start >= 0:
            site = _NOT_KNOWN if reuse is None else reuse.launch_site(start)
            if site is _NOT_KNOWN:
                site = self._builder.launch_site(root, start)
            self.sites[start] = site
            if site is not None:
                sites.append(site)
            start = self.source.find(_LAUNCH, start + len(_LAUNCH))
        return sites

    def kernel(self, name: str) -> Kernel:
        kernel = self._kernels_by_name.get(name)
        if kernel is None:
            names = ", ".join(k.name for k in self.model.kernels) or "none in this file"
            raise OptimlError(Location(file=self._path, line=1), f"no kernel named '{name}'",
                              expected=f"one of: {names}")
        return kernel

    @cached_property
    def _kernels_by_name(self) -> dict[str, Kernel]:
        kernels: dict[str, Kernel] = {}
        for kernel in self.model.kernels:
            kernels.setdefault(kernel.name, kernel)
        return kernels

    # -- compile units --------------------------------------------------------------------------------------------

    def compile_unit(self, kernel_name: str, template: Mapping[str, str]) -> CompileUnit:
        kernel = self.kernel(kernel_name)
        item = self._index.kernel_items[kernel.span.start_byte]
        name_expression = self._name_expression(kernel, item, template)
        pieces = self._pieces(self._index.root, self._closure(item))
        return CompileUnit(
            path=self._path,
            kernel=kernel.name,
            name_expression=name_expression,
            text="".join(self._chunk(*piece) for piece in pieces),
        )

    @cached_property
    def _index(self) -> _Index:
        return _Index(self.parts)

    def _chunk(self, start: int, end: int, point: Point) -> str:
        """Source text under a `#line` that names the user's line where it starts. Blank lines around it are
        dropped and its first line is indented to its column, so that compilers' columns are the user's too."""
        text = self.source[start:end].decode()
        stripped = text.lstrip()
        leading = text[: len(text) - len(stripped)]
        newline = leading.rfind("\n")
        if newline < 0:
            row, column = point.row, point.column + len(leading)
        else:
            row, column = point.row + leading.count("\n"), len(leading) - newline - 1
        path = self._path.replace("\\", "\\\\").replace('"', '\\"')
        return f'#line {row + 1} "{path}"\n{" " * column}{stripped.rstrip()}\n'

    def _closure(self, kernel_item: _Item) -> set[_Item]:
        """The kernel, every device include, and every item defining a name the selection uses, transitively.

        Items that define nothing (`using namespace`, `#pragma`, `static_assert`...) join once every name they use
        that this file defines is in the selection; selecting an item selects its containers, whose conditions and
        names count as used.
        """
        index = self._index
        selected: set[_Item] = set()
        needed: set[str] = set()
        pending: list[str] = []

        def select(item: _Item | None) -> None:
            while item is not None and item not in selected:
                selected.add(item)
                pending.extend(item.uses)
                item = index.parents[item]

        select(kernel_item)
        for include in index.device_includes:
            select(include)
        while True:
            while pending:
                name = pending.pop()
                if name not in needed:
                    needed.add(name)
                    for definer in index.definers.get(name, ()):
                        select(definer)
            ready = [item for item in index.free_items
                     if item not in selected and not {n for n in item.uses if n in index.definers} - needed]
            if not ready:
                return selected
            for item in ready:
                select(item)

    def _pieces(self, container: _Item, selected: set[_Item]) -> Iterator[tuple[int, int, Point]]:
        """Byte ranges (with start points) to copy into a compile unit: the container's own text (not the file's:
        what lies between top-level items is whitespace or stray tokens) and its selected children."""
        for gap, child in zip(_gaps(container), [*container.children, None]):
            start, end, _ = gap
            if container.kind != _ROOT and self.source[start:end].strip():
                yield gap
            if child in selected:
                if child.is_container:
                    yield from self._pieces(child, selected)
                else:
                    yield child.start_byte, child.end_byte, child.start_point

    def _name_expression(self, kernel: Kernel, item: _Item, template: Mapping[str, str]) -> str:
        """`k`, `ns::k` or `ns::k<float, 4>`: what NVRTC instantiates and lowers. Trailing template parameters that
        keep their defaults are left to the compiler."""
        location = self._builder.location(kernel.name_span.start_byte)
        names = [p.name for p in kernel.template_params]
        unknown = [name for name in template if name not in names]
        if unknown:
            raise OptimlError(location, f"'{unknown[0]}' is not a template parameter of kernel '{kernel.name}'",
                              expected=f"one of: {', '.join(names)}" if names else "no template values")
        values: list[str | None] = []
        for param in kernel.template_params:
            if param.name in template:
                values.append(template[param.name])
            elif param.default is not None:
                values.append(None)
            else:
                raise OptimlError(location, f"template parameter '{param.name}' of kernel '{kernel.name}' has no value",
                                  expected=f"'template: {param.name}=...' in the contract")
        while values and values[-1] is None:
            values.pop()
        args = [value if value is not None else param.default for value, param in zip(values, kernel.template_params)]

        scopes = []
        container = self._index.parents[item]
        while container is not None:
            if container.kind == "namespace" and container.defines:
                scopes.append(container.scope)
            container = self._index.parents[container]
        qualified = "::".join([*reversed(scopes), kernel.name])
        return f"{qualified}<{', '.join(args)}>" if args else qualified


class _Index:
    """The items of an outline as compile units need them: nested under one root, with their containers, and by the
    names they define."""

    def __init__(self, parts: list[_Part]):
        top = [part.item for part in parts]
        self.root = _Item(_ROOT, 0, top[-1].end_byte if top else 0, Point(0, 0),
                          top[-1].end_point if top else Point(0, 0), [], set(), tuple(top))
        self.parents: dict[_Item, _Item | None] = {}
        pending: list[tuple[_Item, _Item | None]] = [(item, None) for item in top]
        while pending:
            item, parent = pending.pop()
            self.parents[item] = parent
            pending += [(child, item) for child in item.children]

        self.kernel_items: dict[int, _Item] = {}   # by Kernel.span.start_byte
        self.definers: dict[str, list[_Item]] = {}
        self.device_includes: list[_Item] = []
        self.free_items: list[_Item] = []   # device items that define nothing: #pragma, using namespace, ...
        for leaf in self.root.device_leaves():
            if leaf.kind == "kernel":
                self.kernel_items[leaf.start_byte] = leaf
            if leaf.kind == "include":
                self.device_includes.append(leaf)
            elif not leaf.defines:
                self.free_items.append(leaf)
            for name in leaf.defines:
                self.definers.setdefault(name, []).append(leaf)


# ---------------------------------------------------------------------------------------------------------------
# Reading the tree


class _Builder:
    """Items, kernels, launch sites and syntax problems, read from the nodes of one tree."""

    def __init__(self, source: bytes, path: str):
        self._source = source
        self._path = path
        self._kernels: list[Kernel] = []   # of the part being built

    def part(self, node: Node, follower: Node | None, reads_start: int, reads_end: int) -> _Part:
        self._kernels = []
        item = self._member(node, follower)
        device_items = tuple(self._device_item(top) for top in _top_level(item) if top.is_device)
        return _Part(node.type, node.start_byte, node.end_byte, reads_start, reads_end, item, tuple(self._kernels),
                     device_items)

    # -- items ----------------------------------------------------------------------------------------------------

    def _member(self, node: Node, follower: Node | None) -> _Item:
        """The item of a child of the root or of a container, with the `;` that follows it when that is its own."""
        item = self._item(node)
        if follower is not None and follower.type == ";" and not follower.is_named:
            item.end_byte, item.end_point = follower.end_byte, follower.end_point
        return item

    def _item(self, node: Node) -> _Item:
        kind = node.type
        if kind == "comment":
            return self._leaf(_COMMENT, node)
        if kind == "ERROR":
            return self._leaf(_ERROR, node)
        if kind == "preproc_include":
            header = self._text(node.child_by_field_name("path"))[1:-1]
            return _Item.of("include" if _DEVICE_HEADER.fullmatch(header) else _HOST, node, [], set())
        if kind in ("preproc_def", "preproc_function_def"):
            return self._macro(node)
        if kind in _CONDITIONALS:
            header = node.child_by_field_name("condition") or node.child_by_field_name("name")
            return self._container("conditional", node, [], [c for c in node.named_children if c != header])
        if kind == "namespace_definition":
            name = node.child_by_field_name("name")
            names = [] if name is None else [self._text(n) for n in _identifiers_of_namespace_name(name)]
            item = self._container("namespace", node, names, node.child_by_field_name("body").named_children)
            item.scope = None if name is None else self._text(name)
            return item
        if kind == "linkage_specification":
            body = node.child_by_field_name("body")
            members = body.named_children if body.type == "declaration_list" else [body]
            return self._container(_LINKAGE, node, [], members)
        if kind == "template_declaration":
            return self._declaration(node.named_children[-1], node)
        return self._declaration(node, node)

    def _declaration(self, node: Node, outer: Node) -> _Item:
        """Functions, variables, types and the rest; `outer` is `node` or its `template<...>` declaration."""
        kind = node.type
        if kind in ("function_definition", "declaration", "template_instantiation"):
            declarator = node.child_by_field_name("declarator")
            if declarator is not None and declarator.type == "function_declarator":
                return self._function(node, outer)
            if kind == "declaration":
                return self._variable(node, outer)
            return self._leaf(_HOST, outer)
        if kind in _TYPE_DEFINITIONS:
            return self._leaf("type", outer, self._type_names(node))
        if kind == "namespace_alias_definition":
            return self._leaf("other", outer, [self._text(node.child_by_field_name("name"))])
        return self._leaf("other", outer)

    def _function(self, node: Node, outer: Node) -> _Item:
        qualifiers = _qualifiers(node)
        previous = outer.prev_sibling
        if previous is not None and previous.type == "ERROR":
            # error recovery takes `__global__` into the error before it as an identifier: keep the kernel a kernel
            qualifiers |= {self._text(c) for c in previous.children[-2:] if c.type == "identifier"}
        name = _declared_name(node.child_by_field_name("declarator"))
        defines = [] if name is None else [self._text(name)]
        if node.type == "template_instantiation":
            # `template __global__ void k<float>(...);` instantiates, it defines nothing new
            return self._leaf("other" if qualifiers & {"__global__", "__device__"} else _HOST, outer)
        if "__global__" in qualifiers:
            item = self._leaf("kernel", outer, defines)
            if node.type == "function_definition" and name is not None:
                self._add_kernel(node, outer, name)
            return item
        return self._leaf("device_function" if "__device__" in qualifiers else _HOST, outer, defines)

    def _variable(self, node: Node, outer: Node) -> _Item:
        """Device memory, and the constants device code may read (constexpr, const scalars); other variables are
        host state."""
        declarators = node.children_by_field_name("declarator")
        names = [self._text(n) for n in map(_declared_name, declarators) if n is not None]
        qualifiers = _qualifiers(node)
        type_node = node.child_by_field_name("type")
        if qualifiers & _DEVICE_VARIABLE_QUALIFIERS or "constexpr" in qualifiers:
            return self._leaf("variable", outer, names)
        if "const" in qualifiers and all(_is_plain_declarator(d) for d in declarators):
            return self._leaf("variable", outer, names)
        if type_node is not None and type_node.type in _TYPE_SPECIFIERS and type_node.child_by_field_name("body"):
            return self._leaf("type", outer, self._type_names(type_node) + names)
        return self._leaf(_HOST, outer)

    def _macro(self, node: Node) -> _Item:
        params = node.child_by_field_name("parameters")
        param_names = set() if params is None else {self._text(p) for p in params.named_children}
        item = self._leaf("macro", node, [self._text(node.child_by_field_name("name"))])
        item.uses -= param_names
        return item

    def _type_names(self, node: Node) -> list[str]:
        """Names a type definition introduces: the type's (and a typedef's) names, and enumerators."""
        names = []
        type_node = node.child_by_field_name("type") if node.type == "type_definition" else node
        if type_node is not None and type_node.type in _TYPE_SPECIFIERS:
            name = type_node.child_by_field_name("name")
            if name is not None:
                names.append(self._text(name))
            body = type_node.child_by_field_name("body")
            if type_node.type == "enum_specifier" and body is not None:
                names += [self._text(e.child_by_field_name("name")) for e in body.named_children
                          if e.type == "enumerator"]
        if node.type == "type_definition":
            names += [self._text(d) for d in map(_declared_name, node.children_by_field_name("declarator")) if d]
        elif node.type == "alias_declaration":
            names.append(self._text(node.child_by_field_name("name")))
        return names

    def _leaf(self, kind: str, node: Node, defines: list[str] | None = None) -> _Item:
        defines = defines or []
        uses = _NO_NAMES if kind in _NOT_DEVICE else self._names_used(node.start_byte, node.end_byte) - set(defines)
        return _Item.of(kind, node, defines, uses)

    def _container(self, kind: str, node: Node, defines: list[str], members: list[Node]) -> _Item:
        item = _Item.of(kind, node, defines, set())
        item.children = tuple(self._member(member, member.next_sibling) for member in members)
        for start, end, _ in _gaps(item):
            item.uses |= self._names_used(start, end)
        item.uses -= set(defines)
        return item

    def _names_used(self, start: int, end: int) -> set[str]:
        words = set(_IDENTIFIERS.findall(self._source, start, end))
        words.discard(b"")
        return {word.decode() for word in words} - _KEYWORDS

    def _device_item(self, item: _Item) -> DeviceItem:
        defines = list(item.defines)
        uses = set(item.uses)
        for leaf in item.device_leaves():
            defines += leaf.defines
            uses |= leaf.uses
        defines = list(dict.fromkeys(defines))
        return DeviceItem.model_validate(
            {"kind": item.kind, "defines": defines, "uses": sorted(uses - set(defines)), "span": item.span_fields})

    # -- kernels --------------------------------------------------------------------------------------------------

    def _add_kernel(self, definition: Node, outer: Node, name: Node) -> None:
        declarator = definition.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters").named_children
        launch_bounds = next((c for c in definition.children if c.type == "launch_bounds"), None)
        template_params = []
        if outer.type == "template_declaration":
            declared = map(self._template_param, outer.child_by_field_name("parameters").named_children)
            template_params = [param for param in declared if param is not None]
        self._kernels.append(Kernel.model_validate({
            "name": self._text(name),
            "params": [self._param(p) for p in params if p.type.endswith("parameter_declaration")],
            "template_params": template_params,
            "launch_bounds": None if launch_bounds is None else self._inner_text(launch_bounds),
            "span": _node_span(outer),
            "name_span": _node_span(name),
            "body_span": _node_span(definition.child_by_field_name("body")),
            "comment": self._comment_block(outer.parent if outer.parent.type == "linkage_specification" else outer),
        }))

    def _param(self, node: Node) -> dict:
        """The fields of the Param of a parameter declaration."""
        is_pointer = is_restrict = False
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "identifier":
            kind = declarator.type
            if kind in ("pointer_declarator", "abstract_pointer_declarator"):
                is_pointer = True
                is_restrict = is_restrict or any(
                    c.type in ("type_qualifier", "ms_pointer_modifier") and c.child(0).type in _RESTRICT
                    for c in declarator.children
                )
            elif kind in ("array_declarator", "abstract_array_declarator"):
                is_pointer = True   # an array parameter is a pointer
            declarator = _inner_declarator(declarator)
        name = declarator   # None for an unnamed parameter
        default = node.child_by_field_name("default_value")
        end = node.end_byte if default is None else next(c for c in node.children if c.type == "=").start_byte
        if name is None:
            type_text = self._source[node.start_byte:end].decode().strip()
        else:
            type_text = (self._source[node.start_byte:name.start_byte].decode().rstrip()
                         + self._source[name.end_byte:end].decode().strip())
        return {
            "name": "" if name is None else self._text(name),
            "type_text": type_text,
            "base_type": self._text(node.child_by_field_name("type")),
            "is_pointer": is_pointer,
            "is_const": any(c.type == "type_qualifier" and c.child(0).type == "const" for c in node.children),
            "is_restrict": is_restrict,
            "span": _node_span(node),
        }

    def _template_param(self, node: Node) -> TemplateParam | None:
        """A named template parameter; None for unnamed ones (no contract can give them a value) and for what is
        no parameter (comments, syntax errors)."""
        kind = node.type
        variadic = "..." if kind.startswith("variadic") else ""
        if kind in ("type_parameter_declaration", "optional_type_parameter_declaration",
                    "variadic_type_parameter_declaration"):
            name = node.child_by_field_name("name") or _first_child_of_type(node, "type_identifier")
            kind_text = "typename" + variadic
        elif kind == "template_template_parameter_declaration":
            name = _first_child_of_type(node.named_children[-1], "type_identifier")
            kind_text = None if name is None else self._source[node.start_byte:name.start_byte].decode().strip()
        elif kind in ("parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration"):
            name = _declared_name(node.child_by_field_name("declarator"))
            kind_text = self._text(node.child_by_field_name("type")) + variadic
        else:
            return None
        if name is None:
            return None
        default = node.child_by_field_name("default_type") or node.child_by_field_name("default_value")
        return TemplateParam(
            name=self._text(name), kind=kind_text, default=None if default is None else self._text(default)
        )

    def _comment_block(self, anchor: Node) -> dict | None:
        """The fields of the kernel's Comment."""
        comments: list[Node] = []   # nearest first
        node = anchor.prev_named_sibling
        while node is not None and node.type == "comment":
            if comments and node.end_point.row < comments[-1].start_point.row - 1:
                node = None   # a blank line ends the block
                break
            comments.append(node)
            node = node.prev_named_sibling
        # `int x; // note` just above the kernel: the note belongs to the code on its line. A preprocessor line's
        # node ends after its newline, at column 0 of the next row: the code of its own row ends there.
        if node is not None:
            code_row = node.end_point.row - (1 if node.end_point.column == 0 and node.end_byte > node.start_byte
                                             else 0)
            while comments and comments[-1].start_point.row == code_row:
                comments.pop()
        if not comments:
            return None
        first, last = comments[-1], comments[0]
        return {"text": self._source[first.start_byte:last.end_byte].decode(),
                "span": _span_fields(first.start_byte, last.end_byte, first.start_point, last.end_point)}

    # -- launch sites ---------------------------------------------------------------------------------------------

    def launch_site(self, root: Node, start: int) -> LaunchSite | None:
        """The launch whose `<<<` starts at `start`; None when those bytes are no launch (a comment, a string...)."""
        token = root.descendant_for_byte_range(start, start + len(_LAUNCH))
        syntax = token.parent if token is not None else None
        if syntax is None or syntax.type != "kernel_call_syntax" or syntax.parent.type != "call_expression":
            return None
        call = syntax.parent
        function = call.child_by_field_name("function")
        while function.type in ("parenthesized_expression", "qualified_identifier"):
            function = function.child_by_field_name("name") or function.named_children[0]
        template_args = None
        if function.type == "template_function":
            template_args = self._inner_text(function.child_by_field_name("arguments"))
            function = function.child_by_field_name("name")
        config = [self._text(c) for c in syntax.named_children if c.type != "comment"]
        config += [None] * (4 - len(config))
        arguments = call.child_by_field_name("arguments")
        return LaunchSite.model_validate({
            "kernel": self._text(function),
            "template_args": template_args,
            "grid": config[0] or "",
            "block": config[1] or "",
            "smem": config[2],
            "stream": config[3],
            "args": [self._text(a) for a in arguments.named_children if a.type != "comment"] if arguments else [],
            "span": _node_span(call),
            "in_function": self._enclosing_function(call),
        })

    def _enclosing_function(self, node: Node) -> str | None:
        while node is not None and node.type != "function_definition":
            node = node.parent
        name = None if node is None else _declared_name(node.child_by_field_name("declarator"))
        return None if name is None else self._text(name)

    # -- syntax problems ------------------------------------------------------------------------------------------

    def syntax_problems(self, root: Node) -> list[SyntaxProblem]:
        problems: list[SyntaxProblem] = []
        pending = [root] if root.has_error else []
        while pending:
            node = pending.pop()
            if node.is_error:
                token = node
                while token.child_count:
                    token = token.child(0)
                text = self._text(token).split("\n", 1)[0]
                text = text if len(text) <= 30 else text[:27] + "..."
                message = f"unexpected '{text}'" if text else "unexpected end of input"
                problems.append(SyntaxProblem(location=self.location(token.start_byte), message=message))
            elif node.is_missing:
                what = node.type if node.is_named else f"'{node.type}'"
                problems.append(SyntaxProblem(location=self.location(node.start_byte), message=f"missing {what}"))
            else:
                pending += reversed([child for child in node.children if child.has_error])
        return problems

    def location(self, byte: int) -> Location:
        line_start = self._source.rfind(b"\n", 0, byte) + 1
        column = len(self._source[line_start:byte].decode(errors="replace")) + 1
        return Location(file=self._path, line=self._source.count(b"\n", 0, byte) + 1, column=column)

    # -- text -----------------------------------------------------------------------------------------------------

    def _text(self, node: Node) -> str:
        return self._source[node.start_byte:node.end_byte].decode()

    def _inner_text(self, node: Node) -> str:
        """The text between a node's first and last tokens: `256, 2` of `__launch_bounds__(256, 2)`."""
        opening = next(c for c in node.children if c.type in ("(", "<"))
        return self._source[opening.end_byte:node.children[-1].start_byte].decode().strip()


# ---------------------------------------------------------------------------------------------------------------
# Helpers on items and nodes


def _top_level(item: _Item) -> Iterator[_Item]:
    """The file-scope items of a child of the root: linkage blocks are no scope, so their members count as
    top-level."""
    if item.kind == _LINKAGE:
        for child in item.children:
            yield from _top_level(child)
    else:
        yield item


def _gaps(container: _Item) -> Iterator[tuple[int, int, Point]]:
    """The container's own text: what lies between its children (`namespace x {`, `#else`, `#endif`...)."""
    start, point = container.start_byte, container.start_point
    for child in container.children:
        yield start, child.start_byte, point
        start, point = child.end_byte, child.end_point
    yield start, container.end_byte, point


def _qualifiers(node: Node) -> set[str]:
    """Keywords directly on a declaration: `__global__`, `static`, `const`, `__constant__`, ..."""
    words = set()
    for child in node.children:
        if child.type in ("type_qualifier", "storage_class_specifier") and child.child_count:
            words.add(child.child(0).type)
        elif not child.is_named:
            words.add(child.type)
    return words


def _first_child_of_type(node: Node, kind: str) -> Node | None:
    return next((child for child in node.named_children if child.type == kind), None)


def _inner_declarator(node: Node) -> Node | None:
    inner = node.child_by_field_name("declarator")
    if inner is None and node.type in ("reference_declarator", "parenthesized_declarator", "variadic_declarator"):
        inner = node.named_children[-1] if node.named_child_count else None
    return inner


def _declared_name(declarator: Node | None) -> Node | None:
    """The identifier a declarator declares: `k` of `k(...)`, `*p`, `a[4]`, `x = 1`, `ns::k`, `k<float>`."""
    node = declarator
    while node is not None:
        if node.type in ("identifier", "field_identifier", "type_identifier"):
            return node
        if node.type in ("qualified_identifier", "template_function"):
            node = node.child_by_field_name("name")
        else:
            node = _inner_declarator(node)
    return None


def _is_plain_declarator(declarator: Node) -> bool:
    """`N` or `N = 4`: a const scalar, which device code may read, as opposed to arrays and pointers."""
    if declarator.type == "init_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator.type == "identifier"


def _identifiers_of_namespace_name(name: Node) -> list[Node]:
    """`a` of `namespace a`, and `a`, `b` of `namespace a::b`."""
    return [name] if name.type == "namespace_identifier" else [c for c in name.named_children
                                                               if c.type == "namespace_identifier"]


def _point_at(source: bytes, byte: int) -> Point:
    line_start = source.rfind(b"\n", 0, byte) + 1
    return Point(source.count(b"\n", 0, byte), byte - line_start)


def _node_span(node: Node) -> dict:
    return _span_fields(node.start_byte, node.end_byte, node.start_point, node.end_point)


def _span_fields(start_byte: int, end_byte: int, start: Point, end: Point) -> dict:
    """The fields of a Span, nested models included: models are made from these in one validation each, which
    takes a third less time than making every Position and Span on its own."""
    return {"start_byte": start_byte, "end_byte": end_byte,
            "start": {"line": start[0], "column": start[1]}, "end": {"line": end[0], "column": end[1]}}
