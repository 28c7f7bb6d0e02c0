"""The CUDA source model, on tree-sitter-cuda.

`CudaDocument` holds one file's syntax tree, re-parses it incrementally as the editor changes it, and derives from it
the `SourceModel` (kernels, launch sites, device items, syntax problems) and, per kernel, the `CompileUnit`: the kernel
plus the device items it needs, with `#line` directives back into the user's file.

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
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

import tree_sitter_cuda
from tree_sitter import Language, Node, Parser, Point, Tree

from optiml_engine.model import (
    Comment,
    CompileUnit,
    DeviceItem,
    Kernel,
    LaunchSite,
    Location,
    OptimlError,
    Param,
    Position,
    SourceModel,
    Span,
    SyntaxProblem,
    TemplateParam,
)

_LANGUAGE = Language(tree_sitter_cuda.language())

# Angle-bracket or quoted, only these headers reach a compile unit: NVRTC resolves them for device code (given the
# CUDA include directory). Host headers (stdio.h, cuda_runtime.h, vector, ...) are left out, as are the user's own
# headers: NVRTC pre-includes the runtime's device API, and a compile unit holds only what this file defines.
_DEVICE_HEADER = re.compile(
    r"cuda_(fp16|bf16|fp8|fp6|fp4)\.h(pp)?|mma\.h|cooperative_groups(\.h|/.+)|cuda/.+"
    r"|cuda_pipeline\w*\.h|cuda_awbarrier\w*\.h"
)

# One token per match; only identifiers are captured, so findall yields b"" for everything else. Identifiers come
# first and runs of punctuation and space next because they are most of the text (three times faster than the
# natural order).
_TOKENS = re.compile(
    rb"([A-Za-z_]\w*)"                  # identifier
    rb"|[^\w/\"'#.]+"                   # space and punctuation
    rb"|//[^\n]*"                       # line comment
    rb"|/\*.*?(?:\*/|\Z)"               # block comment
    rb"|\"(?:\\.|[^\"\\\n])*\"?"        # string literal
    rb"|'(?:\\.|[^'\\\n])*'?"           # character literal
    rb"|\.?\d[\w.']*"                   # number literal, suffixes and digit separators included
    rb"|\#\s*[A-Za-z_]\w*",             # preprocessor directive name
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


@dataclass(eq=False)
class _Item:
    """A top-level item, or an item of a namespace, linkage block or preprocessor conditional (a container).

    A container's `uses` are its own (the conditions of `#if`/`#elif`, the namespace name); its children's are theirs.
    """

    kind: str
    node: Node
    defines: list[str]
    uses: set[str]
    parent: _Item | None
    children: list[_Item] = field(default_factory=list)
    last: Node | None = None    # the item's last node when its `;` is a sibling of `node` (`struct S {...};`)

    @property
    def start_byte(self) -> int:
        return self.node.start_byte

    @property
    def end_byte(self) -> int:
        return (self.last or self.node).end_byte

    @property
    def end_point(self) -> Point:
        return (self.last or self.node).end_point

    @property
    def span(self) -> Span:
        return _span_between(self.node, self.last or self.node)

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


class CudaDocument:
    """One .cu file: its text, syntax tree and (lazily) its source model."""

    def __init__(self, text: str, path: str):
        self.path = path
        self._parser = Parser(_LANGUAGE)
        self._source = text.encode()
        self._tree = self._parser.parse(self._source)
        self._text: str | None = text
        self._outline: _Outline | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._source.decode()
        return self._text

    @property
    def model(self) -> SourceModel:
        return self._current_outline().model

    def apply_change(self, start: Position, end: Position, new_text: str) -> None:
        """Replace the text between `start` and `end` (0-based lines, UTF-8 byte columns) and re-parse incrementally.

        Positions past the end of a line or of the document are clamped to it, as LSP asks; a column inside a
        character moves to the character's start.
        """
        start_byte = self._byte_offset(start)
        old_end_byte = max(start_byte, self._byte_offset(end))
        inserted = new_text.encode()
        start_point = _point_at(self._source, start_byte)
        old_end_point = _point_at(self._source, old_end_byte)
        inserted_lines = inserted.count(b"\n")
        if inserted_lines:
            new_end_point = Point(start_point.row + inserted_lines, len(inserted) - inserted.rfind(b"\n") - 1)
        else:
            new_end_point = Point(start_point.row, start_point.column + len(inserted))

        self._source = self._source[:start_byte] + inserted + self._source[old_end_byte:]
        self._tree.edit(
            start_byte=start_byte,
            old_end_byte=old_end_byte,
            new_end_byte=start_byte + len(inserted),
            start_point=start_point,
            old_end_point=old_end_point,
            new_end_point=new_end_point,
        )
        self._tree = self._parser.parse(self._source, self._tree)
        self._text = None
        self._outline = None

    def compile_unit(self, kernel_name: str, template: Mapping[str, str]) -> CompileUnit:
        """The kernel and the device items it needs, transitively, in file order, each preceded by a `#line`.

        `template` instantiates a template kernel: a value for every template parameter without a default.
        """
        return self._current_outline().compile_unit(kernel_name, template)

    def _current_outline(self) -> _Outline:
        if self._outline is None:
            with _collection_paused():
                self._outline = _Outline(self._source, self._tree, self.path)
        return self._outline

    def _byte_offset(self, position: Position) -> int:
        source = self._source
        line_start = 0
        for _ in range(position.line):
            newline = source.find(b"\n", line_start)
            if newline < 0:
                return len(source)
            line_start = newline + 1
        line_end = source.find(b"\n", line_start)
        if line_end < 0:
            line_end = len(source)
        offset = min(line_start + position.column, line_end)
        while line_start < offset < line_end and source[offset] & 0xC0 == 0x80:   # a UTF-8 continuation byte
            offset -= 1
        return offset


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
# The outline: items, kernels, launch sites and problems of one tree


class _Outline:
    """Everything derived from one version of the tree: the source model and what compile units are cut from."""

    def __init__(self, source: bytes, tree: Tree, path: str):
        self._source = source
        self._path = path
        self._kernels: list[Kernel] = []
        self._kernel_items: dict[int, _Item] = {}  # by Kernel.span.start_byte
        root = tree.root_node
        self._root = self._container(_ROOT, root, [], None, root.named_children)

        self._definers: dict[str, list[_Item]] = {}
        self._device_includes: list[_Item] = []
        self._free_items: list[_Item] = []   # device items that define nothing: #pragma, using namespace, ...
        for leaf in self._root.device_leaves():
            if leaf.kind == "include":
                self._device_includes.append(leaf)
            elif not leaf.defines:
                self._free_items.append(leaf)
            for name in leaf.defines:
                self._definers.setdefault(name, []).append(leaf)

        self.model = SourceModel(
            path=path,
            kernels=self._kernels,
            launch_sites=self._launch_sites(root),
            device_items=[self._device_item(item) for item in _top_level(self._root) if item.is_device],
            syntax_problems=self._syntax_problems(root),
        )

    # -- items ----------------------------------------------------------------------------------------------------

    def _item(self, node: Node, parent: _Item) -> _Item:
        kind = node.type
        if kind == "comment":
            return self._leaf(_COMMENT, node, parent)
        if kind == "ERROR":
            return self._leaf(_ERROR, node, parent)
        if kind == "preproc_include":
            header = self._text(node.child_by_field_name("path"))[1:-1]
            return _Item("include" if _DEVICE_HEADER.fullmatch(header) else _HOST, node, [], set(), parent)
        if kind in ("preproc_def", "preproc_function_def"):
            return self._macro(node, parent)
        if kind in _CONDITIONALS:
            header = node.child_by_field_name("condition") or node.child_by_field_name("name")
            return self._container("conditional", node, [], parent, [c for c in node.named_children if c != header])
        if kind == "namespace_definition":
            name = node.child_by_field_name("name")
            names = [] if name is None else [self._text(n) for n in _identifiers_of_namespace_name(name)]
            return self._container("namespace", node, names, parent, node.child_by_field_name("body").named_children)
        if kind == "linkage_specification":
            body = node.child_by_field_name("body")
            members = body.named_children if body.type == "declaration_list" else [body]
            return self._container(_LINKAGE, node, [], parent, members)
        if kind == "template_declaration":
            return self._declaration(node.named_children[-1], node, parent)
        return self._declaration(node, node, parent)

    def _declaration(self, node: Node, outer: Node, parent: _Item) -> _Item:
        """Functions, variables, types and the rest; `outer` is `node` or its `template<...>` declaration."""
        kind = node.type
        if kind in ("function_definition", "declaration", "template_instantiation"):
            declarator = node.child_by_field_name("declarator")
            if declarator is not None and declarator.type == "function_declarator":
                return self._function(node, outer, parent)
            if kind == "declaration":
                return self._variable(node, outer, parent)
            return self._leaf(_HOST, outer, parent)
        if kind in _TYPE_DEFINITIONS:
            return self._leaf("type", outer, parent, self._type_names(node))
        if kind == "namespace_alias_definition":
            return self._leaf("other", outer, parent, [self._text(node.child_by_field_name("name"))])
        return self._leaf("other", outer, parent)

    def _function(self, node: Node, outer: Node, parent: _Item) -> _Item:
        qualifiers = _qualifiers(node)
        previous = outer.prev_sibling
        if previous is not None and previous.type == "ERROR":
            # error recovery takes `__global__` into the error before it as an identifier: keep the kernel a kernel
            qualifiers |= {self._text(c) for c in previous.children[-2:] if c.type == "identifier"}
        name = _declared_name(node.child_by_field_name("declarator"))
        defines = [] if name is None else [self._text(name)]
        if node.type == "template_instantiation":
            # `template __global__ void k<float>(...);` instantiates, it defines nothing new
            return self._leaf("other" if qualifiers & {"__global__", "__device__"} else _HOST, outer, parent)
        if "__global__" in qualifiers:
            item = self._leaf("kernel", outer, parent, defines)
            if node.type == "function_definition" and name is not None:
                self._add_kernel(node, outer, name, item)
            return item
        return self._leaf("device_function" if "__device__" in qualifiers else _HOST, outer, parent, defines)

    def _variable(self, node: Node, outer: Node, parent: _Item) -> _Item:
        """Device memory, and the constants device code may read (constexpr, const scalars); other variables are
        host state."""
        declarators = node.children_by_field_name("declarator")
        names = [self._text(n) for n in map(_declared_name, declarators) if n is not None]
        qualifiers = _qualifiers(node)
        type_node = node.child_by_field_name("type")
        if qualifiers & _DEVICE_VARIABLE_QUALIFIERS or "constexpr" in qualifiers:
            return self._leaf("variable", outer, parent, names)
        if "const" in qualifiers and all(_is_plain_declarator(d) for d in declarators):
            return self._leaf("variable", outer, parent, names)
        if type_node is not None and type_node.type in _TYPE_SPECIFIERS and type_node.child_by_field_name("body"):
            return self._leaf("type", outer, parent, self._type_names(type_node) + names)
        return self._leaf(_HOST, outer, parent)

    def _macro(self, node: Node, parent: _Item) -> _Item:
        params = node.child_by_field_name("parameters")
        param_names = set() if params is None else {self._text(p) for p in params.named_children}
        item = self._leaf("macro", node, parent, [self._text(node.child_by_field_name("name"))])
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

    def _leaf(self, kind: str, node: Node, parent: _Item, defines: list[str] | None = None) -> _Item:
        defines = defines or []
        uses = set() if kind in _NOT_DEVICE else self._names_used(node.start_byte, node.end_byte) - set(defines)
        return _Item(kind, node, defines, uses, parent)

    def _container(self, kind: str, node: Node, defines: list[str], parent: _Item | None,
                   members: list[Node]) -> _Item:
        item = _Item(kind, node, defines, set(), parent)
        for member in members:
            child = self._item(member, item)
            follower = member.next_sibling
            if follower is not None and follower.type == ";" and not follower.is_named:
                child.last = follower
            item.children.append(child)
        if kind != _ROOT:
            for start, end, _ in _gaps(item):
                item.uses |= self._names_used(start, end)
            item.uses -= set(defines)
        return item

    def _names_used(self, start: int, end: int) -> set[str]:
        words = set(_TOKENS.findall(self._source, start, end))
        words.discard(b"")
        return {word.decode() for word in words} - _KEYWORDS

    def _device_item(self, item: _Item) -> DeviceItem:
        defines = list(item.defines)
        uses = set(item.uses)
        for leaf in item.device_leaves():
            defines += leaf.defines
            uses |= leaf.uses
        defines = list(dict.fromkeys(defines))
        return DeviceItem(kind=item.kind, defines=defines, uses=sorted(uses - set(defines)), span=item.span)

    # -- kernels --------------------------------------------------------------------------------------------------

    def _add_kernel(self, definition: Node, outer: Node, name: Node, item: _Item) -> None:
        declarator = definition.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters").named_children
        launch_bounds = next((c for c in definition.children if c.type == "launch_bounds"), None)
        template_params = []
        if outer.type == "template_declaration":
            declared = map(self._template_param, outer.child_by_field_name("parameters").named_children)
            template_params = [param for param in declared if param is not None]
        kernel = Kernel(
            name=self._text(name),
            params=[self._param(p) for p in params if p.type.endswith("parameter_declaration")],
            template_params=template_params,
            launch_bounds=None if launch_bounds is None else self._inner_text(launch_bounds),
            span=_span(outer),
            name_span=_span(name),
            body_span=_span(definition.child_by_field_name("body")),
            comment=self._comment_block(outer.parent if outer.parent.type == "linkage_specification" else outer),
        )
        self._kernels.append(kernel)
        self._kernel_items[outer.start_byte] = item

    def _param(self, node: Node) -> Param:
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
        return Param(
            name="" if name is None else self._text(name),
            type_text=type_text,
            base_type=self._text(node.child_by_field_name("type")),
            is_pointer=is_pointer,
            is_const=any(c.type == "type_qualifier" and c.child(0).type == "const" for c in node.children),
            is_restrict=is_restrict,
            span=_span(node),
        )

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

    def _comment_block(self, anchor: Node) -> Comment | None:
        comments: list[Node] = []   # nearest first
        node = anchor.prev_named_sibling
        while node is not None and node.type == "comment":
            if comments and node.end_point.row < comments[-1].start_point.row - 1:
                node = None   # a blank line ends the block
                break
            comments.append(node)
            node = node.prev_named_sibling
        # `int x; // note` just above the kernel: the note belongs to the code on its line
        while comments and node is not None and comments[-1].start_point.row == node.end_point.row:
            comments.pop()
        if not comments:
            return None
        first, last = comments[-1], comments[0]
        return Comment(text=self._source[first.start_byte:last.end_byte].decode(), span=_span_between(first, last))

    # -- launch sites ---------------------------------------------------------------------------------------------

    def _launch_sites(self, root: Node) -> list[LaunchSite]:
        sites = []
        start = self._source.find(b"<<<")
        while start >= 0:
            token = root.descendant_for_byte_range(start, start + 3)
            syntax = token.parent if token is not None else None
            if syntax is not None and syntax.type == "kernel_call_syntax" and syntax.parent.type == "call_expression":
                sites.append(self._launch_site(syntax.parent, syntax))
            start = self._source.find(b"<<<", start + 3)
        return sites

    def _launch_site(self, call: Node, syntax: Node) -> LaunchSite:
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
        return LaunchSite(
            kernel=self._text(function),
            template_args=template_args,
            grid=config[0] or "",
            block=config[1] or "",
            smem=config[2],
            stream=config[3],
            args=[self._text(a) for a in arguments.named_children if a.type != "comment"] if arguments else [],
            span=_span(call),
            in_function=self._enclosing_function(call),
        )

    def _enclosing_function(self, node: Node) -> str | None:
        while node is not None and node.type != "function_definition":
            node = node.parent
        name = None if node is None else _declared_name(node.child_by_field_name("declarator"))
        return None if name is None else self._text(name)

    # -- syntax problems ------------------------------------------------------------------------------------------

    def _syntax_problems(self, root: Node) -> list[SyntaxProblem]:
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
                problems.append(SyntaxProblem(location=self._location(token.start_byte), message=message))
            elif node.is_missing:
                what = node.type if node.is_named else f"'{node.type}'"
                problems.append(SyntaxProblem(location=self._location(node.start_byte), message=f"missing {what}"))
            else:
                pending += reversed([child for child in node.children if child.has_error])
        return problems

    def _location(self, byte: int) -> Location:
        line_start = self._source.rfind(b"\n", 0, byte) + 1
        column = len(self._source[line_start:byte].decode(errors="replace")) + 1
        return Location(file=self._path, line=self._source.count(b"\n", 0, byte) + 1, column=column)

    # -- compile units --------------------------------------------------------------------------------------------

    def compile_unit(self, kernel_name: str, template: Mapping[str, str]) -> CompileUnit:
        kernel = self.model.kernel(kernel_name)
        if kernel is None:
            names = ", ".join(k.name for k in self._kernels) or "none in this file"
            raise OptimlError(Location(file=self._path, line=1), f"no kernel named '{kernel_name}'",
                              expected=f"one of: {names}")
        item = self._kernel_items[kernel.span.start_byte]
        name_expression = self._name_expression(kernel, item, template)
        pieces = self._pieces(self._root, self._closure(item))
        return CompileUnit(
            path=self._path,
            kernel=kernel.name,
            name_expression=name_expression,
            text="".join(self._chunk(*piece) for piece in pieces),
        )

    def _chunk(self, start: int, end: int, point: Point) -> str:
        """Source text under a `#line` that names the user's line where it starts. Blank lines around it are
        dropped and its first line is indented to its column, so that compilers' columns are the user's too."""
        text = self._source[start:end].decode()
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
        selected: set[_Item] = set()
        needed: set[str] = set()
        pending: list[str] = []

        def select(item: _Item | None) -> None:
            while item is not None and item not in selected:
                selected.add(item)
                pending.extend(item.uses)
                item = item.parent

        select(kernel_item)
        for include in self._device_includes:
            select(include)
        while True:
            while pending:
                name = pending.pop()
                if name not in needed:
                    needed.add(name)
                    for definer in self._definers.get(name, ()):
                        select(definer)
            ready = [item for item in self._free_items
                     if item not in selected and not {n for n in item.uses if n in self._definers} - needed]
            if not ready:
                return selected
            for item in ready:
                select(item)

    def _pieces(self, container: _Item, selected: set[_Item]) -> Iterator[tuple[int, int, Point]]:
        """Byte ranges (with start points) to copy into a compile unit: the container's own text (not the file's:
        what lies between top-level items is whitespace or stray tokens) and its selected children."""
        for gap, child in zip(_gaps(container), [*container.children, None]):
            start, end, _ = gap
            if container.kind != _ROOT and self._source[start:end].strip():
                yield gap
            if child in selected:
                if child.is_container:
                    yield from self._pieces(child, selected)
                else:
                    yield child.start_byte, child.end_byte, child.node.start_point

    def _name_expression(self, kernel: Kernel, item: _Item, template: Mapping[str, str]) -> str:
        """`k`, `ns::k` or `ns::k<float, 4>`: what NVRTC instantiates and lowers. Trailing template parameters that
        keep their defaults are left to the compiler."""
        location = self._location(kernel.name_span.start_byte)
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
        container = item.parent
        while container is not None:
            if container.kind == "namespace" and container.defines:
                scopes.append(self._text(container.node.child_by_field_name("name")))
            container = container.parent
        qualified = "::".join([*reversed(scopes), kernel.name])
        return f"{qualified}<{', '.join(args)}>" if args else qualified

    # -- text -----------------------------------------------------------------------------------------------------

    def _text(self, node: Node) -> str:
        return self._source[node.start_byte:node.end_byte].decode()

    def _inner_text(self, node: Node) -> str:
        """The text between a node's first and last tokens: `256, 2` of `__launch_bounds__(256, 2)`."""
        opening = next(c for c in node.children if c.type in ("(", "<"))
        return self._source[opening.end_byte:node.children[-1].start_byte].decode().strip()


# ---------------------------------------------------------------------------------------------------------------
# Helpers on items and nodes


def _top_level(container: _Item) -> Iterator[_Item]:
    """Items at file scope: linkage blocks are no scope, so their members count as top-level."""
    for item in container.children:
        if item.kind == _LINKAGE:
            yield from _top_level(item)
        else:
            yield item


def _gaps(container: _Item) -> Iterator[tuple[int, int, Point]]:
    """The container's own text: what lies between its children (`namespace x {`, `#else`, `#endif`...)."""
    start, point = container.start_byte, container.node.start_point
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


def _position(point: Point) -> Position:
    return Position(line=point.row, column=point.column)


def _span(node: Node) -> Span:
    return _span_between(node, node)


def _span_between(first: Node, last: Node) -> Span:
    return Span(
        start_byte=first.start_byte,
        end_byte=last.end_byte,
        start=_position(first.start_point),
        end=_position(last.end_point),
    )
