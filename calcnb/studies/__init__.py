"""Measuring the game: studies of players and the solver, their statistics, the folklore and winnability."""
