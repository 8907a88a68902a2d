-- ChartArchive schema, version 8: the movement a source publishes beside an entry (a charts CSV's
-- trend, Spotify's entryStatus, kworb's P+, the UK chart's New and RE), kept with each entry and
-- compared with the archive's movement as the other published figures are, its disagreements
-- kept as verdicts.
-- A shipped migration is never edited: a change to the schema is a new file.

-- The marker as the source wrote it (MOVE_UP, RE_ENTRY, +3, New); NULL when the source gives none.
ALTER TABLE entries ADD COLUMN published_trend TEXT CHECK (length(published_trend) > 0);
-- What the marker says: up, down, unchanged, not on previous (a debut or a re-entry, the source
-- does not say which), debut or re-entry; NULL with published_trend.
ALTER TABLE entries ADD COLUMN published_movement TEXT
  CHECK (published_movement IN ('up', 'down', 'unchanged', 'not on previous', 'debut', 're-entry'));
-- The places up or down the marker gives (kworb's +3), when it gives them.
ALTER TABLE entries ADD COLUMN published_places_moved INTEGER CHECK (published_places_moved >= 1);

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
