"""The engine behind the server's jobs in tests/lsp/test_jobs.py, named by OPTIML_TEST_ENGINE: the unit tests'
deterministic evaluator and policy (no GPU), each evaluation slowed down so that a job lasts long enough to watch,
to cancel and to run beside another."""

from __future__ import annotations

import time

from tests.unit.test_optimize import SyntheticEvaluator
from tests.unit.test_search import SyntheticPolicy

EVALUATION_S = 0.05
# a kernel with this in its name makes the evaluator raise: how the tests see a job fail
FAILING = "exploding"


class SlowSyntheticEvaluator(SyntheticEvaluator):
    def evaluate(self, candidate, *args, **kwargs):
        time.sleep(EVALUATION_S)
        if FAILING in candidate.unit.text:
            raise RuntimeError("the synthetic evaluator fails on purpose")
        return super().evaluate(candidate, *args, **kwargs)


def synthetic_engine():
    return SlowSyntheticEvaluator(), [SyntheticPolicy()]
