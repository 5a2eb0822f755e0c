"""``python -m smart_docgemma.evaluation`` = ``docgemma-eval``."""
import sys

from .command import main

sys.exit(main())
