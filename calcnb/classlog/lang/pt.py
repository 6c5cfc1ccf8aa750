"""The words of calcnb.classlog in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    # calcnb.classroom.log
    "classlog.bad_location": "{location} não é um registo da turma: indique um caminho de ficheiro (SQLite) ou um URL de base de dados como postgresql://utilizador@servidor/bd",
    "classlog.in_memory": "{location} é uma base de dados em memória: nada nela ficaria guardado depois da lição; indique um caminho de ficheiro (SQLite) ou um URL de base de dados",
    "classlog.no_log_at": "não há registo da turma em {path} ({location}): indique o ficheiro com que a aplicação da lição foi iniciada (--class-log FICHEIRO), como caminho a partir da pasta atual ou caminho completo",
    "classlog.moved": "o registo da turma {location} foi apagado ou substituído depois de aberto: nada é escrito nele",
    "classlog.cannot_open": "o registo da turma {location} não pode ser aberto: {reason}",
    "classlog.schema": "o registo da turma {location} tem a versão de esquema {found}; este calcnb escreve a versão {expected}: comece um registo novo",
    "classlog.bad_nickname": "{nickname} não é uma alcunha: escreve um nome de 1 a {limit} caracteres (nenhum outro dado pessoal)",
    "classroom.blank_nickname": "A alcunha que escreveste não mostra nada no ecrã: só tem caracteres em branco ou invisíveis. Escreve uma alcunha com letras ou algarismos que toda a gente consiga ver.",
    "classlog.bad_game": "um jogo precisa de uma semente e de uma pontuação inteiras; recebeu a semente {seed} e a pontuação {score}",
    "classroom.taken": "Alguém nesta turma já entrou como {nickname} (ou com uma alcunha que parece igual). Se foste tu, numa página que fechaste ou recarregaste, escreve o código para voltar que essa página te mostrou e continua como {nickname}. Se não foste tu, escreve outra alcunha, para que o teu professor veja dois alunos.",
    "classview.numbered": "{number}. {text}",
    "classview.other": "outra",
    "classview.summary_title": "Fim da aula: cada aluno",
    "classview.summary_legend": "Como terminou cada um dos {count} exercícios para cada aluno. Certo: resposta certa antes de qualquer Mostrar resposta. Errado: respondeu, nunca certo. Ilegível: nenhuma resposta pôde ser lida. Resposta mostrada: carregou em Mostrar resposta antes de acertar. Bloqueado em: o exercício das últimas {stuck} respostas julgadas erradas.",
    "classview.summary.nickname": "Alcunha",
    "classview.summary.right": "Certos",
    "classview.summary.wrong": "Errados",
    "classview.summary.unreadable": "Ilegíveis",
    "classview.summary.revealed": "Resposta mostrada",
    "classview.summary.not_tried": "Por tentar",
    "classview.summary.stuck": "Bloqueado em",
    "classview.summary.marks": "✓ certo · ✗ errado · ? ilegível · ◉ resposta mostrada · em branco: por tentar",
    "classview.summary.exercises": "Os exercícios",
    "classview.summary.made": "{location}, {time}",
}
