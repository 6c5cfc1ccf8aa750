"""The one keyed digest a lesson draws a student's own things from: exercise variants, and the deals they play.

A student's variants (:func:`calcnb.exercises.items.ExerciseKind.variant_for`) and the deals a lesson has them
play both follow HMAC-SHA256 under the class's secret key
(:meth:`calcnb.classlog.store.ClassLog.class_key`) of a purpose and the nickname, so nobody can work them
out from a nickname without the teacher's key, and the same nickname always gets the same ones.

>>> student_digest("clock", "Ana  Silva") == student_digest("clock", "ana silva")
True
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["NO_CLASS_KEY", "student_digest", "student_number"]

# The key of a lesson served without a class log: anyone can work out those variants from a name, which is
# harmless there (nothing is recorded). A class log holds a secret key of its own (ClassLog.class_key).
NO_CLASS_KEY = "calcnb: no class log"


def student_digest(purpose: str, seed: object, class_key: str | None = None) -> bytes:
    """HMAC-SHA256 under ``class_key`` (default :data:`NO_CLASS_KEY`) of ``purpose`` and the student's ``seed``.

    ``seed`` is a nickname (or a number drawn per visit); a name counts the same however it is capitalised
    or spaced ("Ana  Silva" is "ana silva").
    """
    name = " ".join(str(seed).split()).casefold()
    secret = (class_key or NO_CLASS_KEY).encode()
    return hmac.new(secret, f"{purpose}\n{name}".encode(), hashlib.sha256).digest()


def student_number(purpose: str, seed: object, count: int, class_key: str | None = None) -> int:
    """A number from 0 to ``count - 1`` drawn from :func:`student_digest` (its first 8 bytes, modulo ``count``)."""
    return int.from_bytes(student_digest(purpose, seed, class_key)[:8], "big") % count
