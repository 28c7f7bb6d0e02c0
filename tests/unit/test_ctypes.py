import typing

import numpy as np
import pytest

from optiml_engine.model import Dtype
from optiml_engine.source.ctypes import (
    KNOWN_SPELLINGS, c_name, dtype_of, integer_bounds, is_float, is_integer, itemsize, numpy_name,
)

ALL_DTYPES: tuple[str, ...] = typing.get_args(Dtype)


@pytest.mark.parametrize("spelling, dtype", [
    ("float", "float32"), ("double", "float64"), ("half", "float16"), ("__half", "float16"),
    ("__nv_bfloat16", "bfloat16"), ("nv_bfloat16", "bfloat16"), ("bfloat16", "bfloat16"),
    ("char", "int8"), ("signed char", "int8"), ("int8_t", "int8"),
    ("unsigned char", "uint8"), ("uint8_t", "uint8"),
    ("short", "int16"), ("short int", "int16"), ("int16_t", "int16"),
    ("unsigned short", "uint16"), ("unsigned short int", "uint16"), ("uint16_t", "uint16"),
    ("int", "int32"), ("int32_t", "int32"), ("signed", "int32"), ("signed int", "int32"),
    ("unsigned", "uint32"), ("unsigned int", "uint32"), ("uint32_t", "uint32"),
    ("long", "int64"), ("long long", "int64"), ("long long int", "int64"), ("int64_t", "int64"),
    ("unsigned long long", "uint64"), ("long unsigned int", "uint64"), ("uint64_t", "uint64"), ("size_t", "uint64"),
    ("bool", "bool"),
    ("float32", "float32"), ("uint8", "uint8"), ("float16", "float16"),
    ("  unsigned\t  char ", "uint8"), ("const float", "float32"), ("std::int32_t", "int32"),
])
def test_spellings(spelling, dtype):
    assert dtype_of(spelling) == dtype


@pytest.mark.parametrize("spelling", [
    "", "T", "float4", "flot", "long double", "unsigned float", "short long", "long long long", "char int",
    "signed unsigned", "int int", "unsigned char char",
])
def test_unknown_spellings_are_none(spelling):
    assert dtype_of(spelling) is None


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_c_name_and_canonical_name_map_back(dtype):
    assert dtype_of(c_name(dtype)) == dtype
    assert dtype_of(dtype) == dtype


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != "bfloat16"])
def test_numpy_name_and_itemsize_agree_with_numpy(dtype):
    assert np.dtype(numpy_name(dtype)).itemsize == itemsize(dtype)


def test_bfloat16_is_two_bytes():
    assert itemsize("bfloat16") == 2
    assert numpy_name("bfloat16") == "bfloat16"


def test_kinds():
    assert [d for d in ALL_DTYPES if is_float(d)] == ["float16", "bfloat16", "float32", "float64"]
    assert [d for d in ALL_DTYPES if is_integer(d)] == [
        "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
    assert not is_integer("bool") and not is_float("bool")


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if is_integer(d)])
def test_integer_bounds_agree_with_numpy(dtype):
    info = np.iinfo(numpy_name(dtype))
    assert integer_bounds(dtype) == (info.min, info.max)


def test_every_known_spelling_resolves():
    assert all(dtype_of(spelling) is not None for spelling in KNOWN_SPELLINGS)
