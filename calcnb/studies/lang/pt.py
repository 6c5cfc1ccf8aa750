"""The words of calcnb.studies in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    # calcnb.studies.folklore
    "folklore.percent": "{rate:.1f}% (intervalo de 95% {low:.1f}–{high:.1f}%, {games} jogos)",
    "folklore.skilled.above": "**Confirma-se.** {name} vê só o que uma pessoa vê e ganha {measured}: "
    "todo o intervalo fica acima de 80%.",
    "folklore.skilled.below": "**Não se atinge aqui.** O melhor jogador às cegas, {name}, ganha "
    "{measured}: todo o intervalo fica abaixo de 80%.",
    "folklore.skilled.unclear": "**Poucos jogos para decidir.** O melhor jogador às cegas, {name}, "
    "ganha {measured}: o intervalo contém taxas acima e abaixo de 80%.",
    "folklore.normal.above": "**Mais do que isso.** {name} ganha {measured}: todo o intervalo fica "
    "acima de um em cinco.",
    "folklore.normal.below": "**Menos do que isso.** {name} ganha {measured}: todo o intervalo fica "
    "abaixo de um em cinco.",
    "folklore.normal.unclear": "**Poucos jogos para decidir.** {name} ganha {measured}: o intervalo "
    "contém um em cinco e taxas dos dois lados.",
    "folklore.winnable.false": "**Falso.** O resolvedor provou perdidos {lost} de {seeds} jogos "
    "(sementes {shown}): nenhuma sequência de jogadas os ganha, mesmo conhecendo todas as cartas.",
    "folklore.winnable.open": "**Por decidir.** O resolvedor ganhou {won} de {seeds} jogos e não provou "
    "nenhum perdido; {unknown} continuam por decidir. Assim, pelo menos {low:.2f}% de todos os jogos "
    "têm solução (o extremo inferior do intervalo, contando os por decidir como não ganhos).",
    "folklore.winnable.holds": "**Confirma-se em todos os jogos experimentados.** O resolvedor ganhou "
    "os {won} de {seeds} jogos, cada um com uma sequência vencedora que se repete pelas regras. Assim, "
    "pelo menos {low:.2f}% de todos os jogos têm solução; um raro jogo perdido não fica excluído.",
    "folklore.random_beats_first_fit": "Uma surpresa: jogadas ao acaso põem em média {random:.1f} "
    "cartas nas bases, mais do que as {first_fit:.1f} do primeiro encaixe, que nunca falha uma jogada "
    "para as bases. Empilhar tudo no descarte 1 tapa o que as bases precisam a seguir; ao acaso, as "
    "cartas espalham-se pelos quatro descartes.",
    "folklore.first_fit_beats_random": "O primeiro encaixe põe em média {first_fit:.1f} cartas nas "
    "bases, as jogadas ao acaso {random:.1f}.",
    "folklore.alone.measured": "jogando de novo um jogo de cada vez, pensa {median:.2f} s por escolha no "
    "jogo mediano (intervalo de 95% {low:.2f}–{high:.2f} s, {games} jogos reservados sorteados; "
    "{stored:.2f} s no estudo, que cronometrou os mesmos jogos dois a dois)",
    "folklore.alone.below": "**Dentro de um segundo.** {name}: {measured}. Todo o intervalo fica abaixo de 1 s.",
    "folklore.alone.above": "**Mais de um segundo.** {name}: {measured}. Todo o intervalo fica acima de 1 s.",
    "folklore.alone.unclear": "**Poucos jogos para dizer** se {name} pensa no máximo um segundo por "
    "escolha: {measured}, e o intervalo contém 1 s.",
    "folklore.nine_in_ten.above": "**Nove em dez, e mais.** {name} ganha {measured}: todo o intervalo "
    "fica acima de 90%.",
    "folklore.nine_in_ten.below": "**Não chega a nove em dez.** {name} ganha {measured}: todo o "
    "intervalo fica abaixo de 90%.",
    "folklore.nine_in_ten.unclear": "**Poucos jogos para dizer** se {name} ganha nove em dez: ganha "
    "{measured}, e o intervalo contém 90%.",
    "folklore.paired": "Nos {deals} jogos que ambos jogaram, {first} ganhou {first_only} que {second} "
    "perdeu, e perdeu {second_only} que {second} ganhou.",
    "folklore.paired.above": "**{first} é mais forte**: desses {split} jogos ganha uma parte cujo "
    "intervalo de 95% ({low:.0f}–{high:.0f}%) fica acima de metade.",
    "folklore.paired.below": "**{second} é mais forte**: desses {split} jogos, {first} ganha uma parte "
    "cujo intervalo de 95% ({low:.0f}–{high:.0f}%) fica abaixo de metade.",
    "folklore.paired.unclear": "**Poucos jogos para dizer qual é mais forte**: desses {split} jogos, "
    "{first} ganha uma parte cujo intervalo de 95% ({low:.0f}–{high:.0f}%) contém metade.",
    # calcnb.studies.measure
    "study.seeds_text": "as sementes são uma contagem ou um iterável de sementes, não um texto: {value} (study(jogador, [42]) estuda a semente 42)",
    "study.negative_count": "um estudo não pode ter um número negativo de distribuições; recebi {value}",
    "study.bad_seeds": "as sementes são uma contagem ou um iterável de sementes; recebi {value}",
    "study.bad_seed": "a semente número {index} do estudo: {reason}",
    "study.bad_chunk": "chunk_size é um número inteiro de sementes, pelo menos 1, ou None; recebi {value}",
    # calcnb.studies.measure
    "study.no_seed": "a semente {seed} não faz parte deste estudo",
    "study.bad_executor": "o executor tem de ser None, 'serial' ou um Executor; recebi {executor}",
    "study.bad_player": "study precisa de um Player, uma função solve ou 'solver'; recebi {player}",
    "study.serial_unguarded": 'study(): a correr num só núcleo: {script} chama study() fora de um bloco if __name__ == "__main__":, e os processos de trabalho (iniciados por {method}) voltariam a correr o script; põe o código dele debaixo dessa linha para usar todos os núcleos.',
    "study.pool_broke": "study(): os processos de trabalho pararam ({reason}); os restantes jogos são jogados num só núcleo.",
    "study.summary": "{name}: {wins}/{games} ganhos = {rate}% (IC 95% {low}–{high}%)",
    "study.summary_undecided": "perdidos {lost}, por decidir {unknown}",
    "study.summary_mean": "pontuação média {mean}",
    "study.summary_median": "mediana {ms} ms/distribuição",
    "study.html_deals": "distribuições",
    "study.html_won": "ganhos",
    "study.html_interval": "intervalo de 95%",
    "study.html_lost": "perdidos",
    "study.html_unknown": "por decidir",
    "study.html_mean": "pontuação média",
    "study.html_median": "tempo mediano",
    "study.html_median_value": "{ms} ms por distribuição",
}
