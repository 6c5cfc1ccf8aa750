"""The words of calcnb.lessons in English, by key: the reference every other language translates."""

MESSAGES: dict[str, str] = {
    "lessons.teacher_key_read": "The class key was read from the class log: these are the questions your students see.",
    "lessons.teacher_no_key": "No class log yet: these are the questions of a lesson served without --class-log. Start the lesson app first, then run this cell again.",
    "lessons.mis.off_by_one": "off by one",
    "lessons.mis.no_wraparound": "forgets the wraparound past K",
    "lessons.mis.counting_the_start": "counts the start wrongly",
    "lessons.mis.zero_not_on_clock": "0, which is not on the clock (it runs from 1 to 13)",
    "lessons.mis.wrong_step": "adds the wrong step",
    "lessons.mis.stops_at_king": "stops at 13 (K) instead of going round",
    "catalogue.ages": "ages {low}–{high}",
    "catalogue.minutes": "about {minutes} minutes",
    "catalogue.heading": "The lessons, youngest first. Serve one with its command; add --host 0.0.0.0 for a class's computers, --lang pt for Portuguese. The class view: python -m calcnb class-view lesson.db",
    "catalogue.line": "{number}. {title} ({ages}, {minutes}, {count} exercises)\n   {summary}\n   serve it:        {command}\n   teacher's notes: {teacher}",
    "catalogue.no_teacher_notes": "(no teacher's notes)",
    "catalogue.bad_key": "a lesson's key is lower-case letters and digits, words joined by _ (such as counting or clock_of_13), not {key}",
    "catalogue.missing_exercises": "the lesson {key} asks exercises it does not have: {exercises}",
    "catalogue.no_widgets": "the lesson {key} has no widgets of its own",
    "catalogue.not_a_lesson": "an entry point of the group calcnb.lessons must name a calcnb.lessons.Lesson, not a {found}",
    "catalogue.clash": "its names are taken already: {names}",
    "catalogue.plugin_failed": "the lesson {entry} was left out: {error}",
    "catalogue.unknown": "there is no lesson {name}: the lessons are {names}",
}
