"""``python -m smart_docgemma.evaluation`` = ``docgemma-eval``."""
import sys

from .cli import main

sys.exit(main())
