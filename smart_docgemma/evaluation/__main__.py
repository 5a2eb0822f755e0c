"""``python -m smart_docgemma.evaluation`` = ``docgemma-eval``."""
import sys

from ..cli.evaluation import main

sys.exit(main())
