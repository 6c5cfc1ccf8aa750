"""The words of calcnb.lessons.rules_example in Portuguese, by key (a key missing here is shown in English).

Found by ``calcnb.i18n.add_words``; ``python -m calcnb.i18n pt`` lists every word of the language.
"""

MESSAGES: dict[str, str] = {
    "lessons.mis.buried_card": "tira uma carta enterrada num descarte",
    "lessons.fits.question": "A carta virada é {card}. Que base a aceita? (1 a 4, ou 'descarte' se nenhuma aceita.)",
    "lessons.fits.why_one": "{explanation}",
    "lessons.fits.why_many": "{explanation}; também serve na base {others}, por isso podes escolher",
    "lessons.fits.why_none": "nenhuma base precisa agora de {rank} (precisam de {needs}), por isso vai para um descarte",
    "lessons.fits.waste_but": "um descarte aceita-a sempre, mas uma base precisa agora de {rank}: vê de que precisa cada uma.",
    "lessons.fits.waste_wraps": "um descarte aceita-a sempre, mas conta depois do K: numa das bases a carta do topo mais o passo passa de 13 e volta a {rank}.",
    "lessons.fits.not_both": "{card} não serve agora em duas bases: vê de que precisa cada uma.",
    "lessons.fits.other": "vê de que carta precisa agora cada base: a carta do topo mais o passo dessa base, à volta do relógio de 13.",
    "lessons.fits.no": "{reason}.",
    "lessons.legal.question": "Podes jogar {move} aqui? (sim ou não)",
    "lessons.legal.question_waste": "A carta do topo do descarte {waste} pode ir agora para a base {foundation}? (sim ou não)",
    "lessons.legal.why_yes": "{explanation}",
    "lessons.legal.buried": "{card} serviria na base {foundation}, mas está enterrada sob {top} no descarte {waste}: só a carta do topo de um descarte se pode mover.",
    "lessons.legal.it_is_illegal": "{reason}.",
    "lessons.legal.it_is_legal": "é permitida; vê que carta {move} move e para onde vai.",
    "lessons.legal.other": "vê que carta a jogada move, e de que carta precisa agora essa base.",
    "catalogue.rules_example.title": "O exemplo das regras",
    "catalogue.rules_example.summary": "O exemplo das regras, um passo de cada vez, e perguntas sobre posições como as dele: que base recebe a carta virada, e se uma jogada é permitida.",
    "classview.ex.fits-past-the-king": "Que base aceita a carta virada, depois do K?",
    "classview.ex.fits-two-choices": "Que base aceita a carta virada, quando duas podem?",
    "classview.ex.legal-buried": "Uma carta debaixo do topo de um descarte pode ir para uma base?",
    "classview.ex.fits-buried": "Que base aceita a carta virada, com uma carta que serve enterrada num descarte?",
}
