"""The words of calcnb.solver in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    # calcnb.solver
    "solver.bad_input": "solve() aceita um Game, um State ou o código de um jogo (texto); recebeu {kind}",
    "solver.bad_budget": "{name} deve ser um número positivo ou None; recebeu {value}",
    "solver.bad_count": "{name} deve ser um número inteiro positivo ou None; recebeu {value}",
    "solver.too_big.ranks": "o resolvedor comporta no máximo {most} valores de carta; este jogo tem {value}",
    "solver.too_big.foundations": "o resolvedor comporta no máximo {most} bases; este jogo tem {value}",
    "solver.too_big.wastes": "o resolvedor comporta no máximo {most} descartes; este jogo tem {value}",
    "solver.too_big.cards": "o resolvedor comporta no máximo {most} cartas num descarte; este jogo tem {value}",
    "solver.bad_rules": "regra do solver desconhecida: {unknown} (as regras são {known})",
    "solver.bad_clock": "clock deve ser uma função que dá segundos, como time.process_time; recebeu {value}",
    "solver.rules_not_collection": "rules deve ser uma coleção de nomes de regras, como {{'dead'}}; recebeu {value}",
    "solver.summary.won": "ganho em {moves} jogadas ({nodes} posições examinadas, {seconds:.2f} s)",
    "solver.summary.lost": "perdido: nenhuma sequência ganha ({nodes} posições examinadas, {seconds:.2f} s)",
    "solver.summary.unknown": "desconhecido: o orçamento acabou ({nodes} posições examinadas, {seconds:.2f} s)",
}
