"""The page side of the play board, its coach and the lessons' clickable pictures: each is one widget drawn by a
Vue template (ipyvue).

A board made of ipywidgets opened 171 widget models (a Button is three: itself, its Layout and its
ButtonStyle), and a visitor's page paid for opening and syncing every one of them. Here the play board
is one :class:`View` and the coach beside it another: two widget models each (the widget and the Layout
every DOM widget has), whatever the number of buttons. The template draws the picture (an ``<img>`` with
its alternative text, whose clicks it measures and sends to Python) and real ``<button>`` elements from the
widget's :attr:`View.controls`: their words, tooltips, disabled states and tones, with the CSS classes pages
find them by (``calcnb-btn-S-F1``). The same front-end module (jupyter-vue) loads in JupyterLab (its
labextension), Voila (the same, when allowed) and Solara (its nbextension; Solara is built on it), offline.
A :class:`PictureView` is a view with such a picture; the templates of other widgets (a lesson's clickable
picture) are made of the same parts: :func:`fill_template`, :func:`button_tags`, :func:`button_loop`,
:func:`picture_tag`.

The templates keep to what Vue 2 and Vue 3 both read (one root element, ``module.exports``), so they do not
depend on the jupyter-vue a page loads; they were checked with ipyvue 3.1 (Vue 3) in JupyterLab, Voila and
Solara. Code drives a view as the page does: :meth:`View.press` is a click on a button, and
``view.buttons[name]`` reads what that button shows (:class:`Control`).
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable, Mapping

import ipywidgets as widgets
from ipyvue import VueTemplate
from traitlets import Dict, Float, Int, List, Unicode

from calcnb.ui.before_run import ShownWhenRun
from calcnb.ui.palette import BLACK, HINT_COLOUR, LEGAL_COLOUR, WHITE

__all__ = [
    "COACH_TEMPLATE",
    "PLAY_TEMPLATE",
    "CoachView",
    "Control",
    "PictureView",
    "PlayView",
    "View",
    "button_loop",
    "button_tags",
    "control",
    "css_class",
    "fill_template",
    "picture_tag",
    "png_size",
]


def css_class(name: str) -> str:
    """The CSS class a page (or a browser test) finds a button by: ``S>F1`` -> ``calcnb-btn-S-F1``."""
    return "calcnb-btn-" + name.replace(">", "-")


class Control:
    """A button of a :class:`View` as code sees it: what it says and shows, and a click on it.

    ``description`` (its words), ``tooltip``, ``disabled``, ``tone`` (``""``, ``"legal"`` or ``"hint"``)
    and ``css_class`` read what the page shows; :meth:`click` does what clicking it does.
    """

    def __init__(self, view: View, name: str) -> None:
        self.view, self.name = view, name

    def __repr__(self) -> str:
        return f"<Control {self.name!r} of {type(self.view).__name__}>"

    def _state(self) -> Mapping[str, object]:
        return self.view.controls.get(self.name, {})

    @property
    def description(self) -> str:
        return str(self._state().get("text", ""))

    @property
    def tooltip(self) -> str:
        return str(self._state().get("tip", ""))

    @property
    def disabled(self) -> bool:
        return bool(self._state().get("disabled", False))

    @property
    def tone(self) -> str:
        return str(self._state().get("tone", ""))

    @property
    def css_class(self) -> str:
        return css_class(self.name)

    def click(self) -> None:
        """Click the button, as a person does (a disabled button clicked from code still runs its action)."""
        self.view.press(self.name)


class View(ShownWhenRun, VueTemplate):
    """A widget drawn by one Vue template, with named buttons: one widget model for the whole of it.

    ``actions`` maps each button's name to what clicking it does. :attr:`controls` is what each button
    shows (its ``text``, ``tip``, ``disabled``, ``tone`` and CSS ``cls``), set with :meth:`show_controls`;
    ``buttons`` has a :class:`Control` for each. The page calls :meth:`vue_press` with a button's name;
    code calls :meth:`press`.
    """

    controls = Dict().tag(sync=True)

    def __init__(self, actions: Mapping[str, Callable[[], None]], **kwargs: object) -> None:
        # The class every ipywidgets view carries in JupyterLab and Voila (their style sheets and tests know a
        # widget by it); the view of a template does not add it itself. Given here, it is in the state the
        # widget opens with, not a message of its own after it.
        classes = ("jupyter-widgets", *kwargs.pop("_dom_classes", ()))  # type: ignore[misc]
        super().__init__(_dom_classes=classes, **kwargs)
        self._actions = dict(actions)
        self.buttons: dict[str, Control] = {name: Control(self, name) for name in self._actions}

    def press(self, name: str) -> None:
        """Do what clicking the button ``name`` does (KeyError when there is no such button)."""
        action = self._actions[name]
        with self.hold_sync():  # whatever the click changes reaches the page in one message
            action()

    def vue_press(self, name: object) -> None:
        """A click on a button in the page: ``name`` is the button's (anything else is ignored)."""
        if isinstance(name, str) and name in self._actions:
            self.press(name)

    def show_controls(self, states: Mapping[str, Mapping[str, object]]) -> None:
        """Show each button's state (``text``, ``tip``, ``disabled``, ``tone``, ``cls``); what is unchanged stays."""
        merged = {name: dict(self.controls.get(name, {}), **state) for name, state in states.items()}
        new = {**self.controls, **merged}
        if new != self.controls:
            self.controls = new


def control(text: str, tip: str = "", *, disabled: bool = False, tone: str = "", cls: str = "") -> dict[str, object]:
    """One button's state, as :attr:`View.controls` holds it."""
    return {"text": text, "tip": tip, "disabled": disabled, "tone": tone, "cls": cls}


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height in pixels of the PNG ``png``, read from its header."""
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk comes first, right after the signature
    return width, height


class PictureView(View):
    """A :class:`View` with a picture that takes clicks (:func:`picture_tag` in its template).

    :meth:`show_picture` shows a PNG with its alternative text (``png`` and ``alt`` keep them); the page
    calls :meth:`vue_board` with where a click landed, and :meth:`board_event` says what it does.
    """

    picture_src = Unicode("").tag(sync=True)
    picture_alt = Unicode("").tag(sync=True)
    picture_width = Int(0).tag(sync=True)
    picture_height = Int(0).tag(sync=True)

    def __init__(self, actions: Mapping[str, Callable[[], None]], **kwargs: object) -> None:
        super().__init__(actions, **kwargs)
        self.png, self.alt = b"", ""

    def show_picture(self, png: bytes, alt: str) -> None:
        """Show the picture ``png`` described by ``alt`` (for a screen reader)."""
        self.png, self.alt = png, alt
        self.picture_width, self.picture_height = png_size(png)  # the box keeps its size while a new picture decodes
        self.picture_src = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        self.picture_alt = alt

    def vue_board(self, data: object) -> None:
        """A click on the picture in the page: where, in CSS pixels of its box, and the box's size."""
        if not isinstance(data, dict):
            return
        try:
            x, y, width = float(data["x"]), float(data["y"]), float(data["width"])
        except (KeyError, TypeError, ValueError):
            return
        with self.hold_sync():
            self.board_event(str(data.get("type", "click")), x, y, width)

    def board_event(self, kind: str, x: float, y: float, width: float) -> None:
        """A click (``kind``: ``click`` or ``dblclick``) at ``x``, ``y`` CSS pixels on the picture, ``width`` wide."""
        raise NotImplementedError


# ------------------------------------------------------------ the look, shared

# Buttons look like ipywidgets' (whose classes they also carry, so the notebook's theme applies where its
# style sheet is on the page); each value falls back to ipywidgets' own where the theme's variables are missing.
_BUTTON_STYLE = """
.calcnb-view button.calcnb-button {
  box-sizing: border-box; margin: 2px; padding: 0 10px; height: 28px; line-height: 28px; border: none;
  font-size: var(--jp-widgets-font-size, 13px); white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; text-align: center; cursor: pointer; user-select: none;
  color: var(--jp-ui-font-color1, rgba(0, 0, 0, 0.87)); background-color: var(--jp-layout-color2, #eeeeee);
}
.calcnb-view button.calcnb-button:disabled { opacity: var(--jp-widgets-disabled-opacity, 0.6); cursor: default; }
.calcnb-view button.calcnb-button:focus-visible {
  outline: 2px solid var(--jp-brand-color1, #1976d2); outline-offset: 1px;
}
.calcnb-view button.calcnb-legal { background-color: @LEGAL@; color: @LEGAL_INK@; }
.calcnb-view button.calcnb-hint { background-color: @HINT@; color: @HINT_INK@; }
.calcnb-view .calcnb-field { display: flex; align-items: center; box-sizing: border-box; margin: 2px; max-width: 100%; }
.calcnb-view .calcnb-field-name {
  flex: 0 0 auto; margin-right: 8px; text-align: right; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
.calcnb-view .calcnb-field input, .calcnb-view .calcnb-field select {
  flex: 1 1 auto; min-width: 0; box-sizing: border-box; height: 28px; padding: 0 4px 0 8px;
  font-size: var(--jp-widgets-font-size, 13px); color: var(--jp-widgets-input-color, rgba(0, 0, 0, 0.87));
  background-color: var(--jp-widgets-input-background-color, white);
  border: 1px solid var(--jp-widgets-input-border-color, #bdbdbd);
}
.calcnb-view .calcnb-field select { appearance: auto; -webkit-appearance: menulist; }  /* an arrow, whatever resets */
.calcnb-view {
  box-sizing: border-box; font-size: var(--jp-widgets-font-size, 13px);
  line-height: var(--jp-widgets-inline-height, 28px); color: var(--jp-widgets-color, rgba(0, 0, 0, 0.87));
}
"""

# A picture that takes clicks (picture_tag): the <img> and the box around it that measures them.
_PICTURE_STYLE = """/* The picture keeps its box's size while a new one decodes, and takes no pointer events: a click
   lands on the box around it, which stays, and is measured against it. */
.calcnb-view .calcnb-board-image {
  display: block; width: 100%; height: auto; pointer-events: none; user-select: none;
}"""

_PICTURE_SCRIPT = """<script>
module.exports = {
  methods: {
    on_board(event, type) {
      // where on the picture's box, in CSS pixels, with the box's size: Python turns it into a place
      const box = event.currentTarget.getBoundingClientRect();
      this.board({type: type, x: event.clientX - box.left, y: event.clientY - box.top, width: box.width,
                  height: box.height});
    },
  },
};
</script>"""


# One button, drawn from controls[NAME]: its words, tooltip, disabled state, tone and classes.
_BUTTON = (
    "<button type=\"button\" :class=\"['jupyter-button', 'calcnb-button', controls[NAME].cls, "
    "controls[NAME].tone ? 'calcnb-' + controls[NAME].tone : '']\" :disabled=\"controls[NAME].disabled\" "
    ':title="controls[NAME].tip" @click="press(NAME)">{{ controls[NAME].text }}</button>'
)


def button_tags(*names: str) -> str:
    """The buttons ``names``, each drawn from its state in ``controls``."""
    return "".join(_BUTTON.replace("NAME", f"'{name}'") for name in names)


def button_loop(names: str, attributes: str = "") -> str:
    """A button for each name of the Vue expression ``names`` (``row.names``, ``['a', 'b']``), each drawn from its
    state in ``controls``, with ``attributes`` added to each (``:aria-pressed="controls[name].pressed"``)."""
    loop = f'<button v-for="name in {names}" :key="name" ' + (f"{attributes} " if attributes else "")
    return _BUTTON.replace("NAME", "name").replace("<button ", loop)


def picture_tag(*events: str, cls: str = "") -> str:
    """The picture of a :class:`PictureView` in its box (CSS classes ``calcnb-board`` and ``cls``), whose ``events``
    (``click``, ``dblclick``) go to Python where they land; a template with it has ``@PICTURE_SCRIPT@`` too."""
    handlers = "".join(f" @{event}=\"on_board($event, '{event}')\"" for event in events)
    return (
        f'<div class="{" ".join(["calcnb-board", *cls.split()])}"{handlers}>\n'
        '          <img class="calcnb-board-image" :src="picture_src" :alt="picture_alt" :width="picture_width"\n'
        '               :height="picture_height" draggable="false">\n'
        "        </div>"
    )


def fill_template(text: str, **parts: str) -> str:
    """``text`` with each ``@NAME@`` replaced by ``parts[NAME]``, the palette's colours and the shared parts:
    ``@BUTTON_STYLE@`` (the buttons' look), ``@PICTURE_STYLE@`` and ``@PICTURE_SCRIPT@`` (a picture's)."""
    parts = {
        "LEGAL": LEGAL_COLOUR,
        "LEGAL_INK": WHITE,
        "HINT": HINT_COLOUR,
        "HINT_INK": BLACK,
        **parts,
    }
    shared = {"BUTTON_STYLE": _BUTTON_STYLE, "PICTURE_STYLE": _PICTURE_STYLE, "PICTURE_SCRIPT": _PICTURE_SCRIPT}
    for name, part in shared.items():
        text = text.replace(f"@{name}@", part)
    for name, part in parts.items():
        text = text.replace(f"@{name}@", part)
    return text


# ------------------------------------------------------------ the play board

PLAY_TEMPLATE = fill_template(
    """
<template>
  <div class="calcnb-view calcnb-play">
    <div class="calcnb-table">
      <div class="calcnb-board-column">
        @PICTURE@
      </div>
      <div class="calcnb-controls">
        <div v-for="(row, index) in rows" :key="index" class="calcnb-row" role="group" :aria-label="row.label">
          <span class="calcnb-row-label">{{ row.label }}</span>
          @ROW_BUTTON@
        </div>
        <div class="calcnb-row">@UNDO_REDO_HINT@</div>
        <div class="calcnb-message-area">
          <div class="calcnb-message" role="status">{{ said }}</div>
          <details v-if="said_detail" :key="said_key" class="calcnb-detail">
            <summary>{{ said_more }}</summary>{{ said_detail }}
          </details>
          <div v-if="ending_line" class="calcnb-ending">{{ ending_line }}</div>
        </div>
        <div class="calcnb-row">
          @NEW@
          <label class="calcnb-field calcnb-seed">
            <span class="calcnb-field-name">{{ seed_label }}</span>
            <input type="text" v-model.lazy="seed" :placeholder="seed_placeholder" spellcheck="false">
          </label>
        </div>
        <jupyter-widget v-for="(widget, index) in beside" :key="'beside' + index" :widget="widget"></jupyter-widget>
      </div>
    </div>
    <jupyter-widget v-for="(widget, index) in below" :key="'below' + index" :widget="widget"></jupyter-widget>
  </div>
</template>

@PICTURE_SCRIPT@

<style>
/* The board column grows to fill the width beside the controls, but never so tall that the page must
   scroll at 768 px high (the picture is 3:2); below 768 px wide the controls wrap under the board. */
.calcnb-play .calcnb-table { display: flex; flex-flow: row wrap; align-items: flex-start; }
.calcnb-play .calcnb-board-column {
  flex: 1 1 520px; min-width: 300px; max-width: min(960px, calc((100vh - 56px) * 1.5)); overflow: visible;
}
.calcnb-play .calcnb-board { margin: 2px; }
@PICTURE_STYLE@
.calcnb-play .calcnb-controls { flex: 0 0 390px; max-width: 100%; margin: 0 0 0 12px; }
.calcnb-play .calcnb-row { display: flex; flex-flow: row nowrap; align-items: center; }
.calcnb-play .calcnb-row-label {
  flex: 0 0 auto; width: 12em; margin: 2px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
.calcnb-play button.calcnb-move { width: 3.6em; }
.calcnb-play button.calcnb-control { width: 7em; }
.calcnb-play button.calcnb-wide { width: auto; }
/* room for a long sentence, its detail and the end of the game: nothing below moves */
.calcnb-play .calcnb-message-area { box-sizing: border-box; min-height: 9.5em; width: 100%; margin: 2px; }
.calcnb-play .calcnb-message { font-size: 1.1em; }
.calcnb-play .calcnb-detail summary { cursor: pointer; }
.calcnb-play .calcnb-ending { font-size: 1.2em; font-weight: bold; }
/* the seed field takes what the row leaves, its placeholder whole at a classroom laptop's width */
.calcnb-play .calcnb-seed { flex: 1 1 auto; display: flex; align-items: center; min-width: 0; }
.calcnb-play .calcnb-seed input { flex: 1 1 auto; min-width: 0; margin-right: 2px; }
@BUTTON_STYLE@
</style>
""",
    PICTURE=picture_tag("click", "dblclick"),
    ROW_BUTTON=button_loop("row.names"),
    UNDO_REDO_HINT=button_tags("undo", "redo", "hint"),
    NEW=button_tags("new"),
)
"""The play board's template (:class:`calcnb.ui.play.PlayBoard`)."""


class PlayView(PictureView):
    """What the play board's template shows: the picture, the rows of buttons, the message line, the seed field."""

    template = Unicode(PLAY_TEMPLATE).tag(sync=True)
    rows = List().tag(sync=True)
    said = Unicode("").tag(sync=True)
    said_detail = Unicode("").tag(sync=True)
    said_more = Unicode("").tag(sync=True)
    said_key = Int(0).tag(sync=True)
    ending_line = Unicode("").tag(sync=True)
    seed = Unicode("").tag(sync=True)
    seed_label = Unicode("").tag(sync=True)
    seed_placeholder = Unicode("").tag(sync=True)
    beside = List().tag(sync=True, **widgets.widget_serialization)
    below = List().tag(sync=True, **widgets.widget_serialization)


# ------------------------------------------------------------ the coach

COACH_TEMPLATE = fill_template(
    """
<template>
  <div class="calcnb-view calcnb-coach">
    <div class="calcnb-coach-buttons">@ACTIONS@</div>
    <label class="calcnb-field calcnb-coach-field">
      <span class="calcnb-field-name">{{ player_caption }}</span>
      <select v-model="player" class="calcnb-coach-player">
        <option v-for="option in player_options" :key="option[1]" :value="option[1]">{{ option[0] }}</option>
      </select>
    </label>
    <label class="calcnb-field calcnb-coach-field">
      <span class="calcnb-field-name">{{ pace_caption }}</span>
      <select v-model="pace" class="calcnb-coach-pace">
        <option v-for="option in pace_options" :key="option[1]" :value="option[1]">{{ option[0] }}</option>
      </select>
    </label>
    <div class="calcnb-coach-chart" v-html="chart"></div>
    <div class="calcnb-coach-text"><div v-if="said" class="calcnb-coach-said">{{ said }}</div></div>
  </div>
</template>

<style>
.calcnb-coach { margin: 0.6em 0 0 0; width: 100%; }
.calcnb-coach .calcnb-coach-buttons { display: flex; flex-flow: row wrap; }
.calcnb-coach button.calcnb-button { width: auto; min-width: 6em; }
/* "Segundos por jogada" whole, and the select as wide as its players */
.calcnb-coach .calcnb-coach-field { width: 28em; }
.calcnb-coach .calcnb-coach-field .calcnb-field-name { width: 11.5em; }
/* a guard for the longest moves' words: the chart scrolls rather than the page */
.calcnb-coach .calcnb-coach-chart { width: 100%; max-height: 15em; overflow: auto; }
.calcnb-coach .calcnb-coach-said { line-height: 1.35; }
@BUTTON_STYLE@
</style>
""",
    ACTIONS=button_tags("analyse", "watch", "stop"),
)
"""The coach's template (:class:`calcnb.ui.coach.CoachPanel`)."""


class CoachView(View):
    """What the coach's template shows: its buttons, the player and pace to watch, the chart and its words."""

    template = Unicode(COACH_TEMPLATE).tag(sync=True)
    player = Unicode(None, allow_none=True).tag(sync=True)
    player_options = List().tag(sync=True)
    player_caption = Unicode("").tag(sync=True)
    pace = Float(None, allow_none=True).tag(sync=True)
    pace_options = List().tag(sync=True)
    pace_caption = Unicode("").tag(sync=True)
    chart = Unicode("").tag(sync=True)
    said = Unicode("").tag(sync=True)
