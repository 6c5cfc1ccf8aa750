"""The class view's panel of "Is the 80% true?": the class's deals pooled into one sample.

Every student's games as one sample (:func:`~calcnb.lessons.evidence.exercises.pool`), its Wilson interval
drawn against the number of deals as they came in, and the claim's 80% set against it, with the verdict
the interval gives (above, below, or too few deals to tell), then each student's deals and wins. The projector
view shows the pooled sample alone (:func:`projector_html`): the interval drawn against 80%, and no nickname.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from calcnb.classroom.view import escaped
from calcnb.i18n import message
from calcnb.lessons.evidence.exercises import (
    CLAIM,
    PLAYER_KEY,
    Evidence,
    bounds_text,
    percent,
    pool,
    pooled_path,
    rate_text,
)
from calcnb.ui.palette import BLACK, BLUE, PALE_GREY


def evidence_html(evidence: Evidence, games: Sequence[Mapping[str, object]]) -> str:
    """The pooled sample in the teacher's words: deals, wins, rate, the interval, the verdict, and each student's
    deals and wins (nicknames escaped)."""
    if not evidence.deals:
        return f"<p>{html.escape(message('classview.evidence.none'))}</p>"
    # the bounds and the rate as the lab and the pooled picture's words show them: on the side of 80% they are
    bounds = bounds_text(evidence.interval)
    lines = [
        message(
            "classview.evidence.pooled",
            wins=evidence.wins,
            deals=evidence.deals,
            rate=rate_text(evidence.wins, evidence.deals),
            **bounds,
        ),
        message(f"classview.evidence.{evidence.verdict}", claim=percent(CLAIM), **bounds),
    ]
    if evidence.repeated:
        lines.append(message("classview.evidence.repeated", count=evidence.repeated))
    said = "".join(f"<p class='calcnb-evidence-{index}'><b>{html.escape(line)}</b></p>" if index < 2 else
                   f"<p>{html.escape(line)}</p>" for index, line in enumerate(lines))  # fmt: skip
    deals, wins = Counter(), Counter()
    for game in games:
        if game["player"] == PLAYER_KEY:
            deals[game["nickname"]] += 1
            wins[game["nickname"]] += bool(game["won"])
    head = "".join(f"<th>{html.escape(message(key))}</th>" for key in ("classview.evidence.student",
                   "classview.evidence.deals", "classview.evidence.wins"))  # fmt: skip
    rows = "".join(f"<tr><td>{escaped(name)}</td><td>{deals[name]}</td><td>{wins[name]}</td></tr>" for name in deals)
    return said + f"<table class='calcnb-evidence-students'><tr>{head}</tr>{rows}</table>"


def projector_html(games: Sequence[Mapping[str, object]]) -> str:
    """The class's pooled deals for the projector: the sample and its interval in words, the interval drawn as a
    band on a line from 0% to 100% with the claim's 80% marked, and the verdict; no nickname, no student's deals."""
    evidence = pool(games)
    title = (
        f'<h3 style="font-size:1.1em;margin:0.6em 0 0.2em 0">{html.escape(message("classview.evidence.title"))}</h3>'
    )
    if not evidence.deals:
        return title + f"<p>{html.escape(message('classview.evidence.none'))}</p>"
    bounds = bounds_text(evidence.interval)
    pooled = message(
        "classview.evidence.pooled",
        wins=evidence.wins,
        deals=evidence.deals,
        rate=rate_text(evidence.wins, evidence.deals),
        **bounds,
    )
    verdict = message(f"classview.evidence.{evidence.verdict}", claim=percent(CLAIM), **bounds)
    low, high = evidence.interval
    claim = html.escape(percent(CLAIM))
    line = (
        '<div class="calcnb-projector-interval" style="position:relative;height:2.6em;margin:1.2em 0 0.4em 0;'
        f'max-width:40em"><div style="position:absolute;top:1em;left:0;right:0;height:0.6em;background:{PALE_GREY}">'
        f'<div style="position:absolute;left:{100 * low:.2f}%;width:{100 * (high - low):.2f}%;height:100%;'
        f'background:{BLUE}"></div></div>'
        f'<div style="position:absolute;left:{100 * CLAIM:.2f}%;top:0.4em;height:1.8em;border-left:4px solid {BLACK}">'
        f'</div><div style="position:absolute;left:{100 * CLAIM:.2f}%;top:-1.1em;transform:translateX(-50%)">'
        f"<b>{claim}</b></div>"
        '<div style="position:absolute;left:0;top:1.7em">0%</div><div style="position:absolute;right:0;top:1.7em">'
        "100%</div></div>"
    )
    return (
        f'<section class="calcnb-projector-evidence">{title}<p style="margin:0.2em 0">{html.escape(pooled)}</p>'
        f'{line}<p style="margin:0.2em 0"><b>{html.escape(verdict)}</b></p></section>'
    )


class EvidencePanel:
    """The pooled deals of the class: a heading, the sentence and the picture, hidden until there are games."""

    def __init__(self) -> None:
        from calcnb.ui.play import Picture

        self.evidence: Evidence | None = None  # the class's pooled deals at the last reading
        self.title = widgets.HTML(f"<h4>{html.escape(message('classview.evidence.title'))}</h4>")
        self.text = widgets.HTML()
        self.text.add_class("calcnb-evidence-pooled")
        self.picture = Picture(width="576px", max_width="100%")
        self.text.layout.flex = "1 1 20em"
        self.text.layout.padding = "0 0 0 1em"
        # the picture and the words side by side: a laptop's screen shows them, and the table below them, at once
        beside = widgets.HBox([self.picture, self.text])
        beside.layout.flex_flow = "row wrap"
        beside.layout.align_items = "flex-start"
        self.widget = widgets.VBox([self.title, beside])
        self.widget.layout.display = "none"

    def show(self, games: list[dict[str, Any]]) -> None:
        """Pool ``games`` (the class log's) and show the sample, its interval and the verdict."""
        from calcnb.lessons.evidence.widgets import draw_pooled, png, pooled_alt  # matplotlib, only when drawn

        self.evidence = pool(games)
        path = pooled_path(games)
        # the picture first: a page whose sentence has changed already shows the picture of those deals
        self.picture.show(png(draw_pooled(path)), pooled_alt(path))
        self.text.value = evidence_html(self.evidence, games)
        self.widget.layout.display = None
