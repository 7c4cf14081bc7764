"""tarot_solver: double-dummy solving and analysis for French Tarot (FFT rules).

The search runs in the compiled extension ``tarot_solver._core``; importing the
package without it fails with instructions instead of silently falling back to a
pure-Python search that would be orders of magnitude slower.
"""

import importlib.machinery
import importlib.util
import os
import sys
import types
from pathlib import Path

__version__ = "0.1.0"


def _built_elsewhere(here: Path) -> "Path | None":
    """Where Python finds another ``tarot_solver`` with its core built, past this
    one (a source checkout that hides the installed package), if anywhere."""
    try:  # (only to word the error: never an error of its own)
        finders = [f for f in sys.meta_path if f is not importlib.machinery.PathFinder]  # (an editable install's)
        path = [p for p in sys.path if isinstance(p, str) and (Path(p or ".") / __name__).resolve() != here.resolve()]
        for spec in [importlib.machinery.PathFinder.find_spec(__name__, path)] + [
                getattr(f, "find_spec", lambda *a: None)(__name__, None) for f in finders]:
            if spec is None or spec.origin is None:
                continue
            there = Path(spec.origin).parent
            if there.resolve() != here.resolve() and any(
                    (there / ("_core" + s)).is_file() for s in importlib.machinery.EXTENSION_SUFFIXES):
                return there
    except Exception:
        pass
    return None


try:
    from . import _core
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    from .errors import ExtensionMissingError

    _here = Path(__file__).parent
    _there = _built_elsewhere(_here)
    if _there is not None:
        raise ExtensionMissingError(
            f"tarot_solver's compiled core (tarot_solver._core) is not built in {_here}, the source checkout"
            f" Python imported the package from (the current directory, or PYTHONPATH, comes first on sys.path)"
            f" instead of the package installed, with its core, in {_there}: run from another directory, or"
            " build this checkout in place ('pip install -e .', or 'python setup.py build_ext --inplace')"
        ) from exc
    raise ExtensionMissingError(
        f"tarot_solver's compiled core (tarot_solver._core) is not built in {_here}: install"
        " the package with 'pip install .' (or 'pip install -e .'), or, in a source checkout, run 'python setup.py"
        " build_ext --inplace' (it needs Cython>=3.1, setuptools>=77 and a C compiler); where the package is"
        " installed, a source checkout in the current directory hides it"
    ) from exc


def _for_this_cpu(portable: "types.ModuleType") -> "types.ModuleType":
    """The core to search with: the x86-64-v3 build of the same source (setup.py)
    where the package has one and this CPU runs it, about 1.2x faster, else the
    portable build (or with ``TAROT_CORE=portable`` in the environment).  A core
    built for one CPU (``TAROT_MARCH``) or for debugging is used as it is."""
    folder = Path(__file__).parent / "_x86_64_v3"
    choice = os.environ.get("TAROT_CORE", "")
    if choice.strip().lower() not in ("", "portable"):
        import warnings

        warnings.warn(f"TAROT_CORE={choice!r} is ignored: its one value is 'portable'", RuntimeWarning,
                      stacklevel=2)
    if (portable.BUILD != "portable" or choice.strip().lower() == "portable" or not folder.is_dir()
            or not portable.cpu_has_x86_64_v3()):
        return portable
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / ("_core" + suffix)
        if path.is_file():
            spec = importlib.util.spec_from_file_location(portable.__name__, path)
            assert spec is not None and spec.loader is not None
            fast = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(fast)
            if fast.SOURCE == portable.SOURCE:  # (not a build of an older source left there)
                sys.modules[portable.__name__] = fast
                return fast
    return portable


_core = _for_this_cpu(_core)


def _warn_if_stale(core: "types.ModuleType") -> None:
    """In a source checkout, warn where the compiled core was built from another
    ``ext/_core.pyx`` (edited since, and not rebuilt): it would answer as the old source."""
    source = Path(__file__).parent.parent / "ext" / "_core.pyx"
    if core.SOURCE and source.is_file():
        import hashlib

        if hashlib.sha256(source.read_bytes()).hexdigest()[:16] != core.SOURCE:  # (as setup.py stamps it)
            import warnings

            warnings.warn(f"tarot_solver's compiled core was built from another version of {source}: rebuild it"
                          " ('python setup.py build_ext --inplace', or 'pip install -e .')", RuntimeWarning,
                          stacklevel=2)


_warn_if_stale(_core)

from .cards import card_token, cards_of, mask_of, parse_card, parse_cards, tokens  # noqa: E402
from .errors import CardError, IllegalMoveError, RecordError, TarotError  # noqa: E402
from .records import DealRecord, read_record, read_records  # noqa: E402
from .rules import PlayState  # noqa: E402
from .scoring import ScoreResult, score  # noqa: E402
from .solver import SearchStatus, SolveResult, Solver, solve_many  # noqa: E402
from .variant import FIVE_PLAYERS, FOUR_PLAYERS, THREE_PLAYERS, Contract, Variant, variant_for  # noqa: E402

__all__ = [
    "CardError", "Contract", "DealRecord", "FIVE_PLAYERS", "FOUR_PLAYERS", "IllegalMoveError", "PlayState",
    "RecordError", "ScoreResult", "SearchStatus", "SolveResult", "Solver", "TarotError", "THREE_PLAYERS",
    "Variant", "card_token", "cards_of", "mask_of", "parse_card", "parse_cards", "read_record", "read_records",
    "score", "solve_many", "tokens", "variant_for",
]
