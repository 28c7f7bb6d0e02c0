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


@pytest.mark.parametrize("intent, holding, lacking, left", [
    # An element type word beside a reading of that type, and of another
    ("sum of each row of a 4096 x 1024 matrix of doubles", "y = sum(x, axis=1); x: float64[4096, 1024]",
     "y = sum(x, axis=1); x: float32[4096, 1024]", ["doubles"]),
    # 'no bias' beside a convolution without one, and with one
    ("1-D convolution of x with w, no bias", "y = conv1d(x, w); x: float32[8, 16, 4096]; w: float32[32, 16, 5]",
     "y = conv1d(x, w, b); x: float32[8, 16, 4096]; w: float32[32, 16, 5]; b: float32[32]", ["no"]),
    # 'no bias' beside a formula without one, and with a bias added to every row
    ("relu of x (64 x 32), no bias", "y = relu(x); x: float32[64, 32]",
     "y = relu(x + b); x: float32[64, 32]; b: float32[32]", ["no"]),
    # a direction beside a reverse scan, and a forward one
    ("cumulative sum of each row from the right", "y = cumsum(x, axis=1, reverse=True); x: float32[64, 1024]",
     "y = cumsum(x, axis=1); x: float32[64, 1024]", ["right"]),
])
def test_a_word_is_explained_only_by_a_reading_that_holds_what_it_says(intent, holding, lacking, left):
    for form, expected in ((holding, []), (lacking, left)):
        reading = parse_spec(form)
        assert unexplained_words(intent, reading, [spec_form(reading)]) == expected, form


def test_operators_and_functions_of_the_form_explain_their_names():
    reading = parse_spec("y = (p - t) * (p - t); p: float32[1024]; t: float32[1024]")
    explained = explained_by(reading, [spec_form(reading)])
    assert {"difference", "squared", "multiply"} <= explained
    assert "divide" not in explained and "exp" not in explained


@pytest.mark.parametrize("intent, word", [("sum of 1M longs", "longs"),
                                          ("max of each row of a 64 x 64 matrix of longs", "longs")])
def test_an_element_type_the_readers_do_not_know_is_no_word_of_shape(intent, word):
    """'long' could be a length ('1024 long') but is also an element type: data of longs read as float32 would be a
    misreading, so it is in no vocabulary."""
    with pytest.raises(IntentError, match=f"'{word}': not understood"):
        parse_intent(intent)
