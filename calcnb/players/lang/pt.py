"""The words of calcnb.players in Portuguese, by key (a key missing here is shown in English).

Found by ``calcnb.i18n.add_words``; ``python -m calcnb.i18n pt`` lists every word of the language.
"""

MESSAGES: dict[str, str] = {
    # calcnb.players.coach
    "coach.reviewed.won": "O jogo que jogaste no tabuleiro: ganho em {moves} jogadas.",
    "coach.reviewed.lost": "O jogo que jogaste no tabuleiro: perdido ao fim de {moves} jogadas, pontos {score}/52.",
    "coach.reviewed.example": "O jogo no tabuleiro ainda não acabou, por isso eis um jogo curto em vez dele: a distribuição "
    "{seed} depois de {start} jogadas da necessidade inversa, continuada pelo primeiro encaixe "
    "({moves} jogadas; {status}, pontos {score}/52).",
    "coach.status.won": "ganho",
    "coach.status.lost": "perdido",
    # calcnb.players.coach
    "coach.move.turn": "virar a próxima carta",
    "coach.move.to_waste": "pô-la no descarte {waste}",
    "coach.move.to_foundation": "pô-la na base {foundation}",
    "coach.move.waste_to_foundation": "passar o topo do descarte {waste} para a base {foundation}",
    "coach.chance": "{what}: ganha em cerca de {per100} de 100 futuros (entre {low} e {high}; {futures} futuros "
    "experimentados)",
    "coach.mistake": "jogada {number}: a jogada feita foi {played} (ganha em cerca de {played100} de 100 futuros); "
    "melhor seria {best} (cerca de {best100} em 100; {futures} futuros experimentados)",
    "coach.review.clean": "{decisions} decisões examinadas: nenhuma jogada deixou chance de ganhar para trás.",
    "coach.review.head": "{decisions} decisões examinadas; as {count} que deixaram mais chance de ganhar:",
    # calcnb.players.ladder
    "player.bad_position": "um jogador precisa de um State, um Game ou uma PlayerView; recebi {kind}",
    "player.bad_game": "play precisa de uma semente, um Game ou um State; recebi {kind}",
    "hint.won": "O jogo está ganho: não há mais nada a fazer.",
    "hint.lost": "Não resta nenhuma jogada: o jogo está perdido.",
    "hint.player.strongest": "As sugestões vêm do jogador {player}, o mais forte dos que só veem o que está à vista: "
    "este computador corre o resolvedor compilado, rápido o bastante para ele.",
    "hint.player.interpreted": "As sugestões vêm do jogador {player}: esta instalação corre o resolvedor interpretado "
    "(sem o núcleo compilado), lento demais para o jogador mais forte, {strongest}, responder logo.",
    "hint.turn": "Vira a próxima carta (restam {left}): nenhuma carta à vista serve numa base.",
    "hint.foundation": "Joga {card} sobre {top} na base {foundation}: é o valor de que essa base precisa a seguir, e uma carta numa base nunca se perde.",
    "hint.one_foundation": "a base {number}",
    "hint.some_foundations": "as bases {numbers} e {last}",
    "hint.foundation_tie_shown": "Joga {card} na base {foundation} e não n{others}: a base {foundation} passa a precisar de {following}, que está à vista.",
    "hint.foundation_tie_behind": "Joga {card} na base {foundation} e não n{others}: é a que tem menos cartas, e portanto a que tem mais por vir.",
    "hint.waste_first": "Põe {card} no descarte {waste}: todos os descartes estão vazios, qualquer um serve.",
    "hint.waste_empty": "Põe {card} no descarte vazio {waste}: em qualquer outro descarte taparia uma carta necessária mais cedo.",
    "hint.waste_fit": "Põe {card} no descarte {waste}, sobre {top}: {card} é necessária mais cedo (a base {card_foundation} quere-a daqui a {card_wait} cartas) do que {top} (base {top_foundation}, daqui a {top_wait}), e assim o descarte fica em ordem inversa de necessidade.",
    "hint.waste_bury": "Põe {card} no descarte {waste}, sobre {top}: todos os descartes tapariam uma carta necessária mais cedo, e {top} é a necessária mais tarde (base {top_foundation}, daqui a {top_wait} cartas).",
    "hint.monte_carlo_last": "Põe {card} no descarte {waste}: já não há cartas para virar, e das {choices} escolhas esta é a que acaba com mais cartas nas bases ({score}).",
    "hint.monte_carlo": "Põe {card} no descarte {waste}: em {samples} ordens imaginadas das {unseen} cartas por ver, esta escolha ganha {wins} delas e põe em média {average} cartas nas bases, a melhor de {choices} escolhas.",
    "hint.either_foundation": "a base {numbers} ou {last}",
    "hint.list": "{items} e {last}",
    "hint.do.waste": "passar {card} do descarte {waste} para {foundations}",
    "hint.do.stock": "pôr a carta virada, {card}, n{foundations}",
    "hint.card.waste": "{card} no descarte {waste}",
    "hint.card.turned": "a carta virada, {card}",
    "hint.turn_first": "Vira primeiro a próxima carta: {moves} pode esperar, porque a carta do topo de um descarte continua a poder subir depois de virares. Virar primeiro não te tira nada e mostra-te mais uma carta antes de escolheres.",
    "hint.waits.one": "{moves} pode esperar: continua a poder jogar-se depois desta jogada.",
    "hint.waits.many": "{moves} pode esperar: cada uma continua a poder jogar-se depois desta jogada.",
    "hint.clash": "{other} também serve na base {foundation}, mas só uma das duas pode ir agora para lá: a dica joga a primeira que a regra dela encontra (a carta virada, depois os descartes por ordem), sem pesar as duas.",
    "hint.other.fewer_wins": "Depois de {move}, o resolvedor achou uma vitória em {won} das mesmas {futures} ordens, contra {best} depois desta jogada.",
    "hint.other.fewer_points": "Depois de {move}, o resolvedor achou uma vitória em {won} das mesmas {futures} ordens e não soube dizer em {unknown}: {points} ao todo, contando meia cada uma em que não soube, contra {best} depois desta jogada.",
    "hint.other.dropped": "Depois de {move}, o resolvedor achou uma vitória em só {won} das primeiras {futures} ordens (e não soube dizer em {unknown}): poucas demais para alcançar a melhor, por isso não foi experimentada em mais.",
    "hint.other.exact_lost": "Depois de {move}, o jogo já não pode ser ganho: sem cartas para virar, o resolvedor vê o jogo todo.",
    "hint.other.tied": "Depois de {move}, a contagem do resolvedor nessas ordens foi a mesma.",
    "hint.other.exact_won": "Depois de {move}, o jogo também pode ser ganho.",
    "hint.tie.fewer_wins": "Depois, a necessidade inversa jogou cada jogada até ao fim, às cegas, em mais {rollouts} ordens imaginadas: ganhou {wins} desses jogos depois dela, contra {best} depois desta jogada.",
    "hint.tie.fewer_cards": "Depois, a necessidade inversa jogou cada jogada até ao fim, às cegas, em mais {rollouts} ordens imaginadas: ganhou tantos desses jogos depois dela ({wins}), mas pôs menos cartas nas bases ao todo ({cards} contra {best}).",
    "hint.tie.same": "Depois, a necessidade inversa jogou cada jogada até ao fim, às cegas, em mais {rollouts} ordens imaginadas, e saiu-se igualmente bem depois das duas.",
    "hint.tie.exact_fewer_wins": "Depois, a necessidade inversa, jogando a partir de cada uma, ganha depois desta jogada e não depois dela.",
    "hint.tie.exact_fewer_cards": "Depois, a necessidade inversa, jogando a partir de cada uma, acaba com {cards} cartas nas bases depois dela, contra {best} depois desta jogada.",
    "hint.tie.exact_same": "Depois, a necessidade inversa, jogando a partir de cada uma, acaba da mesma maneira depois das duas.",
    "hint.tie.preferred": "Por isso a dica escolheu a jogada que a própria necessidade inversa faria aqui.",
    "hint.tie.order": "Por isso a dica escolheu a primeira das duas pela ordem dos botões das jogadas.",
    "hint.stopped": "A dica parou ao fim de {counted} das {samples} ordens imaginadas que conta, para responder depressa.",
    "coach.widget.decimal": ",",
    "coach.widget.random": "Um jogador ao acaso escolhe qualquer jogada legal.",
    "coach.widget.first_fit": "O primeiro encaixe põe no primeiro descarte cada carta que não serve a uma base.",
    "coach.widget.forced": "Aqui não havia mais nada a ponderar.",
    "coach.widget.determinized": "Em {futures} ordens imaginadas das cartas viradas para baixo, o resolvedor achou uma vitória "
    "depois desta jogada em {won} (e não soube dizer em {unknown})",
    "coach.widget.determinized_last_won": "Não resta carta para virar, por isso o resolvedor vê o jogo todo: ganha "
    "depois desta jogada.",
    "coach.widget.determinized_last_lost": "Não resta carta para virar, por isso o resolvedor vê o jogo todo: já "
    "nenhuma escolha pode ganhar.",
    "coach.widget.determinized_best": ": a melhor de {choices} escolhas.",
    "coach.widget.determinized_tie": "; {tied} das {choices} escolhas saíram-se igualmente bem.",
    "coach.widget.determinized_all_tied": ", e todas as {choices} escolhas se saíram igualmente bem.",
    "coach.widget.tie_break": "Para escolher entre elas, a necessidade inversa jogou cada uma até ao fim em mais {rollouts} "
    "ordens imaginadas, sem as ver: depois desta jogada ganhou {wins} desses {rollouts} jogos, "
    "não menos do que depois de qualquer outra.",
    "coach.player.random": "ao acaso",
    "coach.player.first_fit": "primeiro encaixe",
    "coach.player.reverse_need": "necessidade inversa",
    "coach.player.kings_apart": "reis à parte",
    "coach.player.monte_carlo": "Monte Carlo",
    "coach.player.determinized": "determinizado",
    "coach.player.determinized_with_32_orders": "determinizado com 32 ordens",
    "coach.player.determinized_with_64_orders": "determinizado com 64 ordens",
    "coach.player.plain_determinized": "determinizado simples",
    "coach.player.determinized_+_second_look": "determinizado + segundo olhar",
}
