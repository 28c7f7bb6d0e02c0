"""The engine of the batch tests (tests/unit/test_batch.py), named by OPTIML_TEST_ENGINE: the language server's
synthetic engine, plus a kernel that kills its worker's process the first time it is evaluated (the file named by
OPTIML_TEST_DEATH_MARKER records that it happened), as a worker lost mid-run."""

from __future__ import annotations

import os
from pathlib import Path

from tests.lsp.synthetic_engine import SlowSyntheticEvaluator
from tests.unit.test_search import SyntheticPolicy

DIES_ONCE = "dies_once"


class DyingEvaluator(SlowSyntheticEvaluator):
    def evaluate(self, candidate, *args, **kwargs):
        marker = Path(os.environ["OPTIML_TEST_DEATH_MARKER"])
        if DIES_ONCE in candidate.unit.text and not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)      # the process dies mid-search, as a killed worker does
        return super().evaluate(candidate, *args, **kwargs)


def dying_engine():
    return DyingEvaluator(), [SyntheticPolicy()]
