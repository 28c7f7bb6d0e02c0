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
        self.template_numbers: dict[str, str] = {}

    @classmethod
    def of(cls, candidate: Candidate) -> KernelView:
        view = cls(candidate.unit.text, candidate.unit.path, candidate.unit.kernel)
        # The kernel's integer template parameters as the unit instantiates them (`k<4>` of `template <int CPG>`):
        # numbers in its body, as `#define`s are.
        name = candidate.unit.name_expression
        arguments = name[name.index("<") + 1:name.rindex(">")].split(",") if name.endswith(">") else []
        view.template_numbers = {parameter.name: argument.strip()
                                 for parameter, argument in zip(view.kernel.template_params, arguments)
                                 if argument.strip().isdigit()}
        return view

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


def unparenthesized(node: Node) -> Node:
    """The expression inside parentheses (comments in them skipped)."""
    while node.type == "parenthesized_expression":
        node = next(child for child in node.named_children if child.type != "comment")
    return node


def bare(node: Node) -> Node:
    """The expression inside parentheses and casts: `((size_t)blockIdx.x)` and `static_cast<int64_t>(blockDim.x)`
    are `blockIdx.x` and `blockDim.x`."""
    while True:
        if node.type == "parenthesized_expression":
            node = node.named_children[0]
        elif node.type == "cast_expression":
            node = node.child_by_field_name("value")
        elif _static_cast(node):
            node = node.child_by_field_name("arguments").named_children[0]
        else:
            return node


def _static_cast(node: Node) -> bool:
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    name = function.child_by_field_name("name") if function is not None and function.type == "template_function" \
        else None
    return name is not None and name.text.decode() == "static_cast" and \
        len(node.child_by_field_name("arguments").named_children) == 1


def operator(node: Node) -> str:
    return node.child_by_field_name("operator").type


def builtin_dim(node: Node, builtin: str) -> str | None:
    """'x', 'y' or 'z' when `node` is `builtin.x` (...), under parentheses and casts; None otherwise."""
    node = bare(node)
    if node.type == "field_expression" and node.child_by_field_name("argument").text.decode() == builtin:
        return node.child_by_field_name("field").text.decode()
    return None


def sum_of_product(node: Node) -> list[tuple[Node, Node, Node]]:
    """`term + a * b` read every way it may be written (terms and factors in any order, under parentheses and
    casts): each (term, factor, other factor); none for any other expression."""
    node = bare(node)
    if node.type != "binary_expression" or operator(node) != "+":
        return []
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    found = []
    for term, product in ((left, right), (right, left)):
        product = bare(product)
        if product.type == "binary_expression" and operator(product) == "*":
            a, b = product.child_by_field_name("left"), product.child_by_field_name("right")
            found += [(term, a, b), (term, b, a)]
    return found


def global_index_dim(node: Node) -> str | None:
    """The dimension d of the global thread index `blockIdx.d * blockDim.d + threadIdx.d` (terms and factors in any
    order, under parentheses and casts); None for any other expression. The one reader of "a thread's global index"
    that every rule family's detector uses."""
    for thread, block, size in sum_of_product(node):
        dim = builtin_dim(thread, "threadIdx")
        if dim is not None and builtin_dim(block, "blockIdx") == dim == builtin_dim(size, "blockDim"):
            return dim
    return None
