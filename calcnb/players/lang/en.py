"""The words of calcnb.players in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    # calcnb.players.coach
    "coach.reviewed.won": "The game you played on the board: won in {moves} moves.",
    "coach.reviewed.lost": "The game you played on the board: lost after {moves} moves, score {score}/52.",
    "coach.reviewed.example": "The game on the board is not finished, so here is a short game instead: deal {seed} after "
    "{start} moves of reverse need, played on by first fit ({moves} moves; {status}, score {score}/52).",
    "coach.status.won": "won",
    "coach.status.lost": "lost",
    # calcnb.players.coach
    "coach.move.turn": "turn the next card",
    "coach.move.to_waste": "put it on waste {waste}",
    "coach.move.to_foundation": "put it on foundation {foundation}",
    "coach.move.waste_to_foundation": "move the top of waste {waste} to foundation {foundation}",
    "coach.chance": "{what}: wins about {per100} in 100 futures (between {low} and {high}; {futures} futures tried)",
    "coach.mistake": "move {number}: the move played was to {played} (wins about {played100} in 100 futures); "
    "better to {best} (about {best100} in 100; {futures} futures tried)",
    "coach.review.clean": "{decisions} decisions examined: no move left winning chance behind.",
    "coach.review.head": "{decisions} decisions examined; the {count} that left the most winning chance:",
    # calcnb.players.ladder
    "player.bad_position": "a player needs a State, a Game or a PlayerView; got {kind}",
    "player.bad_game": "play needs a seed, a Game or a State; got {kind}",
    "hint.won": "The game is won: there is nothing left to do.",
    "hint.lost": "No move is left: the game is lost.",
    "hint.player.strongest": "Hints come from {player}, the strongest player here that sees only what you see: "
    "this computer runs the solver compiled, fast enough for it.",
    "hint.player.interpreted": "Hints come from {player}: this installation runs the solver interpreted, "
    "too slow for the strongest player, {strongest}, to answer at once.",
    "hint.turn": "Turn the next card ({left} left): no card on show fits a foundation.",
    "hint.foundation": "Play {card} onto {top} on foundation {foundation}: it is the rank that foundation needs "
    "next, and a card on a foundation is never wasted.",
    "hint.one_foundation": "foundation {number}",
    "hint.some_foundations": "foundations {numbers} and {last}",
    "hint.foundation_tie_shown": "Play {card} on foundation {foundation} rather than {others}: foundation {foundation} then "
    "needs {following}, which is on show.",
    "hint.foundation_tie_behind": "Play {card} on foundation {foundation} rather than {others}: it holds the fewest cards, "
    "so it has the most still to come.",
    "hint.waste_first": "Put {card} on waste {waste}: every waste pile is empty, so any one will do.",
    "hint.waste_empty": "Put {card} on the empty waste {waste}: on any other pile it would bury a card needed sooner.",
    "hint.waste_fit": "Put {card} on waste {waste}, on top of {top}: {card} is needed sooner (foundation "
    "{card_foundation} wants it after {card_wait} more cards) than {top} (foundation "
    "{top_foundation}, after {top_wait}), so the pile stays in reverse order of need.",
    "hint.waste_bury": "Put {card} on waste {waste}, on top of {top}: every pile would bury a card needed sooner, "
    "and {top} is needed latest (foundation {top_foundation}, after {top_wait} more cards).",
    "hint.monte_carlo_last": "Put {card} on waste {waste}: no card is left to turn, and of the {choices} choices this one "
    "ends with the most cards on the foundations ({score}).",
    "hint.monte_carlo": "Put {card} on waste {waste}: over {samples} imagined orders of the {unseen} unseen cards "
    "this wins {wins} of them and averages {average} cards on the foundations, the best of "
    "{choices} choices.",
    "hint.either_foundation": "foundation {numbers} or {last}",
    "hint.list": "{items} and {last}",
    "hint.do.waste": "moving {card} from waste {waste} to {foundations}",
    "hint.do.stock": "putting the turned card, {card}, on {foundations}",
    "hint.card.waste": "{card} on waste {waste}",
    "hint.card.turned": "the turned card, {card}",
    "hint.turn_first": "Turn the next card first: {moves} can wait, because the top card of a waste pile can still "
    "go up after the turn. Turning first gives nothing up, and it shows one more card before you choose.",
    "hint.waits.one": "{moves} can wait: it can still be played after this move.",
    "hint.waits.many": "{moves} can wait: each can still be played after this move.",
    "hint.clash": "{other} fits foundation {foundation} too, but only one of the two can go there now: the hint "
    "plays the first its rule comes to (the turned card, then the waste piles in order), without weighing the two.",
    "hint.other.fewer_wins": "After {move}, the solver found a win in {won} of the same {futures} orders, against "
    "{best} after this move.",
    "hint.other.fewer_points": "After {move}, the solver found a win in {won} of the same {futures} orders and could "
    "not tell in {unknown}: {points} in all, each it could not tell counting one half, against {best} after this move.",
    "hint.other.dropped": "After {move}, the solver found a win in only {won} of the first {futures} orders (and could "
    "not tell in {unknown}): too few to catch up with the best, so it was tried on no more.",
    "hint.other.exact_lost": "After {move}, the game can no longer be won: with no card left to turn, the solver "
    "sees the whole game.",
    "hint.other.tied": "After {move}, the solver's count on those orders was the same.",
    "hint.other.exact_won": "After {move}, the game can be won too.",
    "hint.tie.fewer_wins": "Then reverse need played each move on, blind, over {rollouts} more imagined orders: it won "
    "{wins} of those games after it, against {best} after this move.",
    "hint.tie.fewer_cards": "Then reverse need played each move on, blind, over {rollouts} more imagined orders: it won "
    "as many of those games after it ({wins}), but put fewer cards on the foundations in all ({cards} against {best}).",
    "hint.tie.same": "Then reverse need played each move on, blind, over {rollouts} more imagined orders, and did as "
    "well after both.",
    "hint.tie.exact_fewer_wins": "Then reverse need, playing on from each, wins after this move and not after it.",
    "hint.tie.exact_fewer_cards": "Then reverse need, playing on from each, ends with {cards} cards on the foundations "
    "after it, against {best} after this move.",
    "hint.tie.exact_same": "Then reverse need, playing on from each, ends the same way after both.",
    "hint.tie.preferred": "So the hint took the move reverse need itself would play here.",
    "hint.tie.order": "So the hint took the first of the two in the order of the move buttons.",
    "hint.stopped": "It stopped after {counted} of its {samples} imagined orders, to answer quickly.",
    "coach.widget.decimal": ".",
    "coach.widget.random": "A random player picks any legal move.",
    "coach.widget.first_fit": "First fit puts every card that fits no foundation on the first waste pile.",
    "coach.widget.forced": "Nothing else was worth weighing here.",
    "coach.widget.determinized": "Over {futures} imagined orders of the face-down cards the solver found a win after this "
    "move in {won} (and could not tell in {unknown})",
    "coach.widget.determinized_last_won": "No card is left to turn, so the solver sees the whole game: it wins "
    "after this move.",
    "coach.widget.determinized_last_lost": "No card is left to turn, so the solver sees the whole game: no choice "
    "can win any more.",
    "coach.widget.determinized_best": ": the best of {choices} choices.",
    "coach.widget.determinized_tie": "; {tied} of the {choices} choices did as well.",
    "coach.widget.determinized_all_tied": ", and all {choices} choices did as well.",
    "coach.widget.tie_break": "To choose among them, reverse need played each one out on {rollouts} more imagined orders, "
    "without seeing them: after this move it won {wins} of those {rollouts} games, "
    "no fewer than after any other.",
    "coach.player.random": "random",
    "coach.player.first_fit": "first fit",
    "coach.player.reverse_need": "reverse need",
    "coach.player.kings_apart": "kings apart",
    "coach.player.monte_carlo": "Monte Carlo",
    "coach.player.determinized": "determinized",
    "coach.player.determinized_with_32_orders": "determinized with 32 orders",
    "coach.player.determinized_with_64_orders": "determinized with 64 orders",
    "coach.player.plain_determinized": "plain determinized",
    "coach.player.determinized_+_second_look": "determinized + second look",
}
