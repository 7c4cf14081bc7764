"""Build the compiled core ``tarot_solver._core`` from ``ext/_core.pyx``.

Set ``TAROT_DEBUG=1`` for a build with Cython bounds checks and C asserts (used to
hunt bugs); ``TAROT_MARCH`` picks the ``-march`` target (default ``native``: the
core uses BMI2's pext/pdep and popcount where the CPU has them; ``x86-64-v3``
builds a binary valgrind 3.19 can run); ``TAROT_PORTABLE=1`` adds no ``-march``.
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("TAROT_DEBUG") == "1"
portable = os.environ.get("TAROT_PORTABLE") == "1"

compile_args = ["-O3"] if not debug else ["-O0", "-g"]
if not portable:
    compile_args.append("-march=" + os.environ.get("TAROT_MARCH", "native"))

directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": debug,
}

extensions = [
    Extension(
        "tarot_solver._core",
        ["ext/_core.pyx"],
        extra_compile_args=compile_args,
        define_macros=[] if debug else [("NDEBUG", "1")],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False))
