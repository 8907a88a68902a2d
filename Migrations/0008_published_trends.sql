-- ChartArchive schema, version 8: the movement a source publishes beside an entry (a charts CSV's
-- trend, Spotify's entryStatus, kworb's P+, the UK chart's New and RE), kept with each entry and
-- compared with the archive's movement as the other published figures are, its disagreements
-- kept as verdicts.
-- A shipped migration is never edited: a change to the schema is a new file.

-- What the marker says and the marker as the source wrote it, after a colon: `up: MOVE_UP`,
-- `up 3: +3`, `down 2: -2`, `unchanged: =`, `not on previous: NEW_ENTRY` (a debut or a re-entry,
-- the source does not say which), `debut: New`, `re-entry: RE`; NULL when the source gives none.
-- One column, so that an import of a source without markers writes one NULL more per entry.
ALTER TABLE entries ADD COLUMN published_trend TEXT CHECK (instr(published_trend, ': ') > 1);

-- The verdicts table again, its figure taking 4 (movement): SQLite changes a CHECK constraint only
-- by making the table again (https://www.sqlite.org/lang_altertable.html#otheralter).
CREATE TABLE verdicts_with_movements (
  snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  -- 0 previous rank, 1 peak position, 2 weeks on chart, 3 run, 4 movement.
  figure INTEGER NOT NULL CHECK (figure IN (0, 1, 2, 3, 4)),
  -- The archive's own figure; NULL for a previous rank: not on the archive's previous snapshot;
  -- NULL for a movement (the entry's own is the archive's).
  derived INTEGER,
  -- 0 source gap, 1 rank shift, 2 credit change, 3 two recordings, 4 tie, 5 unexplained.
  cause INTEGER NOT NULL CHECK (cause BETWEEN 0 AND 5),
  PRIMARY KEY (snapshot_id, position, figure)
) WITHOUT ROWID;
INSERT INTO verdicts_with_movements (snapshot_id, position, figure, derived, cause)
  SELECT snapshot_id, position, figure, derived, cause FROM verdicts;
DROP TABLE verdicts;
ALTER TABLE verdicts_with_movements RENAME TO verdicts;
