-- ChartArchive schema, version 16: the time zone a chart is cut in (a chart app's weekly chart cut
-- every Saturday at 12:00 Korea time), by which a date names the chart's snapshot of that day, and
-- the yearly frequency (a year-end chart, its chart date December 31 of its year).
-- A shipped migration is never edited: a change to the schema is a new file.
--
-- A CHECK constraint changes only with its table, rebuilt as SQLite describes
-- (<https://www.sqlite.org/lang_altertable.html>, "Making Other Kinds Of Table Schema Changes"):
-- the migrator turns foreign keys off around this migration (dropping `charts` would otherwise
-- delete every snapshot) and checks them before the commit. The rename is made with
-- legacy_alter_table on, so that it leaves the views that name `charts` as they are written: they
-- name the new table once it has its name.

CREATE TABLE charts_with_zones (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
  -- How often the chart is published, when known.
  frequency TEXT CHECK (frequency IN ('hourly', 'daily', 'weekly', 'monthly', 'yearly', 'all-time')),
  -- The IANA time zone its snapshots are cut in (Asia/Seoul), set by its first import that gives
  -- one; NULL for UTC. Chart times stay instants (seconds since 1970-01-01T00:00:00Z).
  time_zone TEXT
);

INSERT INTO charts_with_zones (id, name, frequency, time_zone)
SELECT id, name, frequency, NULL FROM charts;

DROP TABLE charts;

PRAGMA legacy_alter_table = ON;
ALTER TABLE charts_with_zones RENAME TO charts;
PRAGMA legacy_alter_table = OFF;
