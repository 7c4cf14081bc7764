"""Typed errors.

Every error the user can cause is a :class:`TarotError` (a ``ValueError``) whose
message names where the problem was found: the file, the line or record id, the
key and the offending token.  The CLI prints ``str(error)`` as one line and exits
with status 2.
"""

from __future__ import annotations

import json
import numbers
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, Union


class TarotError(ValueError):
    """Base class of all input errors raised by tarot_solver."""

    def __init__(
        self,
        message: str,
        *,
        file: Optional[str] = None,
        record: Optional[str] = None,
        key: Optional[str] = None,
        token: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.record = record
        self.key = key
        self.token = token

    def located(
        self,
        *,
        file: Optional[str] = None,
        record: Optional[str] = None,
        key: Optional[str] = None,
    ) -> "TarotError":
        """Fill in location fields that are still unknown; returns self."""
        if self.file is None:
            self.file = file
        if self.record is None:
            self.record = record
        if self.key is None:
            self.key = key
        return self

    def __str__(self) -> str:
        where = []
        if self.file is not None:
            where.append(self.file)
        if self.record is not None:
            where.append(self.record)
        if self.key is not None:
            where.append(f"key '{self.key}'")
        prefix = ": ".join(where)
        text = self.message
        if self.token is not None and repr(self.token) not in text and f"'{self.token}'" not in text:
            text = f"{text} (token '{self.token}')"
        return printable(f"{prefix}: {text}" if prefix else text)


class CardError(TarotError):
    """An unknown, duplicate or misplaced card token."""


class RecordError(TarotError):
    """A deal record that is malformed or inconsistent."""


class IllegalMoveError(TarotError):
    """A card that may not be played (or discarded) in the position."""


class SchedulerError(TarotError):
    """A Dask scheduler address that cannot be used."""


class WorkerError(RuntimeError):
    """A worker process died (killed by the system, for example out of memory) with
    tasks in flight: the run cannot go on."""


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C (or, from the command line, SIGTERM) that stopped a run after some of
    its work had finished.  It is a ``KeyboardInterrupt``, so code that catches those
    stops as before; ``partial`` is the result over the work finished, ``done`` of the
    ``total`` units asked for (the advice's worlds 0..done-1: what a run asked for that
    many gives; a table's first rows)."""

    def __init__(self, partial: Any, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {total}")
        self.partial = partial
        self.done = done
        self.total = total


@contextmanager
def keeping_partial(partial: Callable[[], Any], done: Callable[[], int], total: int) -> Iterator[None]:
    """Turn a Ctrl-C inside the block into :class:`Interrupted` carrying ``partial()``
    once ``done()`` units of ``total`` have finished; before any, it goes on as it came."""
    try:
        yield
    except KeyboardInterrupt as e:
        if not done():
            raise
        raise Interrupted(partial(), done(), total) from e


class ExtensionMissingError(ImportError):
    """The compiled core ``tarot_solver._core`` is not built."""


#: the longest value a message quotes whole
SPELLED_LIMIT = 40


def spelled(value: Any, *, quoted: bool = False) -> str:
    """``value`` as an input spells it, for a message: a string as it is (in quotes if
    ``quoted``, where a string stands for something else: "1" is no seat), anything
    else as JSON (``null``, ``true``, ``{"a": 1}``, not Python's None, True, {'a': 1}),
    cut to :data:`SPELLED_LIMIT` characters so that a huge value still gives a line one can read."""
    text = value if isinstance(value, str) and not quoted else json.dumps(value, default=repr)
    return text if len(text) <= SPELLED_LIMIT else text[:SPELLED_LIMIT - 3] + "..."


def integer(name: str, value: object, what: str = "an integer") -> int:
    """``value`` as an int (numpy's integers too), for an argument of the Python API: a
    TypeError naming the argument ``name`` and ``what`` it must be if it is no integer
    (a bool is none)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {what}, not {spelled(repr(value))}")
    return int(value)


def duration(name: str, value: object) -> float:
    """``value`` as a float, for an argument of the Python API that is a time in seconds:
    a TypeError naming the argument ``name`` if it is no number (a bool is none)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {spelled(repr(value))}")
    return float(value)


def plural(n: Union[int, float], noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (so 0.5 points, 1 point)."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def printable(text: str, spaces: bool = True) -> str:
    """``text`` with the characters that neither print nor space escaped (a NUL, the
    escape codes of a terminal, a lone surrogate): a message shows what the input holds,
    and cannot act on the terminal it goes to.  With ``spaces`` false, white space other
    than the space is escaped too (``a\\nb``): a name in a line of a report, which must
    stay one line."""
    return "".join(c if c.isprintable() or (spaces and c.isspace())
                   else c.encode("unicode_escape", "backslashreplace").decode("ascii") for c in text)


def one_line(text: str) -> str:
    """``text`` with its runs of white space, newlines included, made single spaces (and
    what does not print escaped: :func:`printable`)."""
    return printable(" ".join(text.split()))
