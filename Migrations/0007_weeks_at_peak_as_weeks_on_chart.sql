-- song_runs counts the weeks at a song's peak position as weeks on chart count them: a snapshot
-- that repeats the previous one and counts no new week (the same chart saved under two dates)
-- has the weeks on chart of the one before it, and is not counted at the peak a second time
-- either; nor is a song's second entry in one snapshot. Each entry at the peak that counted a
-- week has weeks on chart of its own, so the view counts those. The rest of the view is as
-- migration 0003 made it.
DROP VIEW song_runs;

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
    SELECT count(DISTINCT p.weeks_on_chart)
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
