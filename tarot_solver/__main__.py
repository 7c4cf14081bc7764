"""``python -m tarot_solver``: the ``tarot-solve`` command line."""

from .cli import PROG, main

if __name__ == "__main__":
    main(prog_name=PROG)
