"""``python -m calcnb app|lab|lessons|class-view|worksheets``, the same as the ``calcnb`` command (see
:mod:`calcnb.serve.cli.main`)."""

import sys

from calcnb.serve.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
