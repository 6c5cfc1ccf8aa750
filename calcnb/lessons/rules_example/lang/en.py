"""The words of calcnb.lessons.rules_example in English, by key: the reference every other language translates.

Found by ``calcnb.i18n.add_words``; ``python -m calcnb.i18n en`` lists every word of the language.
"""

MESSAGES: dict[str, str] = {
    "lessons.mis.buried_card": "takes a card buried in a waste pile",
    "lessons.fits.question": "The turned card is {card}. Which foundation takes it? (1 to 4, or 'waste' if none does.)",
    "lessons.fits.why_one": "{explanation}",
    "lessons.fits.why_many": "{explanation}; it also fits foundation {others}, so you may choose",
    "lessons.fits.why_none": "no foundation needs {rank} now (they need {needs}), so it goes on a waste pile",
    "lessons.fits.waste_but": "a waste pile always takes it, but a foundation needs {rank} now: look at what each one needs.",
    "lessons.fits.waste_wraps": "a waste pile always takes it, but count past K: on one foundation the top card plus the step goes past 13 and wraps round to {rank}.",
    "lessons.fits.not_both": "{card} does not fit two foundations now: look at what each one needs.",
    "lessons.fits.other": "look at the card each foundation needs now: its top card plus its step, round the clock of 13.",
    "lessons.fits.no": "{reason}.",
    "lessons.legal.question": "May you play {move} here? (yes or no)",
    "lessons.legal.question_waste": "May the top card of waste {waste} go to foundation {foundation} now? (yes or no)",
    "lessons.legal.why_yes": "{explanation}",
    "lessons.legal.buried": "{card} would fit foundation {foundation}, but it is buried under {top} in waste {waste}: only the top card of a waste pile may move.",
    "lessons.legal.it_is_illegal": "{reason}.",
    "lessons.legal.it_is_legal": "it is legal; look at what {move} moves and where it goes.",
    "lessons.legal.other": "look at which card the move takes, and at the card that foundation needs now.",
    "catalogue.rules_example.title": "The rules' worked example",
    "catalogue.rules_example.summary": "The worked example of the rules, one step at a time, and questions on its positions: which foundation takes the turned card, and whether a move is legal.",
    "classview.ex.fits-past-the-king": "Which foundation takes the turned card, past K?",
    "classview.ex.fits-two-choices": "Which foundation takes the turned card, when two may?",
    "classview.ex.legal-buried": "May a card under a waste top go to a foundation?",
    "classview.ex.fits-buried": "Which foundation takes the turned card, with a fitting card buried in a waste?",
}
