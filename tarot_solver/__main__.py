"""``python -m tarot_solver``: the ``tarot-solve`` command line."""

from .cli import run

if __name__ == "__main__":
    run()
