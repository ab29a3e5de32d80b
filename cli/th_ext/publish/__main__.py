"""``python -m th_ext.publish``: the site builds from the command line (see ``th_ext.cli``)."""

import sys

from th_ext.cli._publish_main import main

sys.exit(main())
