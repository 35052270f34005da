"""Victorian Masterminds (Bauza & Lang): the Secret Service, hidden agent stacks and their
guided resolution, machines, scoring. See ``docs/protocol/victorian-masterminds.md``."""

from companion.games.victorian_masterminds.facts import FACTS, PREFERENCES
from companion.games.victorian_masterminds.hardware import HARDWARE
from companion.games.victorian_masterminds.rules import RULES, VictorianMastermindsRules

__all__ = ["FACTS", "HARDWARE", "PREFERENCES", "RULES", "VictorianMastermindsRules"]
