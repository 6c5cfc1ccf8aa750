"""The words of calcnb.serve.class_server in Portuguese, by key (a key missing here is shown in English)."""

MESSAGES: dict[str, str] = {
    "serve.page_title": "calcnb: {name}",
    "serve.page_failed": "Não foi possível abrir esta página. Avisa o professor: os pormenores estão no terminal que iniciou a aplicação.",
    "serve.page_too_long": "Esta página demorou demasiado a abrir e foi parada, para não fazer esperar os colegas. Recarrega-a para tentar de novo; se parar outra vez, avisa o professor: os pormenores estão no terminal que iniciou a aplicação.",
}
