"""``python -m calcnb app|lab|lessons|class-view|worksheets``, the same as the ``calcnb`` command (see
:mod:`calcnb.serve.cli`)."""

import sys

from calcnb.serve.cli import main

if __name__ == "__main__":
    sys.exit(main())
