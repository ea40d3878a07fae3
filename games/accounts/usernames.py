"""What a username looks like: its skeletons, so that two names a reader cannot
tell apart ("alice" and "аlice" with a Cyrillic а, "Bob" and "bob", "aIice"
with a capital I) cannot both be taken.

A small table after Unicode's confusables (UTS #39): the Cyrillic and Greek
letters that look like Latin ones, and the digits that look like letters.
The name is NFKC-normalised first (as Django stores usernames). Two names
clash when they share a skeleton: read case-blind (case-folded, then each
lookalike mapped), or read by shape (each lookalike mapped as written, a
capital I being an l, then case-folded).
"""

from __future__ import annotations

import unicodedata

#: Each character to the Latin letter(s) it passes for, before case-folding
#: (so an uppercase Cyrillic Н, which looks like H, is "h", and a lowercase
#: Greek ν, which looks like v, is "v").
LOOKALIKES = {
    # Cyrillic
    "А": "a", "а": "a", "В": "b", "Ь": "b", "С": "c", "с": "c", "Ԁ": "d", "ԁ": "d", "Е": "e", "е": "e",
    "Ё": "e", "ё": "e", "Һ": "h", "һ": "h", "Н": "h", "І": "l", "і": "i", "Ї": "l", "ї": "i", "Ј": "j",
    "ј": "j", "К": "k", "к": "k", "М": "m", "Ο": "o", "О": "o", "о": "o", "Р": "p", "р": "p", "Ԛ": "q",
    "ԛ": "q", "Ѕ": "s", "ѕ": "s", "Т": "t", "Ү": "y", "у": "y", "Ԝ": "w", "ԝ": "w", "Х": "x", "х": "x",
    "ӏ": "l", "Ӏ": "l",
    # Greek
    "Α": "a", "α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "l", "ι": "i", "Κ": "k", "κ": "k",
    "Μ": "m", "Ν": "n", "ν": "v", "ο": "o", "Ρ": "p", "ρ": "p", "Τ": "t", "τ": "t", "Υ": "y", "υ": "u",
    "Χ": "x", "χ": "x", "ϲ": "c", "Ϲ": "c", "ϳ": "j",
    # Latin and digits that pass for one another
    "I": "l", "1": "l", "|": "l", "0": "o",
}  # fmt: skip

#: Letter pairs read as one letter.
PAIRS = {"rn": "m", "vv": "w"}


def _mapped(text: str) -> str:
    text = "".join(LOOKALIKES.get(char, char) for char in text)
    for pair, letter in PAIRS.items():
        text = text.replace(pair, letter)
    return text


def skeletons(name: str) -> frozenset[str]:
    """The forms of ``name`` its lookalikes share: two names clash if they have one in common."""
    text = unicodedata.normalize("NFKC", name)
    return frozenset({_mapped(text.casefold()), _mapped(text).casefold()})
