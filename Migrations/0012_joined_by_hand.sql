-- ChartArchive schema, version 12: a disagreement a person's decision explains (docs/rules.md,
-- "Corrections"; docs/audit.md, "Causes"), kept as a verdict of cause 6, joined by hand: the
-- entry's song, or the song its published previous rank names, had its entries joined with
-- another song's, or split from one, by a merge or split on the chart at or before the entry.
-- A shipped migration is never edited: a change to the schema is a new file.

-- The verdicts table again, its cause taking 6: SQLite changes a CHECK constraint only by making
-- the table again (https://www.sqlite.org/lang_altertable.html#otheralter). Its rows are kept.
CREATE TABLE verdicts_joined_by_hand (
  snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  -- 0 previous rank, 1 peak position, 2 weeks on chart, 3 run, 4 movement.
  figure INTEGER NOT NULL CHECK (figure IN (0, 1, 2, 3, 4)),
  -- The archive's own figure; NULL for a previous rank: not on the archive's previous snapshot;
  -- NULL for a movement (the entry's own is the archive's).
  derived INTEGER,
  -- 0 source gap, 1 rank shift, 2 credit change, 3 two recordings, 4 tie, 5 unexplained,
  -- 6 joined by hand.
  cause INTEGER NOT NULL CHECK (cause BETWEEN 0 AND 6),
  PRIMARY KEY (snapshot_id, position, figure)
) WITHOUT ROWID;
INSERT INTO verdicts_joined_by_hand (snapshot_id, position, figure, derived, cause)
  SELECT snapshot_id, position, figure, derived, cause FROM verdicts;
DROP TABLE verdicts;
ALTER TABLE verdicts_joined_by_hand RENAME TO verdicts;
