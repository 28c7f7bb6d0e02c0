"""From a parsed file to what the evaluator takes: the original kernel as a Candidate, and its reference."""

from __future__ import annotations

from optiml_engine.model import Candidate, OptimlError, ReferenceOracle
from optiml_engine.oracle import is_oracle, parse_oracle
from optiml_engine.source.contract import parse_contract
from optiml_engine.source.parse import CudaDocument


def original_candidate(document: CudaDocument, kernel_name: str) -> Candidate:
    """The kernel as the user wrote it, with its contract; raises OptimlError (located) when it has none."""
    model = document.model
    kernel = model.kernel(kernel_name)
    if kernel is None:
        raise KeyError(kernel_name)
    contract = parse_contract(kernel, model.path)
    return Candidate(unit=document.compile_unit(kernel.name, contract.template), contract=contract,
                     params=[p.name for p in kernel.params])


def reference_candidate(document: CudaDocument, candidate: Candidate) -> Candidate | ReferenceOracle | None:
    """The contract's `reference:`: NumPy expressions (oracle.py), or a kernel of the same file with its own
    contract (its launch geometry is its own). None when the contract names no reference: the original kernel is
    then its own reference."""
    name = candidate.contract.reference
    if name is None:
        return None
    if is_oracle(name):
        return parse_oracle(candidate.contract)
    if document.model.kernel(name) is None:
        names = ", ".join(k.name for k in document.model.kernels)
        raise OptimlError(candidate.contract.location, f"reference '{name}' is not a kernel of this file",
                          f"the name of a kernel defined in this file: {names}")
    return original_candidate(document, name).model_copy(update={"description": f"reference {name}"})
