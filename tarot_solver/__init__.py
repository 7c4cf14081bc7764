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

try:
    from . import _core
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    from .errors import ExtensionMissingError

    raise ExtensionMissingError(
        f"tarot_solver's compiled core (tarot_solver._core) is not built in {Path(__file__).parent}: install"
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
