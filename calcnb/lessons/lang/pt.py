"""The words of calcnb.lessons in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    "lessons.teacher_key_read": "A chave da turma foi lida do registo da turma: estas são as perguntas que os seus alunos veem.",
    "lessons.teacher_no_key": "Ainda não há registo da turma: estas são as perguntas de uma lição servida sem --class-log. Inicie primeiro a aplicação da lição e depois corra esta célula outra vez.",
    "lessons.mis.off_by_one": "erro de um",
    "lessons.mis.no_wraparound": "esquece a volta depois do K",
    "lessons.mis.counting_the_start": "conta mal o início",
    "lessons.mis.zero_not_on_clock": "0, que não está no relógio (vai de 1 a 13)",
    "lessons.mis.wrong_step": "soma o passo errado",
    "lessons.mis.stops_at_king": "para no 13 (K) em vez de dar a volta",
    "catalogue.ages": "{low}–{high} anos",
    "catalogue.minutes": "cerca de {minutes} minutos",
    "catalogue.heading": "As lições, dos alunos mais novos para os mais velhos. Sirva uma com o seu comando; junte --host 0.0.0.0 para os computadores de uma turma, --lang pt para português. A vista da turma: python -m calcnb class-view lesson.db",
    "catalogue.line": "{number}. {title} ({ages}, {minutes}, {count} exercícios)\n   {summary}\n   servir:               {command}\n   notas do professor:   {teacher}",
    "catalogue.no_teacher_notes": "(sem notas para o professor)",
    "catalogue.bad_key": "a chave de uma lição é feita de letras minúsculas e algarismos, palavras unidas por _ (como counting ou clock_of_13), não {key}",
    "catalogue.missing_exercises": "a lição {key} pede exercícios que não tem: {exercises}",
    "catalogue.no_widgets": "a lição {key} não tem widgets próprios",
    "catalogue.not_a_lesson": "um ponto de entrada do grupo calcnb.lessons tem de indicar uma calcnb.lessons.Lesson, não um {found}",
    "catalogue.clash": "estes nomes já estão tomados: {names}",
    "catalogue.plugin_failed": "a lição {entry} ficou de fora: {error}",
    "catalogue.unknown": "não há nenhuma lição {name}: as lições são {names}",
}
