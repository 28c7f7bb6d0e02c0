"""CodeLens above each kernel: Optimize and Profile, and what the last `optiml optimize` run found for it.

`optiml optimize FILE` writes its OptimizationResult next to the file, as FILE.optiml.json; the lens reads it (again
only when the file's modification time or size changed).
"""

from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types
from pydantic import ValidationError

from optiml_engine.optimize import OptimizationResult, source_hash
from server.documents import Documents, OpenDocument
from server.features.commands import OPTIMIZE, PROFILE

RESULT_SUFFIX = ".optiml.json"


def result_path(source: str) -> Path:
    path = Path(source)
    return path.with_name(path.name + RESULT_SUFFIX)


class ResultFiles:
    """Optimization results by result file, read once per version of the file on disk."""

    def __init__(self):
        self._read: dict[Path, tuple[tuple[int, int], OptimizationResult | None]] = {}

    def result(self, source: str) -> OptimizationResult | None:
        """The result next to `source`; None when there is none, or it cannot be read as one."""
        path = result_path(source)
        try:
            stat = os.stat(path)
        except OSError:
            self._read.pop(path, None)
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        known = self._read.get(path)
        if known is None or known[0] != version:
            try:
                known = version, OptimizationResult.model_validate_json(path.read_bytes())
            except (OSError, ValidationError):
                known = version, None   # a half-written or foreign file: no lens, and no error on every request
            self._read[path] = known
        return known[1]


class KernelLenses:
    def __init__(self, documents: Documents, results: ResultFiles):
        self._documents = documents
        self._results = results

    def code_lens(self, params: types.CodeLensParams) -> list[types.CodeLens] | None:
        document = self._documents.get(params.text_document.uri)
        if document is None:
            return None
        result = self._results.result(document.path)
        lenses = []
        for kernel in document.cuda.model.kernels:
            # above the kernel's first line: its template header when it has one
            where = document.range(kernel.span)
            where = types.Range(start=where.start, end=where.start)
            arguments = [document.uri, kernel.name]
            lenses += [types.CodeLens(range=where, command=types.Command(title=title, command=command,
                                                                          arguments=arguments))
                       for title, command in (("Optimize", OPTIMIZE), ("Profile", PROFILE))]
            if result is not None and result.kernel == kernel.name:
                lenses += [types.CodeLens(range=where, command=types.Command(title=title, command=""))
                           for title in self._result_titles(document, result)]
        return lenses

    @staticmethod
    def _result_titles(document: OpenDocument, result: OptimizationResult) -> list[str]:
        changed = " (file changed since)" if result.source_sha256 != source_hash(document.cuda.text) else ""
        if result.accepted and result.speedup is not None:
            titles = [f"{result.speedup:.1f}x faster available{changed}"]
            sol = result.final.sol
        else:
            titles = [f"no faster kernel verified{changed}"]
            sol = result.original.sol
        if sol is not None:
            titles.append(f"{sol.percent_of_sol:.0f}% of SOL")
        return titles
