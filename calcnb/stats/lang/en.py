"""The words of calcnb.stats in English, by key: the reference every other language translates.

Found by ``calcnb.i18n.add_words``; ``python -m calcnb.i18n en`` lists every word of the language.
"""

MESSAGES: dict[str, str] = {
    "study.bad_successes": "successes must be between 0 and the number of trials ({trials}); got {successes}",
}
