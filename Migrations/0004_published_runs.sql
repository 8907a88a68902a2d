-- ChartArchive schema, version 4: the run number a source publishes (the "Hot Stuff" dataset's
-- instance), kept with each entry and compared with the archive's run as the other figures are.
-- A shipped migration is never edited: a change to the schema is a new file.

-- The song's run as the source numbered it: 1 for its first time on the chart, one more after
-- each re-entry; NULL when the source numbers none.
ALTER TABLE entries ADD COLUMN published_run INTEGER CHECK (published_run >= 1);

-- The verdicts table again, its figure taking 3 (run): SQLite changes a CHECK constraint only by
-- making the table again (https://www.sqlite.org/lang_altertable.html#otheralter).
CREATE TABLE verdicts_with_runs (
  snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  -- 0 previous rank, 1 peak position, 2 weeks on chart, 3 run.
  figure INTEGER NOT NULL CHECK (figure IN (0, 1, 2, 3)),
  -- The archive's own figure; NULL for a previous rank: not on the archive's previous snapshot.
  derived INTEGER,
  -- 0 source gap, 1 rank shift, 2 credit change, 3 two recordings, 4 tie, 5 unexplained.
  cause INTEGER NOT NULL CHECK (cause BETWEEN 0 AND 5),
  PRIMARY KEY (snapshot_id, position, figure)
) WITHOUT ROWID;
INSERT INTO verdicts_with_runs (snapshot_id, position, figure, derived, cause)
  SELECT snapshot_id, position, figure, derived, cause FROM verdicts;
DROP TABLE verdicts;
ALTER TABLE verdicts_with_runs RENAME TO verdicts;

-- chart_entries with the published run beside the other published figures.
DROP VIEW chart_entries;
CREATE VIEW chart_entries AS
SELECT
  c.name AS chart,
  s.chart_date,
  e.rank,
  -- up, down, unchanged, new or re-entry.
  CASE
    WHEN e.previous_rank IS NULL THEN CASE WHEN e.figure_flags & 8 THEN 're-entry' ELSE 'new' END
    WHEN e.previous_rank > e.rank THEN 'up'
    WHEN e.previous_rank < e.rank THEN 'down'
    ELSE 'unchanged'
  END AS movement,
  -- Places gained since the previous snapshot: positive up, negative down, NULL when new or back.
  e.previous_rank - e.rank AS places_moved,
  e.previous_rank,
  e.peak_position,
  -- Snapshots of the chart the song was on up to this one: weeks, or days for a daily chart.
  e.weeks_on_chart,
  e.streams,
  e.title,
  e.artist,
  e.image_url,
  e.song_url,
  e.song_id,
  -- 1 for the song's first run on the chart, one more at each re-entry.
  e.run,
  CASE e.figure_flags & 3 WHEN 0 THEN 'published' WHEN 1 THEN 'derived' ELSE 'corrected' END
    AS previous_rank_source,
  e.figure_flags & 4 != 0 AS partial_run,
  e.published_previous_rank,
  e.published_peak_position,
  e.published_weeks_on_chart,
  e.published_run,
  c.frequency,
  e.snapshot_id,
  e.position
FROM entries e
JOIN snapshots s ON s.id = e.snapshot_id
JOIN charts c ON c.id = s.chart_id;
