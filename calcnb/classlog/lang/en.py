"""The words of calcnb.classlog in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    # calcnb.classroom.log
    "classlog.bad_location": "{location} is not a class log: give a file path (SQLite) or a database URL such as postgresql://user@host/db",
    "classlog.in_memory": "{location} is a database in memory: nothing in it would be kept after the lesson; give a file path (SQLite) or a database URL",
    "classlog.no_log_at": "there is no class log at {path} ({location}): give the file the lesson app was started with (--class-log FILE), as a path from the current folder or a full path",
    "classlog.moved": "the class log {location} was deleted or replaced since it was opened: nothing is written to it",
    "classlog.cannot_open": "the class log {location} cannot be opened: {reason}",
    "classlog.schema": "the class log {location} has schema version {found}; this calcnb writes version {expected}: start a new log",
    "classlog.bad_nickname": "{nickname} is not a nickname: type a name of 1 to {limit} characters (no other personal data)",
    "classroom.blank_nickname": "The nickname you typed shows nothing on screen: it has only blank or invisible characters. Type a nickname with letters or digits that everyone can see.",
    "classlog.bad_game": "a game needs a whole-number seed and score; got seed {seed}, score {score}",
    "classroom.taken": "Someone in this class has already joined as {nickname} (or as a nickname that looks the same). If that was you, on a page you closed or reloaded, type the rejoin code that page showed you and go on as {nickname}. If not, type another nickname, so that your teacher sees two students.",
    "classview.numbered": "{number}. {text}",
    "classview.other": "other",
    "classview.summary_title": "End of the lesson: each student",
    "classview.summary_legend": "How each of the {count} exercises ended for each student. Right: answered right before any Show answer. Wrong: answered, never right. Unreadable: no answer could be read. Answer shown: Show answer pressed before a right answer. Stuck on: the exercise of the last {stuck} answers judged wrong.",
    "classview.summary.nickname": "Nickname",
    "classview.summary.right": "Right",
    "classview.summary.wrong": "Wrong",
    "classview.summary.unreadable": "Unreadable",
    "classview.summary.revealed": "Answer shown",
    "classview.summary.not_tried": "Not tried",
    "classview.summary.stuck": "Stuck on",
    "classview.summary.marks": "✓ right · ✗ wrong · ? unreadable · ◉ answer shown · blank: not tried",
    "classview.summary.exercises": "The exercises",
    "classview.summary.made": "{location}, {time}",
}
