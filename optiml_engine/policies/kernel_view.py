"""One kernel's syntax tree, for rules to read and rewrite.

A view is built over any text that holds the kernel: a candidate's compile unit (rewrites) or the user's file
(lints). Rewrites are byte-range replacements applied all at once, so that a rule never re-parses half-edited text.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from optiml_engine.model import Candidate, Contract, Kernel, LaunchRule, Position, Span
from optiml_engine.source.parse import CudaDocument


class KernelView:
    def __init__(self, text: str, path: str, kernel_name: str):
        self._attach(CudaDocument(text, path), kernel_name)

    @classmethod
    def in_document(cls, document: CudaDocument, kernel_name: str) -> KernelView:
        """A view of one kernel of a document already parsed: lints over a file's many kernels parse it once."""
        view = cls.__new__(cls)
        view._attach(document, kernel_name)
        return view

    def _attach(self, document: CudaDocument, kernel_name: str) -> None:
        self.document = document
        self.source = document.text.encode()
        kernel = document.model.kernel(kernel_name)
        if kernel is None:
            raise KeyError(f"no kernel {kernel_name} in {document.path}")
        self.kernel: Kernel = kernel
        self.node: Node = self._definition(kernel)
        self.body: Node = self.node.child_by_field_name("body")

    @classmethod
    def of(cls, candidate: Candidate) -> KernelView:
        return cls(candidate.unit.text, candidate.unit.path, candidate.unit.kernel)

    def _definition(self, kernel: Kernel) -> Node:
        node = self.document.tree.root_node.descendant_for_byte_range(kernel.name_span.start_byte,
                                                                       kernel.name_span.end_byte)
        while node is not None and node.type != "function_definition":
            node = node.parent
        if node is None:
            raise KeyError(f"no definition of {kernel.name}")
        return node

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode()

    def descendants(self, node: Node | None = None, *types: str) -> Iterator[Node]:
        """Nodes under `node` (the body by default), depth first in source order, of the given types (all if none)."""
        stack = [node or self.body]
        while stack:
            current = stack.pop()
            if not types or current.type in types:
                yield current
            stack.extend(reversed(current.children))

    def span(self, node: Node) -> Span:
        return Span(start_byte=node.start_byte, end_byte=node.end_byte,
                    start=Position(line=node.start_point.row, column=node.start_point.column),
                    end=Position(line=node.end_point.row, column=node.end_point.column))

    def replaced(self, replacements: list[tuple[int, int, str]]) -> str:
        """The text with each (start_byte, end_byte, new text) applied; ranges must not overlap."""
        result, cursor = [], 0
        for start, end, new in sorted(replacements):
            if start < cursor:
                raise ValueError("overlapping replacements")
            result += [self.source[cursor:start].decode(), new]
            cursor = end
        result.append(self.source[cursor:].decode())
        return "".join(result)


def derived(node: Candidate, text: str, description: str, launch: LaunchRule | None = None) -> Candidate:
    """A candidate made from `node` by a rewrite: new unit text, and a new launch rule when the geometry changed."""
    contract: Contract = node.contract if launch is None else node.contract.model_copy(update={"launch": launch})
    return node.model_copy(update={"unit": node.unit.model_copy(update={"text": text}), "contract": contract,
                                   "description": description})
