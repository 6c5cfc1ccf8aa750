"""English: the lookup's own messages and those with no better owner, by key, and the answer words.

The reference catalogue: every other language translates these keys, and a key missing elsewhere falls back
to the English text here. Sections name the module that uses them. Every other package keeps its words in
its own ``lang/`` folder (see :func:`calcnb.i18n.add_words`); ``python -m calcnb.i18n en`` lists them all.
Its style note (register, terms, numbers) is in ``docs/translation.md``.
"""

NAME = "English"
"""The language's name in itself, as the language switch lists it."""

MESSAGES: dict[str, str] = {
    # calcnb.i18n
    "language.unknown": "unknown language {language}: calcnb speaks {choices}",
    "language.choice": "{code} ({name})",
}

ANSWER_WORDS: dict[str, tuple[str, ...]] = {
    # rank names a student may type for a rank (with the letters A, T, J, Q, K of every language)
    "ace": ("a", "ace"),
    "ten": ("t", "ten"),
    "jack": ("j", "jack"),
    "queen": ("q", "queen"),
    "king": ("k", "king"),
    # an article before a rank name or a foundation ("the king") changes nothing
    "article": ("the", "a", "an"),
    # words round an answer that change nothing: a noun or a unit ("card J", "4 steps")
    "filler": ("card", "cards", "the card", "step", "steps", "more", "more steps", "more cards", "jumps", "jump"),
    # "no card fits"
    "none": (
        "none",
        "nothing",
        "no card",
        "no cards",
        "no rank",
        "no ranks",
        "none of them",
        "no more",
        "no more cards",
        "complete",
    ),
    # "I don't know": never right, never wrong (marks such as "-" and "?" mean it in every language)
    "dont_know": (
        "idk",
        "i don't know",
        "i dont know",
        "don't know",
        "dont know",
        "dunno",
        "no idea",
        "not sure",
        "i'm not sure",
        "no clue",
    ),
    # every foundation that takes the card ("both" where two do)
    "both": ("both", "both of them", "either", "either one", "all", "all of them"),
    # the word for a foundation, which may come before its number ("foundation 3")
    "foundation": ("foundation", "foundations", "f"),
    # the word for a place, which may come before or after it ("place 12", "12th place")
    "place": ("place", "position", "card number", "number"),
    # places written in words
    "place_1": ("first",),
    "place_2": ("second",),
    "place_3": ("third",),
    "place_4": ("fourth",),
    "place_5": ("fifth",),
    "place_6": ("sixth",),
    "place_7": ("seventh",),
    "place_8": ("eighth",),
    "place_9": ("ninth",),
    "place_10": ("tenth",),
    "place_11": ("eleventh",),
    "place_12": ("twelfth",),
    "place_13": ("thirteenth", "last"),
    # "a waste pile"
    "waste": ("waste", "w", "a waste", "waste pile"),
    "yes": ("yes", "y"),
    "no": ("no", "n"),
    # words joining two foundations in one answer ("1 and 3")
    "and": ("and",),
    "or": ("or",),
    # words round a share ("about 0.7", "70 percentage points")
    "rate_word": (
        "about",
        "roughly",
        "around",
        "approximately",
        "approx",
        "≈",
        "~",
        "rate",
        "win rate",
        "the rate",
        "points",
        "percentage points",
        "percent",
        "wide",
        "width",
    ),
    # words between an interval's bounds ("between 0.4 and 0.6")
    "interval_word": ("to", "and", "between", "from", "interval", "ci"),
    # words that may stand before a choice's letter ("option d")
    "choice_word": ("option", "choice", "answer", "letter", "the answer is", "my answer is", "it is", "it's"),
    # the choices on a claim, and on two intervals
    "claim_above": (
        "above",
        "more",
        "more than 80%",
        "above 80%",
        "it wins more than 80%",
        "true",
        "the claim is true",
    ),
    "claim_below": (
        "below",
        "less",
        "less than 80%",
        "below 80%",
        "it wins less than 80%",
        "false",
        "the claim is false",
    ),
    "claim_proven": ("proven", "80% is proven", "it is proven", "the interval holds 80%, so 80% is proven"),
    "claim_unclear": (
        "we cannot tell",
        "they cannot tell",
        "the deals cannot tell",
        "too few deals to tell",
        "too few deals",
        "too few to tell",
        "too few",
        "not enough deals",
        "can't tell",
        "cannot tell",
        "can not tell",
        "unclear",
        "we can't tell",
        "it can't tell",
        "not enough data",
        "inconclusive",
        "undecided",
    ),
    "compare_same": ("the same", "same", "equal", "equally often", "they win equally often", "no difference"),
    "compare_different": (
        "different",
        "the first",
        "the first wins more",
        "the first player",
        "first",
        "the first player wins more often",
    ),
    "compare_unclear": (
        "we cannot tell",
        "we can't tell",
        "they cannot tell",
        "the deals cannot tell",
        "cannot tell",
        "can't tell",
        "can not tell",
        "too few deals to tell",
        "too few deals",
        "not enough deals",
        "unclear",
        "inconclusive",
        "these deals cannot tell",
        "we can't tell",
    ),
}
"""The words a student may type in an answer, by kind: every language's words are accepted everywhere."""
