"""Players that see only what a person sees: the lean table they play on, the ladder, the blind player, the coach."""
