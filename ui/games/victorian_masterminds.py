"""Placeholder until its screens exist."""

from ui.games.generic import SetupForm, TableView

__all__ = ["SetupForm", "TableView"]
