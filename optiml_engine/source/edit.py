"""From the best candidate back to the user's file: the new kernel text, the contract's launch line, and the
file's launch sites when the launch geometry changed; as new text and as a unified diff.

A candidate's compile unit is the kernel's device closure with `#line` directives; rules put new `__device__`
helpers right before the kernel, after the kernel's own `#line`. So the kernel's chunk, everything after the last
`#line` before the kernel's definition, is what replaces the kernel in the user's file.
"""

from __future__ import annotations

import difflib
import re

from optiml_engine.model import Candidate, Frozen, Kernel, LaunchRule, LaunchSite, Location, SourceModel
from optiml_engine.source.expr import Binary, Call, Expr, Name, Neg, Num, parse_expr

LINE_DIRECTIVE = re.compile(r'^#line \d+ ".*"\n', re.M)


class FileEdit(Frozen):
    path: str
    old_text: str
    new_text: str
    diff: str


def kernel_parts(candidate: Candidate) -> tuple[str, str]:
    """What a rewrite put above the candidate's kernel (helpers, device arrays, the schedule's comment: above the
    unit's first #line, where ir/emit.py opens the unit with its helpers, and after the last #line before the
    kernel), and the kernel's definition. The file's own items before the kernel (each after a #line) are in
    neither: they are in the file already."""
    text = candidate.unit.text
    name = re.escape(candidate.unit.kernel)
    name_at = re.search(rf"(\btemplate\s*<[^;{{]*?>\s*)?\b__global__\b[^;{{]*?\b{name}\s*\(", text)
    if name_at is None:
        raise ValueError(f"kernel {candidate.unit.kernel} not found in its compile unit")
    lines = list(LINE_DIRECTIVE.finditer(text, 0, name_at.start()))
    above = [text[:lines[0].start()], text[lines[-1].end():name_at.start()]] if lines else [text[:name_at.start()]]
    return "\n\n".join(part.strip("\n") for part in above if part.strip()), text[name_at.start():].strip("\n")


def launch_line(rule: LaunchRule) -> str:
    def dims(values: list[str]) -> str:
        return values[0] if len(values) == 1 else "(" + ",".join(values) + ")"

    smem = "" if rule.smem == "0" else f" smem={rule.smem}"
    return f"grid={dims(rule.grid)} block={dims(rule.block)}{smem}"


def to_c(node: Expr, names: dict[str, str]) -> str:
    """A contract expression in host C++ terms: size symbols become the launch site's argument texts."""
    if isinstance(node, Num):
        return str(int(node.value)) if float(node.value).is_integer() else repr(node.value)
    if isinstance(node, Name):
        return f"({names[node.name]})" if node.name in names else node.name
    if isinstance(node, Neg):
        return f"(-{to_c(node.operand, names)})"
    if isinstance(node, Binary):
        op = "/" if node.op == "//" else node.op
        return f"({to_c(node.left, names)} {op} {to_c(node.right, names)})"
    if isinstance(node, Call):
        args = [to_c(a, names) for a in node.args]
        if node.function == "cdiv":
            return f"(({args[0]} + {args[1]} - 1) / {args[1]})"
        combine = "<" if node.function == "min" else ">"
        result = args[0]
        for other in args[1:]:
            result = f"({result} {combine} {other} ? {result} : {other})"
        return result
    raise ValueError(f"cannot express {node!r} in C++")


def launch_site_text(site: LaunchSite, kernel: Kernel, rule: LaunchRule, path: str) -> tuple[str, str]:
    """New grid and block texts for a launch site, in the site's own argument names."""
    names = {p.name: arg for p, arg in zip(kernel.params, site.args)}
    where = Location(file=path, line=site.span.start.line + 1, column=site.span.start.column + 1)

    def dims(values: list[str]) -> str:
        texts = [to_c(parse_expr(v, where), names) for v in values]
        return texts[0] if len(texts) == 1 else f"dim3({', '.join(texts)})"

    return dims(rule.grid), dims(rule.block)


# A helper a schedule writes, guarded so that a file defines it once (ir/emit.py).
GUARDED_HELPER = re.compile(r"#ifndef (\w+)\n#define \1\n.*?\n#endif", re.S)


def _above(source: bytes, above: str, top: int) -> list[tuple[int, int, bytes]]:
    """Replacements that put `above` at `top`, less what the file has already: a guarded helper the file defines
    before `top` (another kernel's schedule, or this kernel's last one, wrote it) is not written twice, nor a comment
    line it has; a device array the file declares under the same name (this kernel's last schedule's workspace) is
    declared anew where it stands."""
    text, before = source.decode(), source[:top].decode()
    kept = [m.group(0) for m in GUARDED_HELPER.finditer(above) if f"#define {m.group(1)}\n" not in before]
    lines, found = [], []
    for line in GUARDED_HELPER.sub("", above).splitlines():
        named = re.match(r"__device__\b[^;(]*?\b(\w+)\s*\[", line)
        old = re.search(rf"^__device__\b[^;(\n]*?\b{named.group(1)}\s*\[[^\n]*$", text, re.M) if named else None
        if old is None:
            if not (line.startswith("//") and re.search(rf"^{re.escape(line)}$", text, re.M)):
                lines.append(line)
            continue
        start = len(text[:old.start()].encode())
        found.append((start, start + len(old.group(0).encode()), line.encode()))
    if any(line.strip() for line in lines):
        kept.append("\n".join(lines).strip("\n"))
    return found + ([(top, top, ("\n\n".join(kept) + "\n\n").encode())] if kept else [])


def apply_candidate(text: str, model: SourceModel, original: Candidate, best: Candidate) -> FileEdit:
    """The user's file with the kernel replaced by the best candidate's; when the launch rule changed, the
    contract's `launch:` line and every launch site of the kernel rewritten to match."""
    kernel = model.kernel(original.unit.kernel)
    if kernel is None:
        raise ValueError(f"kernel {original.unit.kernel} is no longer in {model.path}")
    source = text.encode()
    above, definition = kernel_parts(best)
    # What the rewrite put above the kernel goes above its comment: between the two, the contract would no longer
    # be the kernel's.
    top = kernel.comment.span.start_byte if kernel.comment is not None else kernel.span.start_byte
    replacements: list[tuple[int, int, bytes]] = [(kernel.span.start_byte, kernel.span.end_byte, definition.encode())]
    replacements += _above(source, above, top)
    if best.contract.launch != original.contract.launch:
        if kernel.comment is not None:
            comment = source[kernel.comment.span.start_byte:kernel.comment.span.end_byte].decode()
            # The line's value up to a `#` remark or the block's `*/` (a value may multiply: `cdiv(rows*cols,256)`).
            updated = re.sub(r"(launch:[ \t]*)(?:(?!\*/)[^\n#])*?([ \t]*(?:#[^\n]*)?)(?=\*/|$)", lambda m: m.group(1) +
                             launch_line(best.contract.launch) + m.group(2), comment, count=1, flags=re.M)
            replacements.append((kernel.comment.span.start_byte, kernel.comment.span.end_byte, updated.encode()))
        for site in model.launch_sites:
            if site.kernel != kernel.name:
                continue
            grid, block = launch_site_text(site, kernel, best.contract.launch, model.path)
            extra = "".join(f", {part}" for part in (site.smem, site.stream) if part is not None)
            call = source[site.span.start_byte:site.span.end_byte].decode()
            new_call = re.sub(r"<<<.*?>>>", lambda _: f"<<<{grid}, {block}{extra}>>>", call, count=1, flags=re.S)
            replacements.append((site.span.start_byte, site.span.end_byte, new_call.encode()))
    pieces, cursor = [], 0
    for start, end, new in sorted(replacements):
        pieces += [source[cursor:start], new]
        cursor = end
    pieces.append(source[cursor:])
    new_text = b"".join(pieces).decode()
    diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), new_text.splitlines(keepends=True),
                                        fromfile=f"a/{model.path}", tofile=f"b/{model.path}"))
    return FileEdit(path=model.path, old_text=text, new_text=new_text, diff=diff)
