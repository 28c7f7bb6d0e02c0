"""Every word of an intent explained by its reading or refused (generate/vocabulary.py): a word no reading holds
('wrapping around', 'rounded', 'rescaled') refuses an intent that would otherwise be read, naming the words; the
words that ask for a kernel, describe its data or name what the reading computes do not. The held-out intents
(tests/heldout*/) are not these."""

from __future__ import annotations

import pytest

from optiml_engine.generate.intent import IntentError, parse_intent
from optiml_engine.generate.spec import parse_spec, spec_form
from optiml_engine.generate.vocabulary import explained_by, unexplained_words

# An intent read as the spec form beside it, and the same intent with words that change what is computed.
CHANGED_BY_A_WORD = [
    ("cumulative sum of each row of a 512 x 1024 float32 matrix", ", wrapping around", ["wrapping", "around"]),
    ("mean of each row of a 2048 x 2048 float32 matrix", ", rounded", ["rounded"]),
    ("softmax over the last axis of x (256 x 1024 float32)", ", rescaled", ["rescaled"]),
    ("max of each column of a 4096 x 512 float32 matrix", ", padded entries left out", ["padded", "left"]),
    ("transpose a 1024 x 2048 float32 matrix", " stored in tiles", ["tiles"]),
]


@pytest.mark.parametrize("intent, words, left", CHANGED_BY_A_WORD, ids=[c[1] for c in CHANGED_BY_A_WORD])
def test_a_word_no_reading_explains_refuses_the_intent_naming_it(intent, words, left):
    parse_intent(intent)                                # read without the words
    with pytest.raises(IntentError) as refused:
        parse_intent(intent + words)
    said = refused.value.message
    assert said.startswith(", ".join(f"'{word}'" for word in left) + ": not understood"), said


@pytest.mark.parametrize("intent", [
    "Please write a CUDA kernel that computes the row-wise sum of a 4096 x 1024 float32 matrix",
    "what's the fastest way to take the mean of each column of an 8192 x 1024 fp32 matrix?",
    "ReLU of a float32 tensor x of 1M elements, returned with the same shape",
    "torch.cumsum(x, dim=1) where x is a float32 tensor of shape (512, 1024)",
])
def test_words_that_ask_for_a_kernel_or_describe_its_data_are_explained(intent):
    parse_intent(intent)


def test_an_element_type_word_is_explained_only_by_the_reading_holding_it():
    float64 = parse_spec("y = sum(x, axis=1); x: float64[4096, 1024]")
    float32 = parse_spec("y = sum(x, axis=1); x: float32[4096, 1024]")
    intent = "sum of each row of a 4096 x 1024 matrix of doubles"
    assert unexplained_words(intent, float64, [spec_form(float64)]) == []
    assert unexplained_words(intent, float32, [spec_form(float32)]) == ["doubles"]


def test_no_bias_is_explained_only_where_the_reading_has_none():
    without = parse_spec("y = conv1d(x, w, stride=1); x: float32[8, 16, 4096]; w: float32[32, 16, 5]")
    with_bias = parse_spec("y = conv1d(x, w, b, stride=1); x: float32[8, 16, 4096]; w: float32[32, 16, 5]; "
                           "b: float32[32]")
    intent = "1-D convolution of x with w, no bias"
    assert unexplained_words(intent, without, [spec_form(without)]) == []
    assert "no" in unexplained_words(intent, with_bias, [spec_form(with_bias)])


def test_operators_and_functions_of_the_form_explain_their_names():
    reading = parse_spec("y = (p - t) * (p - t); p: float32[1024]; t: float32[1024]")
    explained = explained_by(reading, [spec_form(reading)])
    assert {"difference", "squared", "multiply"} <= explained
    assert "divide" not in explained and "exp" not in explained


def test_a_reverse_scan_explains_its_direction_and_a_forward_one_does_not():
    forward = parse_spec("y = cumsum(x, axis=1); x: float32[64, 1024]")
    backward = parse_spec("y = cumsum(x, axis=1, reverse=True); x: float32[64, 1024]")
    intent = "cumulative sum of each row from the right"
    assert unexplained_words(intent, backward, [spec_form(backward)]) == []
    assert unexplained_words(intent, forward, [spec_form(forward)]) == ["right"]
