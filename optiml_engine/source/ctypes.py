"""C element type spellings and the canonical dtypes they map onto.

Integer spellings are recognised by their words in any order ("long unsigned int" is "unsigned long"), sized
as the LP64 CUDA targets size them (long is 64 bits); plain `char` is signed, as on the x86-64 and aarch64 Linux
hosts whose ABI device code follows.
"""

from __future__ import annotations

from optiml_engine.model import Dtype

_FLOATS: dict[str, Dtype] = {
    "float": "float32", "double": "float64",
    "half": "float16", "__half": "float16",
    "__nv_bfloat16": "bfloat16", "nv_bfloat16": "bfloat16",
    "bool": "bool",
}
_FIXED_WIDTH: dict[str, Dtype] = {
    "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16",
    "int32_t": "int32", "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64",
    "size_t": "uint64", "ptrdiff_t": "int64",
}
_CANONICAL: tuple[Dtype, ...] = (
    "float16", "bfloat16", "float32", "float64",
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool",
)
_INTEGER_WORDS = {"signed", "unsigned", "char", "short", "int", "long"}
_QUALIFIERS = {"const", "volatile"}

_ITEMSIZE: dict[Dtype, int] = {
    "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8,
    "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8, "bool": 1,
}
_C_NAME: dict[Dtype, str] = {
    "float16": "__half", "bfloat16": "__nv_bfloat16", "float32": "float", "float64": "double",
    "int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long", "bool": "bool",
}

# Spellings offered in error messages and used for "did you mean" suggestions.
KNOWN_SPELLINGS: tuple[str, ...] = (
    *_FLOATS, *_FIXED_WIDTH, *_CANONICAL,
    "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "unsigned int",
    "long", "unsigned long", "long long", "unsigned long long",
)


def dtype_of(spelling: str) -> Dtype | None:
    """The canonical dtype of a C element type (or of a canonical name); None when it is not a scalar we know.

    Whitespace is normalised and const/volatile qualifiers are ignored; a `std::` prefix is accepted."""
    words = [w for w in spelling.replace("std::", " ").split() if w not in _QUALIFIERS]
    if len(words) == 1:
        word = words[0]
        if word in _FLOATS:
            return _FLOATS[word]
        if word in _FIXED_WIDTH:
            return _FIXED_WIDTH[word]
        if word in _CANONICAL:
            return word  # type: ignore[return-value]
    return _integer_dtype(words)


def _integer_dtype(words: list[str]) -> Dtype | None:
    if not words or not set(words) <= _INTEGER_WORDS:
        return None
    longs = words.count("long")
    if longs > 2 or any(words.count(w) > 1 for w in _INTEGER_WORDS - {"long"}):
        return None
    if "signed" in words and "unsigned" in words:
        return None
    size_words = [w for w in words if w in ("char", "short")] + (["long"] if longs else [])
    if len(size_words) > 1 or ("char" in words and "int" in words):
        return None
    bits = {"char": 8, "short": 16, "long": 64}.get(size_words[0], 32) if size_words else 32
    return f"{'u' if 'unsigned' in words else ''}int{bits}"  # type: ignore[return-value]


def itemsize(dtype: Dtype) -> int:
    return _ITEMSIZE[dtype]


def is_float(dtype: Dtype) -> bool:
    return dtype in ("float16", "bfloat16", "float32", "float64")


def is_integer(dtype: Dtype) -> bool:
    """Signed and unsigned integers; bool is neither integer nor float."""
    return dtype.startswith(("int", "uint"))


def integer_bounds(dtype: Dtype) -> tuple[int, int]:
    """The smallest and largest value an integer (or bool) dtype holds."""
    if dtype == "bool":
        return 0, 1
    bits = 8 * _ITEMSIZE[dtype]
    if dtype.startswith("u"):
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def c_name(dtype: Dtype) -> str:
    """A spelling that CUDA C++ accepts (with cuda_fp16.h / cuda_bf16.h for the 16-bit floats)."""
    return _C_NAME[dtype]


def numpy_name(dtype: Dtype) -> str:
    """The NumPy dtype name. NumPy has no bfloat16: "bfloat16" is the name the ml_dtypes package registers, so
    callers that cannot import ml_dtypes must handle bfloat16 themselves (e.g. as uint16 bit patterns)."""
    return dtype  # the canonical names are NumPy's names
