#!/usr/bin/env bash
# Without a C compiler calcnb still installs, runs its solver interpreted, and passes the solver tests.
# A fresh virtual environment in a temporary folder; CC=/bin/false stands for "no working compiler".
# Run from the repository: scripts/check_no_compiler.sh
set -euo pipefail
cd "$(dirname "$0")/.."
where=$(mktemp -d)
trap 'rm -rf "$where"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$where"  # a clean copy: no compiled modules from this tree
cd "$where"
python3 -m venv .venv && . .venv/bin/activate
CC=/bin/false pip install -v -e ".[test]" >install.log 2>&1 || { tail -30 install.log; exit 1; }
grep -h "^ *calcnb: " install.log | sed 's/^ *//'
python -c "import calcnb.solver as s; assert not s.COMPILED; print('calcnb.solver.COMPILED =', s.COMPILED)"
python -m pytest -q -p no:cacheprovider -m "not slow" tests/test_solver.py tests/test_relaxed.py tests/test_compiled.py | tail -1
