"""The package's top-level names: every one resolves, and the lazy ones stay lazy until used."""

import subprocess
import sys

import calcnb


def test_every_exported_name_resolves():
    for name in calcnb.__all__:
        assert getattr(calcnb, name) is not None, name


def test_study_and_solve_are_functions_even_after_their_modules_are_imported():
    import calcnb.solver
    import calcnb.studies.measure

    assert callable(calcnb.study) and calcnb.study.__name__ == "study"
    assert callable(calcnb.solve) and calcnb.solve.__name__ == "solve"


def test_importing_calcnb_loads_no_strategies_solver_or_drawing():
    code = (
        "import sys, calcnb; "
        "loaded = [m for m in ('calcnb.players.ladder', 'calcnb.solver', 'calcnb.studies.measure', "
        "'matplotlib', 'ipywidgets') "
        "if m in sys.modules]; print(loaded)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_unknown_name_is_an_attribute_error():
    try:
        calcnb.no_such_thing  # noqa: B018
    except AttributeError as error:
        assert "no_such_thing" in str(error)
    else:
        raise AssertionError("calcnb.no_such_thing should not exist")
