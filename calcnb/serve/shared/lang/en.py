"""The words of calcnb.serve.shared in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    # calcnb.serve.cli
    "app.not_found": "{path} does not exist: name a notebook (.ipynb) or a folder of notebooks",
    "app.not_notebook": "{path} is not a notebook: name a .ipynb file or a folder",
    "app.name_too_long": "{text} is too long to name a notebook or a folder",
    "app.unreadable_path": "{text} cannot be looked up: {reason}",
    "app.no_notebooks_dir": "there is no notebooks folder at {path} (calcnb was installed without its notebooks: reinstall it from its wheel or its repository): name a notebook or folder instead",
    # calcnb.serve.gate
    "serve.page_missing": "There is no such page in this app. Check the address your teacher gave.",
    "serve.server_gone": "The app has stopped answering: what you do now is not saved. Tell your teacher, then reload this page when the app is back.",
    "gate.full_title": "The class is full",
    "gate.full": "The app already has {most} pages open, as many as this server takes at once. Reload this page in a minute, when someone has closed theirs, or tell your teacher.",
    "gate.device_title": "Too many pages open on this device",
    "gate.device": "This device already has {most} pages of the app open, as many as one device may. Close one of the other tabs or windows of the app, then reload this page (a closed page's place is free within a minute).",
    "gate.code_title": "Class code",
    "gate.code_prompt": "Type the class code your teacher shows with the address of the app.",
    "gate.code_label": "Class code",
    "gate.code_button": "Open the app",
    "gate.code_wrong": "That is not the class code. Check it on your teacher's screen and type it again.",
    "gate.code_locked": "Too many wrong codes from this device. Try again in {minutes} min, with the code on your teacher's screen.",
    "gate.code_busy": "Too many wrong codes from this network just now. Try again in {minutes} min, with the code on your teacher's screen.",
    "gate.bad_class_code": "a class code has {shortest} to {longest} letters or digits (spaces and hyphens are ignored)",
}
