"""Each notebook in JupyterLab: opened as saved, then Run All from the menu, no error in any output, every widget drawn.

Opened before it runs, a notebook must show no widget's repr (a shipped notebook is not trusted, so JupyterLab
shows each widget's plain text), log no widget error (a stored widget state naming a module the page lacks),
and be unchanged by opening: no unsaved-changes dot before the teacher has touched it.
"""

import os
import re

import pytest

from calcnb.serve.cli.workspace import shipped_notebooks
from calcnb.serve.shared.notebooks import notebooks_dir

pytestmark = pytest.mark.browser

REQUIRED = ["01_rules.ipynb", "02_wraparound.ipynb", "03_worked_example.ipynb", "04_play.ipynb"]
# The strategy lab shows charts and tables only (its progress bars appear only at larger sizes).
WITHOUT_WIDGETS = {"05_strategy_lab.ipynb"}
if os.environ.get("CALCNB_LAB_NOTEBOOKS"):
    NOTEBOOKS = os.environ["CALCNB_LAB_NOTEBOOKS"].split(",")
else:
    NOTEBOOKS = sorted(set(REQUIRED) | {path.name for path in notebooks_dir().glob("*.ipynb")})
# The Portuguese twins and the teachers' notes: opened as saved (the students' notebooks are run as well, above).
IN_FOLDERS = [relative for relative in shipped_notebooks(notebooks_dir()) if "/" in relative]

# A widget's repr, as ipywidgets writes its plain text ("PlayBoard(children=(...", "<ClassView of ...>").
RAW_REPR = re.compile(r"^\s*(<\w+ of |[A-Z]\w*\((children|layout|value|step|\[|'|\)))", re.MULTILINE)

# What the widget manager says when a view cannot find or build its model.
WIDGET_ERRORS = re.compile(
    r"model not found|could not find model|error displaying widget|could not create (a )?(model|view)"
    r"|class \S+ not found in module|failed to load model class",
    re.IGNORECASE,
)

_NOTEBOOK = "window.jupyterapp.shell.currentWidget"
_NOTEBOOK_OUTPUT = ".jp-Notebook .jp-OutputArea-output"

_KERNEL_IDLE = f"""() => {{
    const panel = {_NOTEBOOK};
    const kernel = panel && panel.sessionContext && panel.sessionContext.session
        && panel.sessionContext.session.kernel;
    return Boolean(kernel) && kernel.status === 'idle';
}}"""

# Done: the kernel is idle and every code cell has run, or a cell failed (Run All stops there).
_RUN_FINISHED = f"""() => {{
    const panel = {_NOTEBOOK};
    if (panel.sessionContext.session.kernel.status !== 'idle') return false;
    const cells = panel.content.model.cells;
    let allRan = true;
    for (let i = 0; i < cells.length; i++) {{
        const cell = cells.get(i);
        if (cell.type !== 'code') continue;
        if (cell.outputs.toJSON().some(output => output.output_type === 'error')) return true;
        if (cell.sharedModel.getSource().trim() && !cell.executionCount) allRan = false;
    }}
    return allRan;
}}"""

_ERRORS = f"""() => {{
    const panel = {_NOTEBOOK};
    const cells = panel.content.model.cells;
    const errors = [];
    for (let i = 0; i < cells.length; i++) {{
        const cell = cells.get(i);
        if (cell.type !== 'code') continue;
        for (const output of cell.outputs.toJSON()) {{
            if (output.output_type === 'error') errors.push(`cell ${{i}}: ${{output.ename}}: ${{output.evalue}}`);
        }}
    }}
    return errors;
}}"""


def _menu(page, menu: str, command: str) -> None:
    """Click a main-menu entry, as a person does (``command`` is the entry's data-command)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(f"li.lm-Menu-item[data-command='{command}']").click()


def _check_as_saved(page, notebook: str) -> None:
    """Check the notebook JupyterLab shows as a teacher first sees it, before anything runs."""
    # The kernel connected: JupyterLab has written its names into the notebook's metadata by now.
    page.wait_for_function(_KERNEL_IDLE)
    assert not page.evaluate(f"() => {_NOTEBOOK}.context.model.dirty"), f"{notebook} is changed by opening it"
    shown = "\n".join(page.locator(_NOTEBOOK_OUTPUT).all_inner_texts())
    assert not RAW_REPR.search(shown), f"{notebook}: {RAW_REPR.search(shown).group(0)}"
    assert not WIDGET_ERRORS.search(page.locator(".jp-Notebook").inner_text()), notebook
    widget_errors = [text for text in page.console_messages if WIDGET_ERRORS.search(text) or "No version of" in text]
    assert widget_errors == [], notebook


def _open_as_saved(page, lab_server, notebook: str) -> None:
    """Open ``notebook`` in JupyterLab and check it as a teacher first sees it, before anything runs."""
    assert (lab_server.root / notebook).exists(), f"notebooks/{notebook} is missing"
    page.goto(f"{lab_server.url}/lab/tree/{notebook}?reset", wait_until="domcontentloaded")
    page.wait_for_function(f"() => window.jupyterapp && {_NOTEBOOK} && {_NOTEBOOK}.content")
    _check_as_saved(page, notebook)


def test_the_twins_and_the_teachers_notes_open_as_saved_without_reprs_errors_or_changes(page, lab_server):
    # One JupyterLab page opens them one after the other, as a teacher does from the file browser (each page
    # load of JupyterLab costs more than the notebook it opens).
    page.goto(f"{lab_server.url}/lab?reset", wait_until="domcontentloaded")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands.hasCommand('docmanager:open')")
    page.evaluate(
        "async () => { await window.jupyterapp.restored; }"
    )  # the layout restored: nothing will replace what opens
    try:
        for notebook in IN_FOLDERS:
            assert (lab_server.root / notebook).exists(), f"notebooks/{notebook} is missing"
            page.evaluate("path => { window.jupyterapp.commands.execute('docmanager:open', {path}); }", notebook)
            opened = f"() => {_NOTEBOOK} && {_NOTEBOOK}.context && {_NOTEBOOK}.context.path === {notebook!r}"
            page.wait_for_function(f"{opened} && {_NOTEBOOK}.content")
            _check_as_saved(page, notebook)
            # Closed, with its kernel: the next one is alone on the page.
            page.evaluate(
                f"async () => {{ const panel = {_NOTEBOOK}; await panel.sessionContext.shutdown(); panel.dispose(); }}"
            )
    finally:
        page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_runs_all_cells_with_widgets_shown(page, lab_server, notebook):
    _open_as_saved(page, lab_server, notebook)
    # Focus the notebook (a click in the first cell's prompt margin selects it), so the menus act on it.
    page.locator(".jp-Notebook .jp-Cell .jp-InputPrompt").first.click()

    # Clear the stored outputs first, so every output checked below comes from this run.
    _menu(page, "Edit", "editmenu:clear-all")
    page.wait_for_function(f"() => !document.querySelector('{_NOTEBOOK_OUTPUT}')")
    _menu(page, "Run", "runmenu:run-all")
    page.wait_for_function(_RUN_FINISHED, timeout=120_000)
    try:
        assert page.evaluate(_ERRORS) == []
        shown_errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        tracebacks = [text for text in shown_errors.all_inner_texts() if "Traceback" in text or "Error" in text]
        assert tracebacks == []

        # Every widget view has been drawn: none left loading, none failed.
        widgets = page.locator(".jp-OutputArea-output .jupyter-widgets")
        page.wait_for_function("() => !document.body.innerText.includes('Loading widget...')")
        if notebook not in WITHOUT_WIDGETS:
            assert widgets.count() > 0, "no widget was drawn"
        assert not WIDGET_ERRORS.search(page.locator(".jp-Notebook").inner_text())
        console = [text for text in page.console_messages if WIDGET_ERRORS.search(text)]
        assert console == []
    finally:
        # Free the kernel now rather than when the server stops: the machine is small.
        page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
