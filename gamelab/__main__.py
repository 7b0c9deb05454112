"""``python -m gamelab``: the command line."""

import sys

from gamelab.cli.commands import main

sys.exit(main())
