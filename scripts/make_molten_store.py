#!/usr/bin/env python3
"""A Molten store (model version 5) of N glass plans and N project logs, for the benchmark's
Transformable case: the schema, metadata and blobs of the sample store Samples/molten/Molten.sqlite
(written by `make samples` as Core Data lays it out), its first plan and first log cloned N times
with fresh ids: each plan with its keyed-archive blobs (three glass items, a reference URL, tags),
two steps (one with its glass-item blob) and an image; each log with its blobs (two glass items,
techniques, tags), an image, and its plan's id.
Usage: make_molten_store.py N OUT.sqlite"""
import os, sys, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_brewguide_store import sample_copy  # noqa: E402
NAMESPACE = uuid.UUID("6B1E3F0A-527D-4C91-8E2B-3A640F9C11D5")


def main():
    count, out = int(sys.argv[1]), sys.argv[2]
    db = sample_copy("Samples/molten/Molten.sqlite", out)

    def columns(table):
        return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]

    def first(table, where):
        names = columns(table)
        return names, [dict(zip(names, row)) for row in db.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY Z_PK")]

    plan_columns, (plan,) = first("ZPROJECTPLAN", "Z_PK = 1")
    step_columns, steps = first("ZPROJECTSTEP", "ZPLAN = 1")
    image_columns, images = first("ZPROJECTIMAGE", "Z_PK IN (1, 2)")
    log_columns, (log,) = first("ZPROJECTLOG", "Z_PK = 1")
    for table in ("ZPROJECTPLAN", "ZPROJECTSTEP", "ZPROJECTIMAGE", "ZPROJECTLOG"):
        db.execute(f"DELETE FROM {table}")

    def insert(table, names, rows):
        db.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                       ([row[name] for name in names] for row in rows))

    def ident(kind, number):
        return uuid.uuid5(NAMESPACE, f"{kind}-{number}").bytes

    def plans():
        for number in range(1, count + 1):
            yield dict(plan, Z_PK=number, ZID=ident("plan", number), ZTITLE=f"Frit bowl {number}")

    def plan_steps():
        for number in range(1, count + 1):
            for index, step in enumerate(steps):
                yield dict(step, Z_PK=(number - 1) * len(steps) + index + 1, ZPLAN=number, ZID=ident(f"step{index}", number))

    def logs():
        for number in range(1, count + 1):
            yield dict(log, Z_PK=number, ZID=ident("log", number), ZBASED_ON_PLAN_ID=ident("plan", number), ZTITLE=f"Fish {number}")

    def all_images():
        for number in range(1, count + 1):
            yield dict(images[0], Z_PK=2 * number - 1, ZPLAN=number, ZLOG=None, ZID=ident("plan-image", number))
            yield dict(images[1], Z_PK=2 * number, ZPLAN=None, ZLOG=number, ZID=ident("log-image", number))

    insert("ZPROJECTPLAN", plan_columns, plans())
    insert("ZPROJECTSTEP", step_columns, plan_steps())
    insert("ZPROJECTLOG", log_columns, logs())
    insert("ZPROJECTIMAGE", image_columns, all_images())
    for name, table in (("ProjectPlan", "ZPROJECTPLAN"), ("ProjectStep", "ZPROJECTSTEP"), ("ProjectLog", "ZPROJECTLOG"),
                        ("ProjectImage", "ZPROJECTIMAGE")):
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT coalesce(max(Z_PK), 0) FROM " + table + ") WHERE Z_NAME = ?", (name,))
    db.commit()
    rows = sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("ZPROJECTPLAN", "ZPROJECTSTEP", "ZPROJECTLOG", "ZPROJECTIMAGE"))
    db.close()
    os.rename(out + ".partial", out)
    print(f"make_molten_store: {count} plans and {count} logs ({rows} rows) in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
