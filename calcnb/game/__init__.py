"""The rules of Calculation: the fixed facts, cards and their arithmetic, deals, the engine and the game in progress."""
