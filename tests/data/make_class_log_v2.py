"""How ``class_log_v2.db`` and ``class_log_v2.postgresql.sql`` were made: with the class log code of calcnb at commit
ac5185f (before the class log was split into schema, store, log and queries, and before outcomes were an enum).

Run it with that commit's tree first on the path, never this one's (it checks)::

    mkdir /tmp/old && git archive ac5185f calcnb | tar -x -C /tmp/old
    cd /tmp && PYTHONPATH=/tmp/old python /path/to/tests/data/make_class_log_v2.py /path/to/tests/data

It writes a class log of four students (one never answers; one nickname is markup), their checks of each
outcome through ``record_keyed`` and ``record``, two pages' health rows and two games, and the DDL that code's
``METADATA`` compiles to on PostgreSQL. ``tests/test_class_old_logs.py`` reads them back with today's code.
"""

from __future__ import annotations

import sys
from pathlib import Path

T0 = 1_800_000_000.0


def main(folder: Path) -> None:
    import calcnb.classroom.log as old  # that commit's module (the log is calcnb.classlog.store now)
    import sqlalchemy as sa
    from calcnb.lessons.bank import Attempt  # the Attempt of ac5185f: outcomes as plain text
    from sqlalchemy.dialects import postgresql

    assert not Path(old.__file__).is_relative_to(folder.parent.parent), "run it with the old tree on the path"
    out = folder / "class_log_v2.db"
    out.unlink(missing_ok=True)
    log = old.open_class_log(out)
    print("class key", log.class_key())
    log.join("ana", "en", when=T0)
    log.join("Bia", "pt", when=T0 + 1)
    log.join("<b>zé</b>", "pt", when=T0 + 2)
    log.join("duda", "en", when=T0 + 3)  # joins, never answers
    checks = [
        ("page-a", 1, "ana", Attempt("next-wrap", 3, "14", "wrong", "no_wraparound", "en", T0 + 10)),
        ("page-a", 2, "ana", Attempt("next-wrap", 3, "", "revealed", None, "en", T0 + 20)),
        ("page-a", 3, "ana", Attempt("next-wrap", 3, "1", "right", None, "en", T0 + 30)),
        ("page-b", 1, "Bia", Attempt("clock", 0, "?", "unreadable", None, "pt", T0 + 11)),
        ("page-b", 2, "Bia", Attempt("clock", 0, "0", "wrong", "zero_for_king", "pt", T0 + 21)),
        ("page-b", 3, "Bia", Attempt("clock", 0, "=1+1", "wrong", None, "pt", T0 + 31)),
        ("page-b", 4, "Bia", Attempt("clock", 0, "12", "wrong", "off_by_one", "pt", T0 + 41)),
        ("page-c", 1, "<b>zé</b>", Attempt("clock", 0, "13", "right", None, "pt", T0 + 12)),
    ]
    for writer, sequence, nickname, attempt in checks:
        assert log.record_keyed(writer, sequence, nickname, attempt) == old.WRITTEN
    log.record("<b>zé</b>", Attempt("visits", "2-7", "1; DROP TABLE x", "wrong", None, "pt", T0 + 50))
    log.report("page-a", "ana", waiting=0, written=3, last_write=T0 + 30, last_failure=None, failure=None)
    log.report("page-b", "Bia", waiting=1, written=4, last_write=T0 + 41, last_failure=T0 + 45,
               failure="database is locked")  # fmt: skip
    log.record_game("Bia", 10_000_000, "Monte Carlo 32", True, 52, when=T0 + 60)
    log.record_game("Bia", 10_000_001, "Monte Carlo 32", False, 31, when=T0 + 61)
    log.checkpoint()
    log.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{out}{suffix}").unlink(missing_ok=True)
    tables = old.METADATA.sorted_tables
    ddl = [str(sa.schema.CreateTable(table).compile(dialect=postgresql.dialect())) for table in tables]
    ddl += [str(sa.schema.CreateIndex(index).compile(dialect=postgresql.dialect()))
            for table in tables for index in table.indexes]  # fmt: skip
    lines = "\n\n".join(statement.strip() + ";" for statement in ddl).splitlines()
    header = (
        "-- The tables of a class log as calcnb at commit ac5185f made them on PostgreSQL: its METADATA.create_all,\n"
        "-- compiled for the postgresql dialect by that commit's calcnb/classroom/log.py."
        " tests/test_class_old_logs.py\n"
        "-- makes them, copies the rows of class_log_v2.db (written by that code) into them, and reads the log back.\n"
    )
    text = header + "\n" + "\n".join(line.rstrip() for line in lines) + "\n"
    (folder / "class_log_v2.postgresql.sql").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
