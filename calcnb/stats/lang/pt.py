"""The words of calcnb.stats in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    "study.bad_successes": "os sucessos vão de 0 ao número de tentativas ({trials}); recebi {successes}",
}
