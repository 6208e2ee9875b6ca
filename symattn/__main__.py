"""Run the command line interface: ``python -m symattn ...``."""

from __future__ import annotations

import sys

from symattn.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
