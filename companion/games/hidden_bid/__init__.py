"""Hidden Bid: 2–4 players bid in secret from their own purse for five prizes; the highest bid
takes the prize, a tie takes nothing. The companion keeps every purse and every bid secret until
all have bid. (A small game built by docs/adding-a-game.md alone, to check the recipe.)"""

from companion.games.hidden_bid.rules import RULES, HiddenBidRules

__all__ = ["RULES", "HiddenBidRules"]
