"""The words of calcnb.solver in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    # calcnb.solver
    "solver.bad_input": "solve() takes a Game, a State or a deal code (text); got {kind}",
    "solver.bad_budget": "{name} must be a positive number or None; got {value}",
    "solver.bad_count": "{name} must be a positive whole number or None; got {value}",
    "solver.too_big.ranks": "the solver holds at most {most} ranks; this game has {value}",
    "solver.too_big.foundations": "the solver holds at most {most} foundations; this game has {value}",
    "solver.too_big.wastes": "the solver holds at most {most} waste piles; this game has {value}",
    "solver.too_big.cards": "the solver holds at most {most} cards on one waste pile; this game has {value}",
    "solver.bad_rules": "unknown solver rule: {unknown} (the rules are {known})",
    "solver.bad_clock": "clock must be a function giving seconds, like time.process_time; got {value}",
    "solver.rules_not_collection": "rules must be a collection of rule names, like {{'dead'}}; got {value}",
    "solver.summary.won": "won in {moves} moves ({nodes} positions searched, {seconds:.2f} s)",
    "solver.summary.lost": "lost: no line wins ({nodes} positions searched, {seconds:.2f} s)",
    "solver.summary.unknown": "unknown: the budget ran out ({nodes} positions searched, {seconds:.2f} s)",
}
