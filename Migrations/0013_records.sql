-- ChartArchive schema, version 13: a chart's records (docs/rules.md, "Records"; docs/schema.md,
-- "Records"), read from the figures each entry's row keeps (rank, previous rank, weeks on chart,
-- run and the "charted before" bit of figure_flags): nothing is decided again in SQL.
-- A shipped migration is never edited: a change to the schema is a new file.

-- Small partial indexes, so that each leaderboard reads the few entries that can lead it rather
-- than every entry of the chart: the entries at number one; debuts in the top 20; moves of 30
-- places or more, by the places moved; entries of songs 40 weeks (or days, hours) on the chart
-- or more. On the whole Hot 100 they hold 3,549, about 2,900, 6,518 and 3,745 entries. Each
-- holds the columns its queries read (the rank too, which its condition fixes), so that they
-- read the index alone. A query that needs more than they hold reads the chart's entries.
CREATE INDEX entries_at_number_one
  ON entries (song_id, snapshot_id, weeks_on_chart, previous_rank, rank)
  WHERE rank = 1;
CREATE INDEX entries_debuting ON entries (rank, snapshot_id)
  WHERE previous_rank IS NULL AND figure_flags & 8 = 0 AND rank <= 20;
CREATE INDEX entries_moving ON entries (previous_rank - rank)
  WHERE previous_rank - rank >= 30 OR rank - previous_rank >= 30;
CREATE INDEX entries_long_charting ON entries (weeks_on_chart, song_id, run)
  WHERE weeks_on_chart >= 40;

-- One row per stay of a song at number one on a chart: consecutive snapshots at rank 1, each
-- after the first with the previous rank 1 (a stay is broken by any snapshot the song was not
-- at number one). `stay` numbers a song's stays 1, 2 … on the chart; `weeks` is the stay's
-- length in the chart's periods (weeks, or days, hours), counted as weeks on chart count them:
-- the last entry's weeks on chart less the first's, plus one. A song's weeks at number one in
-- all are the sum of its stays' weeks.
CREATE VIEW number_one_stays AS
SELECT
  c.name AS chart,
  w.song_id,
  g.title,
  g.artist,
  w.stay,
  min(w.chart_date) AS first_chart_date,
  max(w.chart_date) AS last_chart_date,
  max(w.weeks_on_chart) - min(w.weeks_on_chart) + 1 AS weeks
FROM (
  SELECT
    s.chart_id,
    s.chart_date,
    e.song_id,
    e.weeks_on_chart,
    sum(e.previous_rank IS NOT 1) OVER (
      PARTITION BY s.chart_id, e.song_id ORDER BY s.chart_time ROWS UNBOUNDED PRECEDING
    ) AS stay
  FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
  WHERE e.rank = 1
) w
JOIN charts c ON c.id = w.chart_id
JOIN songs g ON g.id = w.song_id
GROUP BY w.chart_id, w.song_id, w.stay;

-- One row per run of a song on a chart (from a debut or re-entry to its last snapshot before it
-- left): `run` as the entries number them, the first and last chart dates, and `weeks`, the
-- run's length in the chart's periods (its last weeks on chart less its first, plus one).
CREATE VIEW chart_runs AS
SELECT
  c.name AS chart,
  e.song_id,
  g.title,
  g.artist,
  e.run,
  min(s.chart_date) AS first_chart_date,
  max(s.chart_date) AS last_chart_date,
  max(e.weeks_on_chart) - min(e.weeks_on_chart) + 1 AS weeks
FROM entries e
JOIN snapshots s ON s.id = e.snapshot_id
JOIN charts c ON c.id = s.chart_id
JOIN songs g ON g.id = e.song_id
GROUP BY s.chart_id, e.song_id, e.run;

-- One row per debut: an entry new to its chart (no previous rank, and the song never charted
-- there before: not a re-entry), on any snapshot but the chart's first, whose entries are all
-- new only because the archive starts there.
CREATE VIEW chart_debuts AS
SELECT
  c.name AS chart,
  s.chart_date,
  e.rank,
  e.song_id,
  e.title,
  e.artist
FROM entries e
JOIN snapshots s ON s.id = e.snapshot_id
JOIN charts c ON c.id = s.chart_id
WHERE e.previous_rank IS NULL AND e.figure_flags & 8 = 0
  AND EXISTS (
    SELECT 1 FROM snapshots p WHERE p.chart_id = s.chart_id AND p.chart_time < s.chart_time
  );

-- One row per song that reached number one on a chart: the chart date of its first entry there,
-- of its first week at number one, and `charts`, the song's charts from its debut to that week,
-- both counted (its weeks on chart that week: 1 for a debut at number one; the source's count
-- when the archive lacks the start of the song's run). A song at number one on the chart's first
-- snapshot is left out: the archive cannot tell whether that was its first week there.
CREATE VIEW rises_to_number_one AS
SELECT
  c.name AS chart,
  f.song_id,
  g.title,
  g.artist,
  (
    SELECT ps.chart_date
    FROM entries p JOIN snapshots ps ON ps.id = p.snapshot_id
    WHERE p.song_id = f.song_id AND ps.chart_id = f.chart_id
    ORDER BY ps.chart_time LIMIT 1
  ) AS first_chart_date,
  s.chart_date AS number_one_chart_date,
  e.weeks_on_chart AS charts
FROM (
  SELECT e.song_id, s.chart_id, min(s.chart_time) AS chart_time
  FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
  WHERE e.rank = 1
  GROUP BY e.song_id, s.chart_id
) f
JOIN snapshots s ON s.chart_id = f.chart_id AND s.chart_time = f.chart_time
JOIN entries e ON e.snapshot_id = s.id AND e.song_id = f.song_id AND e.rank = 1
JOIN charts c ON c.id = f.chart_id
JOIN songs g ON g.id = f.song_id
WHERE f.chart_time > (SELECT min(chart_time) FROM snapshots WHERE chart_id = f.chart_id);
