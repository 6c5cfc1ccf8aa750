"""The services ``deploy/jupyterhub_config.py`` gives a school's hub, read from the configuration itself (no hub
started): the class server every pupil may open, and with a class log the teacher's two views of it, the class
view and the projector view, each a service of its own on the next ports, open to the hub's admins and the
teachers named only. The projector's process is told the log as the projector's alone, so nothing it serves can
show a nickname. The settings are given by the names the README gives the IT person."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from traitlets.config.loader import PyFileConfigLoader

from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import ALL_INTERFACES, CLASS_VIEW_NOTEBOOK, PROJECTOR_NOTEBOOK

CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "jupyterhub_config.py"
PORT = 9870
VIEWS = ("calcnb-class-view", "calcnb-projector")
#: The hub's environment a test starts from: none of calcnb's settings but the port.
UNSET = ("CALCNB_HUB_SERVER", "CALCNB_HUB_SERVICE_HOST", "CALCNB_HUB_TEACHERS", "CALCNB_CLASS_LOG", "CALCNB_LANG")
UNSET += ("CALCNB_CLASS_CODE", "CALCNB_NO_REVEAL")


def _hub(folder: Path, monkeypatch: pytest.MonkeyPatch, **variables: str) -> tuple[dict[str, Any], list[dict]]:
    """The hub's services (by name) and roles as ``deploy/jupyterhub_config.py`` sets them with ``variables`` (the
    hub's environment), read in ``folder`` (where the configuration copies the pupils' notebooks)."""
    for variable in UNSET:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in {"CALCNB_HUB_SERVICE_PORT": str(PORT), **variables}.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.chdir(folder)
    config = PyFileConfigLoader(CONFIG.name, str(CONFIG.parent)).load_config()
    services = config.JupyterHub.services.get_value([])
    return {service["name"]: service for service in services}, config.JupyterHub.load_roles.get_value([])


def _role(roles: list[dict], name: str) -> dict:
    (role,) = [role for role in roles if role["name"] == name]
    return role


def test_with_a_class_log_the_projector_is_a_service_of_its_own_for_the_teachers(tmp_path, monkeypatch):
    variables = {"CALCNB_CLASS_LOG": str(tmp_path / "lesson.db"), "CALCNB_LANG": "pt"}
    services, roles = _hub(tmp_path, monkeypatch, CALCNB_HUB_TEACHERS=" mrs_silva, kim ,", **variables)
    assert list(services) == ["calcnb", *VIEWS]
    view, projector = (services[name] for name in VIEWS)
    assert [service["url"] for service in services.values()] == [f"http://127.0.0.1:{PORT + n}" for n in range(3)]
    assert view["command"][-1] == str(notebooks_dir() / CLASS_VIEW_NOTEBOOK)
    assert projector["command"][-1] == str(notebooks_dir() / PROJECTOR_NOTEBOOK)
    assert projector["command"][:-1] == view["command"][:-1] == services["calcnb"]["command"][:-1]
    # The projector reads the log as counts only: never as the class view, never recording, no class code.
    told = projector["environment"]
    assert told["CALCNB_CLASS_PROJECTOR"].endswith("lesson.db") and told["CALCNB_LANG"] == "pt"
    assert not {"CALCNB_CLASS_VIEW", "CALCNB_CLASS_LOG", "CALCNB_CLASS_CODE", "CALCNB_CLASS_VIEW_LESSON"} & set(told)
    assert view["environment"]["CALCNB_CLASS_VIEW"] == told["CALCNB_CLASS_PROJECTOR"]
    assert "CALCNB_CLASS_PROJECTOR" not in view["environment"]
    assert projector["oauth_no_confirm"] is True and "display" not in projector
    # Pupils (every user of the hub) may open the class server only; the teachers named may open both views.
    assert _role(roles, "user")["scopes"] == ["self", "access:services!service=calcnb"]
    teachers = _role(roles, "calcnb-teachers")
    assert teachers["scopes"] == [f"access:services!service={name}" for name in VIEWS]
    assert teachers["users"] == ["mrs_silva", "kim"]


def test_where_the_proxy_runs_elsewhere_every_service_listens_on_every_interface(tmp_path, monkeypatch):
    variables = {"CALCNB_CLASS_LOG": str(tmp_path / "lesson.db"), "CALCNB_HUB_SERVICE_HOST": "hub"}
    services, _roles = _hub(tmp_path, monkeypatch, **variables)
    assert [service["url"] for service in services.values()] == [f"http://hub:{PORT + n}" for n in range(3)]
    assert all(f"--ip={ALL_INTERFACES}" in service["command"] for service in services.values())


def test_without_a_class_log_there_is_no_view_to_serve(tmp_path, monkeypatch):
    services, roles = _hub(tmp_path, monkeypatch)
    assert list(services) == ["calcnb"]
    assert [role["name"] for role in roles] == ["user"]
