"""Build hook: the wheel carries the top-level ``templates/`` and ``fhir_fixtures/``.

The checkout keeps them at the top level (the project's documented layout); an
installed app has no checkout, so ``build_py`` copies them into the packages that
read them: ``smart_docgemma/templates`` (``create_app`` looks there first) and
``launch/fhir_fixtures`` (the sandbox's patients). Editable installs skip the
copy and read the checkout's folders. Everything else is in ``setup.cfg``.
"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

COPIES = (("templates", "smart_docgemma/templates"), ("fhir_fixtures", "launch/fhir_fixtures"))


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
