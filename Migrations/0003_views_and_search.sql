-- ChartArchive schema, version 3: views for SQL tools (the sqlite3 shell, Datasette, pandas) and a
-- full-text index of every title and credit a song charted under.
-- A shipped migration is never edited: a change to the schema is a new file.
-- SCHEMA.md documents every table, column and view, with example queries.

-- One row per entry, with its chart and chart date and the figures decided for it when its
-- snapshot was stored (the ones `show` prints). Ranks are 1-based; chart_date is ISO 8601.
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
  c.frequency,
  e.snapshot_id,
  e.position
FROM entries e
JOIN snapshots s ON s.id = e.snapshot_id
JOIN charts c ON c.id = s.chart_id;

-- One row per song and chart it was on: its first and last chart dates, debut rank, peak
-- position and the snapshots it spent there, weeks on chart and number of runs (the figures
-- `history` prints). A song's first and last entries are found through the index of entries by
-- song, keyed as snapshot_id * 1000000 + position (a snapshot holds fewer than 1,000,000
-- entries), so that a query about one song reads that song's entries only.
CREATE VIEW song_runs AS
SELECT
  k.song_id,
  c.name AS chart,
  g.title,
  g.artist,
  first_snapshot.chart_date AS first_chart_date,
  last_snapshot.chart_date AS last_chart_date,
  first_entry.rank AS debut_rank,
  last_entry.peak_position,
  (
    SELECT count(DISTINCT p.snapshot_id)
    FROM entries p JOIN snapshots ps ON ps.id = p.snapshot_id
    WHERE p.song_id = k.song_id AND ps.chart_id = k.chart_id AND p.rank = last_entry.peak_position
  ) AS weeks_at_peak,
  last_entry.weeks_on_chart,
  last_entry.run AS runs,
  k.entries,
  k.partial_run
FROM (
  SELECT
    e.song_id,
    s.chart_id,
    count(*) AS entries,
    max(e.figure_flags & 4 != 0) AS partial_run,
    (
      SELECT e1.snapshot_id * 1000000 + e1.position
      FROM entries e1 JOIN snapshots s1 ON s1.id = e1.snapshot_id
      WHERE e1.song_id = e.song_id AND s1.chart_id = s.chart_id
      ORDER BY s1.chart_time, e1.rank LIMIT 1
    ) AS first_key,
    (
      SELECT e1.snapshot_id * 1000000 + e1.position
      FROM entries e1 JOIN snapshots s1 ON s1.id = e1.snapshot_id
      WHERE e1.song_id = e.song_id AND s1.chart_id = s.chart_id
      ORDER BY s1.chart_time DESC, e1.rank DESC LIMIT 1
    ) AS last_key
  FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
  GROUP BY e.song_id, s.chart_id
) k
JOIN entries first_entry
  ON first_entry.snapshot_id = k.first_key / 1000000 AND first_entry.position = k.first_key % 1000000
JOIN snapshots first_snapshot ON first_snapshot.id = first_entry.snapshot_id
JOIN entries last_entry
  ON last_entry.snapshot_id = k.last_key / 1000000 AND last_entry.position = k.last_key % 1000000
JOIN snapshots last_snapshot ON last_snapshot.id = last_entry.snapshot_id
JOIN songs g ON g.id = k.song_id
JOIN charts c ON c.id = k.chart_id;

-- Each chart's latest snapshot.
CREATE VIEW latest_snapshots AS
SELECT
  c.name AS chart,
  c.frequency,
  s.chart_date,
  s.entry_count,
  s.id AS snapshot_id,
  s.source,
  s.imported_at
FROM charts c
JOIN snapshots s ON s.id = (
  SELECT id FROM snapshots WHERE chart_id = c.id ORDER BY chart_time DESC LIMIT 1
);

-- Every title and credit each song charted under (its first, in songs, and the others, in
-- song_credits), for search that ignores case and accents (https://www.sqlite.org/fts5.html,
-- "Unicode61 Tokenizer": remove_diacritics 2 folds "Café" to "cafe" and "Beyoncé" to "beyonce").
-- The triggers below keep it up to date.
CREATE VIRTUAL TABLE song_search USING fts5(
  title, artist, song_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
);

-- The terms of song_search with the number of rows holding each, for "did you mean" suggestions
-- (https://www.sqlite.org/fts5.html#the_fts5vocab_virtual_table_module).
CREATE VIRTUAL TABLE song_search_terms USING fts5vocab(song_search, 'row');

INSERT INTO song_search (title, artist, song_id) SELECT title, artist, id FROM songs;
INSERT INTO song_search (title, artist, song_id) SELECT title, artist, song_id FROM song_credits;

CREATE TRIGGER songs_searchable AFTER INSERT ON songs BEGIN
  INSERT INTO song_search (title, artist, song_id) VALUES (new.title, new.artist, new.id);
END;

CREATE TRIGGER songs_unsearchable AFTER DELETE ON songs BEGIN
  DELETE FROM song_search WHERE song_id = old.id;
END;

CREATE TRIGGER song_credits_searchable AFTER INSERT ON song_credits BEGIN
  INSERT INTO song_search (title, artist, song_id) VALUES (new.title, new.artist, new.song_id);
END;

CREATE TRIGGER song_credits_unsearchable AFTER DELETE ON song_credits BEGIN
  DELETE FROM song_search
  WHERE song_id = old.song_id AND title = old.title AND artist = old.artist;
END;
