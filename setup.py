"""Build the compiled copies of emucore's hot modules (see emucore/compiled.py).

Everything else about the project is in pyproject.toml. Each module the install compiles
(``emucore.compiled.to_build()``: the kernels, and the FM duel's modules with
``EMUCORE_COMPILE=1`` in the environment) is compiled by Cython from its unchanged source
into an extension named after the source's hash; a build that fails (no C compiler) is
skipped and the module runs as Python. Every other build of a listed module (of an older
source, or of a module this install does not compile) is removed, so what runs compiled
is what the last install built.
"""

import runpy
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
compiled = runpy.run_path(str(HERE / "emucore" / "compiled.py"))
# build_ext names an extension by its module's last part alone at times (below)
BY_LAST_PART = {name.rsplit(".", 1)[-1]: name for name in compiled["MODULES"]}
if len(BY_LAST_PART) != len(compiled["MODULES"]):
    raise SystemExit("emucore.compiled.MODULES: two modules share a last name part")


class BuildHashed(build_ext):
    """Names each extension after its source hash."""

    def get_ext_filename(self, fullname: str) -> str:
        # called with the dotted name and, by get_ext_fullpath, with its last part alone
        default = Path(super().get_ext_filename(fullname))
        stem = fullname.rsplit(".", 1)[-1]
        named = compiled["compiled_name"](compiled["source_of"](BY_LAST_PART[stem], HERE),
                                          default.name[len(stem):])
        return str(default.with_name(named.name))

    def finalize_options(self) -> None:
        super().finalize_options()
        self.parallel = self.parallel or True   # one compiler per core


def _drop_other_builds(built: tuple[str, ...]) -> None:
    """Remove every extension of a listed module but the current source's of a module in
    ``built`` (done whatever the command: an install that compiles nothing runs no
    build_ext)."""
    for name in compiled["MODULES"]:
        source = compiled["source_of"](name, HERE)
        keep = compiled["compiled_name"](source) if name in built else None
        for old in source.parent.glob(f"{source.stem}-*.*"):
            if old.suffix in (".so", ".pyd") and old != keep:
                old.unlink()


def _extension(name: str) -> Extension:
    """Cython's C file of ``name``, made in a folder named after the source's hash: Cython
    reuses a C file by its time stamp, so a C file of other source contents (a copied or
    restored tree) must never sit where this source's would be."""
    source = compiled["source_of"](name, HERE)
    ext = Extension(name, [str(source.relative_to(HERE))], optional=True)
    return cythonize([ext], compiler_directives=compiled["DIRECTIVES"], quiet=True,
                     build_dir=f"build/cython/{compiled['source_hash'](source)}")[0]


BUILT = compiled["to_build"]()
_drop_other_builds(BUILT)
setup(
    ext_modules=[_extension(name) for name in BUILT],
    cmdclass={"build_ext": BuildHashed},
)
