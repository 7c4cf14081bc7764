"""Build the compiled core ``tarot_solver._core`` from ``ext/_core.pyx``.

By default the core is built for any CPU of its architecture, and on x86-64
(with gcc or clang) built a second time for x86-64-v3 CPUs (AVX2, BMI2: Intel
since 2013, AMD since 2015; about 1.2x the nodes a second), as
``tarot_solver/_x86_64_v3/_core``, which the package loads instead where the CPU
runs it (``tarot_solver/__init__.py``).  So a wheel runs anywhere its platform
tag says, at full speed on recent CPUs.

The default build leaves out the debug information Python's compiler flags ask
for (``-g0``: a core of 0.3 MB instead of 1.9 MB).  ``TAROT_MARCH`` builds one core
for that ``-march`` target instead, with it, for profiling (``native``: this
machine's CPU, as the benchmarks do; ``x86-64-v3``: a binary valgrind 3.19 can run);
``TAROT_DEBUG=1`` one core with Cython bounds checks, unoptimised.
A build of another flavour than the last one in this tree regenerates and
recompiles everything (the up-to-date checks look at the sources' times, not at
the flavour), so a default build after a ``native`` one never keeps its binary.
"""

import hashlib
import os
import platform
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

debug = os.environ.get("TAROT_DEBUG") == "1"
march = os.environ.get("TAROT_MARCH")
VARIANT_ARGS = ["-O3", "-march=x86-64-v3", "-g0"]

# the flavour of this build, against the last one built in this tree
FLAVOUR_STAMP = os.path.join("build", "tarot-flavour")
flavour = "debug" if debug else f"march={march}" if march else "default"
try:
    with open(FLAVOUR_STAMP, encoding="utf-8") as f:
        changed = f.read() != flavour
except OSError:
    changed = True

with open("ext/_core.pyx", "rb") as f:
    source = hashlib.sha256(f.read()).hexdigest()[:16]


def macros(build):
    """The C macros of a build: what it targets, and the source it comes from."""
    return [("TAROT_BUILD", f'"{build}"'), ("TAROT_SOURCE", f'"{source}"')] + ([] if debug else [("NDEBUG", "1")])


directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": debug,
}
core = Extension(
    "tarot_solver._core",
    ["ext/_core.pyx"],
    extra_compile_args=["-O0", "-g"] if debug else ["-O3"] + ([f"-march={march}"] if march else ["-g0"]),
    define_macros=macros("debug" if debug else march or "portable"),
)
extensions = cythonize([core], compiler_directives=directives, annotate=False, force=changed)
if not debug and not march and platform.machine().lower() in ("x86_64", "amd64"):
    extensions.append(Extension(
        "tarot_solver._x86_64_v3._core",
        ["ext/_core_x86_64_v3.c"],  # the generated ext/_core.c, compiled again
        depends=["ext/_core.c"],
        extra_compile_args=VARIANT_ARGS,
        define_macros=macros("x86-64-v3"),
    ))


class BuildExt(build_ext):
    """Drops the x86-64-v3 variant where the compiler cannot build it (MSVC, an old
    gcc): the portable core alone then serves every CPU.  Compiles everything again
    when the flavour changed, and notes the flavour built."""

    def build_extensions(self):
        if not self._accepts(VARIANT_ARGS):
            self.extensions = [e for e in self.extensions if e.name == core.name]
        self.force = self.force or changed
        super().build_extensions()
        os.makedirs(os.path.dirname(FLAVOUR_STAMP), exist_ok=True)
        with open(FLAVOUR_STAMP, "w", encoding="utf-8") as f:
            f.write(flavour)

    def copy_extensions_to_source(self):
        # (an in-place build copies each core next to the sources; the variant's
        # folder is not there in a fresh checkout)
        for ext in self.extensions:
            os.makedirs(os.path.dirname(self.get_ext_fullpath(ext.name)), exist_ok=True)
        super().copy_extensions_to_source()

    def _accepts(self, args):
        if self.compiler.compiler_type == "msvc":
            return False
        with tempfile.TemporaryDirectory() as tmp:
            probe = os.path.join(tmp, "probe.c")
            with open(probe, "w") as f:
                f.write("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([probe], output_dir=tmp, extra_postargs=args)
            except CompileError:
                return False
        return True


setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
