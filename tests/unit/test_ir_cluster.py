"""A point's passes shared by a cluster of blocks (ir/schedule.py `cluster`, ir/emit.py `cluster_exchange`): a
multi-pass reduction with few points (batch norm's 64 channels, each three passes over a million elements) is
split across the blocks of a thread-block cluster, each pass's block partials exchanged through distributed shared
memory so that every block holds the point's mean (variance...) for the passes after it. Every cluster size and
vector width equals the program on the CPU emulator, which runs a cluster's blocks at once."""

from __future__ import annotations

import pytest

from optiml_engine.ir.collapse import collapsed
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.moments import one_pass_moments
from optiml_engine.ir.schedule import CLUSTERS, Schedule, defaults, shape_of, space
from tests.ir_cases import ROOT
from tests.unit.test_ir_emit import assert_equals_program
from tests.unit.test_ir_lift import candidate_of

BATCH_NORM = ROOT / "tests" / "heldout19" / "batchnorm_train.cu"


def batch_norm():
    naive = candidate_of(BATCH_NORM.relative_to(ROOT), BATCH_NORM.read_text())
    program = collapsed(lift(naive))
    return naive, program, shape_of(program)


def test_few_points_of_several_passes_start_with_a_cluster_of_blocks_each() -> None:
    """Batch norm's 64 channels, one block each, would leave most of an H100's 132 SMs idle for three passes."""
    _, _, shape = batch_norm()
    assert shape.clustered and not shape.splittable
    clustered = [s for s in space(shape, "reduce") if s.cluster > 1]
    assert {s.cluster for s in clustered} == set(CLUSTERS)
    first = defaults(shape, "reduce", points_at_sizes=64)
    assert first[0].cluster == CLUSTERS[-1], first[0].describe()
    assert all(s.cluster == 1 for s in defaults(shape, "reduce", points_at_sizes=65536))


@pytest.mark.parametrize("cluster", CLUSTERS)
@pytest.mark.parametrize("vector", [1, 4])
def test_every_cluster_size_equals_the_program_at_every_check_size(cluster, vector) -> None:
    """64 lanes a block (the space's 512 and 1024 would be thousands of OS threads a cluster on the emulator): a
    check size with one element a channel, one whose channels end mid-vector, one with 70 channels (70 clusters)."""
    naive, program, shape = batch_norm()
    schedule = Schedule(family="reduce", block=(64, 1), lanes=64, vector=vector, cluster=cluster)
    emitted = emit(program, shape, schedule, naive)
    assert f"cluster_dims(1, {cluster}, 1)" in emitted.unit.text
    assert emitted.contract.launch.grid[-1] == str(cluster)
    assert_equals_program(emitted, naive, program, seed=7, what=schedule.describe())


def test_the_one_pass_statistics_shared_by_a_cluster_equal_the_program() -> None:
    """The policy's collapsed and one-pass batch norm (a pass for both sums, a pass for the writes): still several
    passes, shared by a cluster; equal to the three-pass program at every check size."""
    naive, program, _ = batch_norm()
    one_pass = one_pass_moments(program)
    shape = shape_of(one_pass)
    assert one_pass is not program and shape.clustered
    schedule = Schedule(family="reduce", block=(64, 1), lanes=64, vector=4, cluster=8)
    assert_equals_program(emit(one_pass, shape, schedule, naive), naive, program, seed=7, what=schedule.describe())


def test_a_single_pass_reduction_splits_across_blocks_instead() -> None:
    """One loop and its reductions (a row's maximum): the split workspace's last block finishes the point, no
    cluster."""
    shape = shape_of(lift(candidate_of(ROOT / "examples" / "row_max.cu")))
    assert shape.splittable and not shape.clustered
    assert all(s.cluster == 1 for s in space(shape, "reduce"))
