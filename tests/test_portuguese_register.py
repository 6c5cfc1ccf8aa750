"""Portuguese speaks to a pupil as "tu", on every page a pupil sees.

Portuguese school material addresses a pupil as "tu" ("Tenta de novo", "O teu professor", "Nada mais sobre
ti"), never as "você" ("Tente de novo", "O seu professor", "Nada mais sobre si"). This scans the pupils'
Portuguese notebooks (their markdown and their code comments) and every Portuguese catalogue entry except the
teacher-facing ones (:data:`TEACHER_FACING`, which may keep the formal register), and names the key or the
cell of each formal word it finds. The register and the game's words are set out in the style note in
``docs/translation.md``.
"""

from __future__ import annotations

import importlib
import io
import json
import pkgutil
import re
import tokenize
from pathlib import Path

import pytest

import calcnb
from calcnb.i18n import catalogue, get_language, message, set_language

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks" / "pt"
PUPIL_NOTEBOOKS = sorted(NOTEBOOKS.glob("*.ipynb"))  # notebooks/pt/teacher/ holds the teacher's notes

TEACHER_FACING = (
    "classview.",  # the teacher's live class view
    "app.",  # the command line the teacher types (python -m calcnb app, lab, lessons, class-view)
    "lessons.teacher_",  # the answer key in the teacher's notebook
    "catalogue.heading",  # python -m calcnb lessons: the list of lessons, with the commands that serve them
    "catalogue.line",
    "catalogue.no_teacher_notes",
    "classlog.",  # the class log's errors: the teacher's, who starts the app and the class view on it
    "classroom.terminal_",  # printed in the teacher's terminal when a pupil joins
)
"""Prefixes of the Portuguese keys only a teacher reads (a whole key is its own prefix): these may keep the
formal register ("você", "o seu", "Indique"). Every other key is read by a pupil, or by whoever plays."""

PUPIL_FACING_ANYWAY = ("classlog.bad_nickname",)
"""Keys under a teacher-facing prefix that a pupil reads all the same (a nickname refused on joining the class)."""

FORMAL_IMPERATIVES = {
    # the formal imperative (third person) as it would open a sentence, and what a pupil is told instead
    "Abra": "Abre",
    "Adivinhe": "Adivinha",
    "Aponte": "Aponta",
    "Avance": "Avança",
    "Avise": "Avisa",
    "Calcule": "Calcula",
    "Carregue": "Carrega",
    "Clique": "Clica",
    "Coloque": "Coloca",
    "Comece": "Começa",
    "Compare": "Compara",
    "Confirme": "Confirma",
    "Construa": "Constrói",
    "Conte": "Conta",
    "Continue": "Continua",
    "Corra": "Corre",
    "Dê": "Dá",
    "Deixe": "Deixa",
    "Diga": "Diz",
    "Divida": "Divide",
    "Escolha": "Escolhe",
    "Escreva": "Escreve",
    "Espere": "Espera",
    "Estime": "Estima",
    "Experimente": "Experimenta",
    "Faça": "Faz",
    "Feche": "Fecha",
    "Imagine": "Imagina",
    "Indique": "Indica",
    "Jogue": "Joga",
    "Junte": "Junta",
    "Leia": "Lê",
    "Mantenha": "Mantém",
    "Mova": "Move",
    "Mude": "Muda",
    "Multiplique": "Multiplica",
    "Olhe": "Olha",
    "Pare": "Para",
    "Partilhe": "Partilha",
    "Peça": "Pede",
    "Pense": "Pensa",
    "Percorra": "Percorre",
    "Ponha": "Põe",
    "Procure": "Procura",
    "Recarregue": "Recarrega",
    "Repare": "Repara",
    "Responda": "Responde",
    "Suponha": "Supõe",
    "Tente": "Tenta",
    "Tire": "Tira",
    "Use": "Usa",
    "Veja": "Vê",
    "Vire": "Vira",
    "Volte": "Volta",
}
"""Formal imperatives, each with its "tu" form. "Entre" is left out: at the start of a clause it is as often the
preposition ("entre 1 e 12") as "come in"."""

FORMAL_WORDS = {
    r"\bvocês?\b": '"você"',
    r"\b(?:seu|sua|seus|suas)\b": '"o seu", "a sua", "os seus", "as suas" (to a pupil: "o teu", "a tua"...)',
    r"(?<!entre )\bsi\b": '"si", as in "sobre si" (to a pupil: "ti")',
    r"\bconvosco\b": '"convosco"',
    r"\bvai (?:saber|ser capaz)\b": '"vai saber" (to a pupil: "vais saber")',
}
"""Formal words anywhere in a sentence, and what they are."""

ALLOWED: dict[str, str] = {
    # an exact string where "seu"/"sua" is a third party's, not the pupil's: the reason
}
"""Exact strings the scan accepts, each with its reason: an "o seu"/"a sua" that belongs to a third party ("a base
e a sua ordem"). It is empty: every such sentence read as well rephrased ("a ordem dessa base", "a 13.ª carta
dela", "cada base conta com o próprio passo"), which a pupil addressed as "tu" cannot misread. Keep it short."""

# A clause starts at the start of the text or of a line (less a list mark or a heading), after . ! ? : ; (,
# after **, and after "e", "ou", "depois" that join two instructions ("tire 13 e veja o que resta").
_CLAUSE_START = r"(?:(?:^|\n)\s*(?:[-*>#]+\s*|\d+\.\s*)?|[.!?:;(]\s*|\*\*\s*|\b(?:e|ou|depois)\s+)"
_IMPERATIVE = re.compile(
    _CLAUSE_START + r"(" + "|".join(sorted(FORMAL_IMPERATIVES, key=len, reverse=True)) + r")\b", re.IGNORECASE
)


def formal_words(text: str, allowed_strings: dict[str, str] = ALLOWED) -> list[str]:
    """Every formal word or imperative in ``text`` that speaks to the reader as "você" (less ``allowed_strings``)."""
    for allowed in allowed_strings:
        text = text.replace(allowed, "")
    found = [match.group(1) for match in _IMPERATIVE.finditer(text)]
    for pattern in FORMAL_WORDS:
        found += [match.group(0) for match in re.finditer(pattern, text, re.IGNORECASE)]
    return found


def _pupil_catalogue() -> dict[str, str]:
    for module in pkgutil.iter_modules(calcnb.__path__):  # every module registers its messages on import
        if module.name != "__main__":
            importlib.import_module(f"calcnb.{module.name}")
    return {
        key: text
        for key, text in catalogue("pt").items()
        if not key.startswith(TEACHER_FACING) or key in PUPIL_FACING_ANYWAY
    }


def _pupil_cells(path: Path) -> list[tuple[str, str]]:
    """The markdown and the code comments of a notebook, each named by its cell's id."""
    said = []
    for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        name = f"{path.name} cell {cell.get('id', number)}"
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            said.append((name, source))
        elif cell["cell_type"] == "code":
            tokens = tokenize.generate_tokens(io.StringIO(source).readline)
            said += [(name, token.string.lstrip("#").strip()) for token in tokens if token.type == tokenize.COMMENT]
    return said


# The issue's examples: what a pupil was told, and what a pupil is told in Portuguese school material.
ISSUE_EXAMPLES = [
    ("No fim desta aula vai saber", "No fim desta aula vais saber"),
    ("O seu professor está a recolher as respostas.", "O teu professor está a recolher as respostas."),
    ("✗ Não é 4: conta outra vez. Tente de novo.", "✗ Não é 4: conta outra vez. Tenta de novo."),
    ("Nada mais sobre si.", "Nada mais sobre ti."),
    ("Escreva uma resposta e carregue em Verificar.", "Escreve uma resposta e carrega em Verificar."),
    ("quase: volte a tirar 13, e veja o que resta.", "quase: volta a tirar 13, e vê o que resta."),
    ("- Clique no monte para virar uma carta.", "- Clica no monte para virar uma carta."),
    ("Qual escolheria? A sugestão só vê o que você vê.", "Qual escolherias? A sugestão só vê o que tu vês."),
]


@pytest.mark.parametrize(("formal", "familiar"), ISSUE_EXAMPLES)
def test_the_scan_finds_the_formal_register_and_lets_tu_pass(formal, familiar):
    assert formal_words(formal)
    assert formal_words(familiar) == []


def test_an_allowed_string_is_accepted_and_nothing_else():
    allowed = {"a base e a sua ordem": "the foundation's order, not the pupil's"}
    assert formal_words("Olha para a base e a sua ordem.", allowed) == []
    assert formal_words("Olha para a base e a sua ordem, e a sua resposta.", allowed) == ["sua"]


def test_the_scan_lets_a_third_partys_words_and_prepositions_pass():
    for text in (
        "entre 1 e 12",
        "(entre {low} e {high}; 32 futuros)",
        "Para mostrar mais de 80%",
        "A base dela",
        "os dois intervalos sobrepõem-se entre si",
        "para que o teu professor veja",
        "Usar",
    ):
        assert formal_words(text) == [], text


def test_each_formal_imperative_has_a_different_tu_form_and_the_catalogue_uses_tu_forms():
    """The list is checked against the text: each word's "tu" form differs from it, and the pupils' catalogue
    uses the "tu" form of its common instructions (so the list names the words the catalogue really says)."""
    assert all(formal.lower() != familiar.lower() for formal, familiar in FORMAL_IMPERATIVES.items())
    texts = " ".join(_pupil_catalogue().values())
    used = {familiar for familiar in FORMAL_IMPERATIVES.values() if re.search(rf"\b{familiar}\b", texts, re.I)}
    assert {"Escreve", "Clica", "Carrega", "Tenta", "Conta", "Põe", "Vê", "Responde", "Começa"} <= used


def test_the_teacher_facing_keys_are_keys():
    keys = catalogue("pt")
    assert all(any(key.startswith(prefix) for key in keys) for prefix in TEACHER_FACING)
    assert all(key in keys and key.startswith(TEACHER_FACING) for key in PUPIL_FACING_ANYWAY)


def test_no_pupil_facing_message_speaks_formally():
    formal = {key: found for key, text in _pupil_catalogue().items() if (found := formal_words(text))}
    assert formal == {}, "Portuguese messages a pupil reads that say 'você': " + json.dumps(
        formal, ensure_ascii=False, indent=1
    )


@pytest.mark.parametrize("path", PUPIL_NOTEBOOKS, ids=lambda path: path.name)
def test_no_pupil_notebook_speaks_formally(path):
    formal = {name: found for name, text in _pupil_cells(path) if (found := formal_words(text))}
    assert formal == {}, f"{path.name} says 'você' to a pupil: " + json.dumps(formal, ensure_ascii=False, indent=1)


CALQUES = ("onde escorregou", "o que repara", "que valor é a sua carta", "baralhos só seus", "estreitá-lo-iam")
"""The stiff phrasings the issue quoted, rewritten as a Portuguese teacher would say them."""


def test_the_calques_are_gone():
    said = [*_pupil_catalogue().items(), *(cell for path in PUPIL_NOTEBOOKS for cell in _pupil_cells(path))]
    assert [(name, calque) for name, text in said for calque in CALQUES if calque in text.lower()] == []


def test_the_pupil_notebooks_are_found():
    assert {path.name for path in PUPIL_NOTEBOOKS} >= {"01_rules.ipynb", "02_wraparound.ipynb", "counting.ipynb"}


def test_the_allowed_strings_are_still_said():
    """An allowed string that no notebook or message says any more is dropped from the list."""
    said = " ".join(_pupil_catalogue().values()) + " ".join(
        text for path in PUPIL_NOTEBOOKS for _, text in _pupil_cells(path)
    )
    assert [allowed for allowed in ALLOWED if allowed not in said] == []


@pytest.fixture
def portuguese():
    before = get_language()
    set_language("pt")
    yield
    set_language(before)


def test_the_refused_answers_agree_with_their_number(portuguese):
    """ "1 das suas respostas não foram guardadas" was wrong: the sentence is right for one answer and for many."""
    one = message("classroom.refused", count=1)
    many = message("classroom.refused", count=3)
    assert one.startswith("O registo da turma recusou 1 das tuas respostas: chegaram demasiadas em pouco tempo")
    assert many.startswith("O registo da turma recusou 3 das tuas respostas: chegaram demasiadas em pouco tempo")
    for text in (one, many):
        assert "foram guardadas" not in text and formal_words(text) == []


@pytest.mark.parametrize("key", ["classroom.saving", "classroom.saved", "classroom.not_reaching"])
def test_the_answers_waiting_and_saved_agree_with_their_number(portuguese, key):
    """A count of answers reads right for 1 as for many: the number stands after a colon or in brackets."""
    for count in (1, 2):
        text = message(key, count=count)
        assert f": {count})" in text or f"({count})" in text or f": {count};" in text, text
        assert not re.search(rf"\b{count} respostas?\b", text), text
