"""``python -m calcnb app|lab|lessons|class-view``: serve the notebooks (see :mod:`calcnb.serve.cli`)."""

import sys

from calcnb.serve.cli import main

if __name__ == "__main__":
    sys.exit(main())
