"""tarot_solver: double-dummy solving and analysis for French Tarot (FFT rules).

The search runs in the compiled extension ``tarot_solver._core``; importing the
package without it fails with instructions instead of silently falling back to a
pure-Python search that would be orders of magnitude slower.
"""

__version__ = "0.1.0"

try:
    from . import _core  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    from .errors import ExtensionMissingError

    raise ExtensionMissingError(
        "tarot_solver's compiled core (tarot_solver._core) is not built: install the package with "
        "'pip install .' (or 'pip install -e .'), or run 'python setup.py build_ext --inplace' "
        f"in a source checkout ({exc})"
    ) from exc

from .cards import card_token, parse_card, parse_cards  # noqa: E402
from .errors import CardError, IllegalMoveError, RecordError, TarotError  # noqa: E402
from .records import DealRecord, read_record, read_records  # noqa: E402
from .rules import PlayState  # noqa: E402
from .scoring import ScoreResult, score  # noqa: E402
from .solver import SearchStatus, SolveResult, Solver, solve_many  # noqa: E402
from .variant import FIVE_PLAYERS, FOUR_PLAYERS, THREE_PLAYERS, Contract, Variant, variant_for  # noqa: E402

__all__ = [
    "CardError", "Contract", "DealRecord", "FIVE_PLAYERS", "FOUR_PLAYERS", "IllegalMoveError", "PlayState",
    "RecordError", "ScoreResult", "SearchStatus", "SolveResult", "Solver", "TarotError", "THREE_PLAYERS",
    "Variant", "card_token", "parse_card", "parse_cards", "read_record", "read_records", "score", "solve_many",
    "variant_for",
]
