"""The words of calcnb.serve.class_server in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    "serve.page_title": "calcnb: {name}",
    "serve.page_failed": "This page could not be opened. Tell your teacher: the details are in the terminal that started the app.",
    "serve.page_too_long": "This page took too long to open and was stopped, so as not to keep the others waiting. Reload it to try again; if it stops again, tell your teacher: the details are in the terminal that started the app.",
}
