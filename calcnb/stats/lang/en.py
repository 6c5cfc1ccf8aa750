"""The words of calcnb.stats in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    "study.bad_successes": "successes must be between 0 and the number of trials ({trials}); got {successes}",
}
