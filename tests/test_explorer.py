"""The orders on a clock: computations for 13, 12 and 16 ranks (calcnb.exercises.orders), drawing, widget."""

import math
import subprocess
import sys

import pytest
from matplotlib.text import Annotation

from calcnb import set_language
from calcnb.exercises.orders import OrderWalk, broken_steps, rank_label, walk
from calcnb.game.cards import foundation_order, next_rank, position_in_order
from calcnb.ui.explorer import OrderExplorer, draw_walk, walk_png


def test_the_order_arithmetic_loads_without_widgets_or_matplotlib():
    code = "import sys, calcnb.exercises.orders; print(sorted({'ipywidgets', 'matplotlib'} & set(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("step", range(1, 13))
def test_thirteen_ranks_every_step_reaches_every_rank_and_ends_in_king(step):
    order = walk(step, 13)
    assert sorted(order.visited) == list(range(1, 14))
    assert order.reaches_every_rank and order.missed == ()
    assert order.closes_after == 13
    assert order.last == 13
    assert next_rank(order.last, step) == order.first  # the count really closes there
    assert order.common_factor == 1
    assert step * order.inverse % 13 == 1


@pytest.mark.parametrize("step", (1, 2, 3, 4))
def test_places_agree_with_the_modular_inverse(step):
    order = walk(step, 13)
    for rank in range(1, 14):
        assert order.place_of(rank) == position_in_order(rank, step)


def test_the_game_orders_of_the_seed():
    assert walk(2).visited == (2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13)
    assert walk(3).visited == (3, 6, 9, 12, 2, 5, 8, 11, 1, 4, 7, 10, 13)
    assert walk(4).visited == (4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9, 13)


def test_twelve_ranks_break_steps_sharing_a_factor():
    two = walk(2, 12)
    assert two.visited == (2, 4, 6, 8, 10, 12)
    assert not two.reaches_every_rank
    assert two.missed == (1, 3, 5, 7, 9, 11)
    assert two.closes_after == 6 and two.common_factor == 2 and two.inverse is None
    assert two.place_of(3) is None
    assert walk(3, 12).visited == (3, 6, 9, 12)
    assert walk(4, 12).visited == (4, 8, 12)
    assert walk(5, 12).reaches_every_rank and walk(5, 12).inverse == 5  # 5 × 5 = 25 ≡ 1 (mod 12)
    assert broken_steps(12) == (2, 3, 4, 6, 8, 9, 10)


def test_sixteen_ranks_break_every_even_step():
    assert walk(2, 16).closes_after == 8
    assert walk(4, 16).visited == (4, 8, 12, 16)
    assert walk(3, 16).reaches_every_rank and walk(3, 16).closes_after == 16
    assert broken_steps(16) == (2, 4, 6, 8, 10, 12, 14)
    assert broken_steps(13) == ()


@pytest.mark.parametrize("ranks", range(2, 25))
def test_an_order_closes_after_ranks_over_the_common_factor(ranks):
    for step in range(1, 2 * ranks + 1):
        order = walk(step, ranks)
        assert order.closes_after == ranks // math.gcd(step, ranks)
        assert order.visited == foundation_order(step, ranks)
        assert len(set(order.visited)) == order.closes_after  # no rank twice before closing
        assert set(order.visited) | set(order.missed) == set(range(1, ranks + 1))


def test_bad_step_or_ranks_are_refused():
    with pytest.raises(ValueError, match="step"):
        walk(0, 13)
    with pytest.raises(ValueError, match="ranks"):
        walk(2, 1)


def test_findings_in_words():
    text = str(walk(2, 12))
    assert "2 → 4 → 6 → 8 → 10 → 12" in text
    assert "1, 3, 5, 7, 9, 11" in text
    assert "factor 2" in text
    thirteen = str(walk(2, 13))
    assert "2 → 4 → 6 → 8 → 10 → Q → A" in thirteen
    assert "13 is prime" in thirteen
    assert "2 × 7 = 14" in thirteen


def test_rank_labels():
    assert [rank_label(r) for r in (1, 10, 11, 13)] == ["A", "10", "J", "K"]
    assert rank_label(13, 16) == "13" and rank_label(1, 12) == "1"


def _texts(figure):
    return [text.get_text() for ax in figure.axes for text in ax.texts] + [ax.get_title() for ax in figure.axes]


@pytest.mark.parametrize(("step", "ranks"), [(2, 13), (2, 12), (6, 16), (1, 2)])
def test_the_clock_shows_every_rank_and_every_place(step, ranks):
    order = walk(step, ranks)
    figure = draw_walk(order)
    texts = _texts(figure)
    for rank in range(1, ranks + 1):
        assert rank_label(rank, ranks) in texts
    for place in range(1, order.closes_after + 1):
        assert f"#{place}" in texts
    assert f"#{order.closes_after + 1}" not in texts
    ax = figure.axes[0]
    hollow = [line for line in ax.lines if line.get_markerfacecolor() == "white"]
    assert len(hollow) == len(order.missed)
    assert len([child for child in ax.texts if isinstance(child, Annotation)]) == order.closes_after
    assert f"Step {step} on a clock of {ranks} ranks" in texts


def test_png_and_drawing_from_a_step():
    assert walk_png(3, 16).startswith(b"\x89PNG")
    assert isinstance(draw_walk(4).axes[0].get_title(), str)


def test_explorer_follows_its_number_fields():
    explorer = OrderExplorer(step=2, ranks=13)
    assert explorer.walk == walk(2, 13)
    first_image = explorer.png
    assert first_image.startswith(b"\x89PNG")
    assert 'alt="Ranks visited, in order: 2 → 4 → 6' in explorer.image.value  # the picture's text alternative
    explorer.ranks_input.value = 12
    assert explorer.walk == walk(2, 12)
    assert "never reached: 1, 3, 5, 7, 9, 11" in explorer.text
    assert explorer.png != first_image
    explorer.step_input.value = 5
    assert explorer.walk.reaches_every_rank
    assert "5 → 10 → 3" in explorer.findings.value


def test_explorer_in_portuguese():
    set_language("pt")
    explorer = OrderExplorer(step=2, ranks=16)
    assert explorer.step_input.description == "Passo"
    assert explorer.ranks_input.description == "Valores"
    assert "Valores visitados, por ordem" in explorer.text
    assert "nunca alcançados" in explorer.text
    assert "Passo 2 num relógio de 16 valores" in _texts(draw_walk(explorer.walk))


def test_explorer_refresh_switches_language():
    explorer = OrderExplorer()
    set_language("pt")
    explorer.refresh()
    assert explorer.step_input.description == "Passo"
    assert "fecha" in explorer.text


def test_walk_is_a_value():
    assert isinstance(walk(2), OrderWalk)
    assert walk(2) == walk(2) and hash(walk(2)) == hash(walk(2))


def test_the_explorer_refuses_a_picture_that_shows_an_unanswered_exercise():
    from calcnb.game.cards import modular_inverse
    from calcnb.lessons import BANK
    from calcnb.ui.lesson import Quiz

    quiz = Quiz(BANK, seed="Ana")
    explorer = OrderExplorer(step=2, quiz=quiz)
    groups = quiz.show("nth-card", "visits", "inverse")
    nth, visits, inverse = groups.exercises
    (_place, step) = BANK["nth-card"].variants[nth.item.variant]
    explorer.step_input.value = step
    assert explorer.refused == nth.item.question and explorer.png == b""
    assert nth.item.solution not in explorer.findings.value and "→" not in explorer.findings.value
    explorer.step_input.value = step + 13  # the same order, by another name
    assert explorer.refused == nth.item.question
    nth.check(nth.item.solution)  # answered: the picture opens at once
    assert explorer.refused is None and explorer.png and "→" in explorer.findings.value
    # the inverse's step on the clock of 13 (the place of A in +k is k⁻¹)
    (inverse_step,) = BANK["inverse"].variants[inverse.item.variant]
    explorer.step_input.value = inverse_step
    assert explorer.refused == inverse.item.question
    assert f"× {modular_inverse(inverse_step)} " not in explorer.findings.value
    # every step on the visits exercise's own clock
    (_visit_step, ranks) = BANK["visits"].variants[visits.item.variant]
    explorer.ranks_input.value = ranks
    for other in range(1, ranks):
        explorer.step_input.value = other
        assert explorer.refused == visits.item.question
    explorer.ranks_input.value = 12 if ranks != 12 else 16  # other clocks stay open
    assert explorer.refused is None


def test_without_a_quiz_the_explorer_refuses_nothing():
    explorer = OrderExplorer(step=4, ranks=13)
    assert explorer.refused is None and "4 × 10 = 40" in explorer.text
