"""Companion: a touchscreen table companion for boxed board games."""

__version__ = "0.1.0"
