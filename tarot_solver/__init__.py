"""tarot_solver."""
__version__ = "0.1.0"
