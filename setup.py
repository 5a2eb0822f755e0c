"""Build hook: the wheel carries the top-level ``templates/``.

The checkout keeps them at the top level; an installed app has no checkout, so
``build_py`` copies them into ``smart_docgemma/templates`` (``create_app`` looks
there first). Editable installs skip the copy. Everything else is in ``setup.cfg``.
"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

COPIES = (("templates", "smart_docgemma/templates"),)


class BuildPy(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for source, target in COPIES:
            if not os.path.isdir(source):
                raise SystemExit(f"{source}/ is missing: the wheel would render no page")
            self.copy_tree(source, os.path.join(self.build_lib, target))


setup(cmdclass={"build_py": BuildPy})
