"""The words of calcnb.serve.shared in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    # calcnb.serve.cli
    "app.not_found": "{path} não existe: indique um notebook (.ipynb) ou uma pasta de notebooks",
    "app.not_notebook": "{path} não é um notebook: indique um ficheiro .ipynb ou uma pasta",
    "app.name_too_long": "{text} é demasiado longo para nomear um notebook ou uma pasta",
    "app.unreadable_path": "não é possível procurar {text}: {reason}",
    "app.no_notebooks_dir": "não há pasta notebooks em {path} (o calcnb foi instalado sem os seus notebooks: reinstale-o a partir do wheel ou do repositório): indique um notebook ou uma pasta",
    # calcnb.serve.gate
    "serve.page_missing": "Esta página não existe nesta aplicação. Confirma o endereço que o professor deu.",
    "serve.server_gone": "A aplicação deixou de responder: o que fizeres agora não fica guardado. Avisa o professor e recarrega esta página quando a aplicação voltar.",
    "gate.full_title": "A turma está cheia",
    "gate.full": "A aplicação já tem {most} páginas abertas, tantas quantas este servidor aceita ao mesmo tempo. Recarrega esta página daqui a um minuto, quando alguém tiver fechado uma, ou avisa o professor.",
    "gate.device_title": "Demasiadas páginas abertas neste dispositivo",
    "gate.device": "Este dispositivo já tem {most} páginas da aplicação abertas, tantas quantas um dispositivo pode ter. Fecha um dos outros separadores ou janelas da aplicação e recarrega esta página (o lugar de uma página fechada fica livre em menos de um minuto).",
    "gate.code_title": "Código da turma",
    "gate.code_prompt": "Escreve o código da turma que o professor mostra com o endereço da aplicação.",
    "gate.code_label": "Código da turma",
    "gate.code_button": "Abrir a aplicação",
    "gate.code_wrong": "Esse não é o código da turma. Confirma-o no ecrã do professor e escreve-o outra vez.",
    "gate.code_locked": "Demasiados códigos errados a partir deste dispositivo. Tenta de novo daqui a {minutes} min, com o código do ecrã do professor.",
    "gate.code_busy": "Demasiados códigos errados a partir desta rede neste momento. Tenta de novo daqui a {minutes} min, com o código do ecrã do professor.",
    "gate.bad_class_code": "um código da turma tem de ter de {shortest} a {longest} letras ou algarismos (os espaços e os hífenes não contam)",
}
