"""The words of calcnb.stats in Portuguese, by key (a key missing here is shown in English).

Found by ``calcnb.i18n.add_words``; ``python -m calcnb.i18n pt`` lists every word of the language.
"""

MESSAGES: dict[str, str] = {
    "study.bad_successes": "os sucessos vão de 0 ao número de tentativas ({trials}); recebi {successes}",
}
