"""``python -m calcnb app|lab``: serve the notebooks (see :mod:`calcnb.app`)."""

import sys

from .app import main

if __name__ == "__main__":
    sys.exit(main())
