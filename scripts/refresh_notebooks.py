"""Run every shipped notebook in a fresh kernel and save it with the outputs it gives, ready to open.

``python scripts/refresh_notebooks.py [NOTEBOOK ...]`` (default: every notebook under ``notebooks/``). Each is
run top to bottom as nbval runs it, then saved so that JupyterLab opens it without changing it: no widget
state and no widget views (the widgets are built again when the notebook runs; a stored state names widget
versions the page may not have, and a stored view a model that is gone), no run times, and the kernel named
as this machine's ``python3`` kernel names itself (:func:`calcnb.serve.cli.workspace.as_run_here`, which a user's
copy goes through as well). What each widget shows before the notebook runs is its own plain text
(:class:`calcnb.ui.before_run.ShownWhenRun`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from calcnb.serve.cli.workspace import as_run_here

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
KERNEL = "python3"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def refresh(path: Path) -> None:
    """Run ``path`` in a fresh kernel, in its own folder, and save it with its outputs (see the module notes)."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=600,
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            # A stored view names a widget model that exists only while the notebook runs: JupyterLab shows
            # "model not found" for it in a trusted notebook. Its plain text says what appears there instead.
            output.get("data", {}).pop(WIDGET_VIEW, None)
    nbformat.validate(notebook)
    path.write_bytes(as_run_here(nbformat.writes(notebook).encode("utf-8")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to refresh (default: all shipped)")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.rglob("*.ipynb"))
    for path in paths:
        if ".ipynb_checkpoints" in path.parts:
            continue
        print(f"running {path.relative_to(ROOT) if path.is_absolute() else path}", flush=True)
        refresh(path.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
