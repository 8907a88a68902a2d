-- ChartArchive schema, version 14: who is credited on each song. Every credit a song charted under
-- (its own in songs, the others in song_credits, with the artists its title features) is split
-- into artists by the credit splitter (docs/rules.md, "The credit splitter"), with the archive
-- asked whether names joined are one act; each artist is a row of `artists`, each song's artists
-- rows of `song_artists`. The program fills them: for an archive that holds data, after this file
-- (Migrations.swift, ArtistIndex.rebuild); then each import for the songs and credits it adds, and
-- again for the songs whose act the archive rule decides otherwise since (a later credit naming
-- one of the act's names on its own), and after a correction by hand (`songs merge`, `songs split`,
-- `songs undo`, `snapshots delete`).
-- A shipped migration is never edited: a change to the schema is a new file.

-- An artist: a name a credit gives, or an act's names kept together.
CREATE TABLE artists (
  id INTEGER PRIMARY KEY,
  -- The name as the first song crediting the artist spelled it (the lowest song ID), kept when
  -- later songs spell it otherwise.
  name TEXT NOT NULL,
  -- The name folded (case and accents, runs of white space one space) with ` and ` written ` & `:
  -- one artist per key (`Beyoncé` and `BEYONCE` are one; `Hall and Oates` is `hall & oates`).
  name_key TEXT NOT NULL UNIQUE
);

-- The artists of a song, each once.
CREATE TABLE song_artists (
  song_id INTEGER NOT NULL REFERENCES songs (id) ON DELETE CASCADE,
  artist_id INTEGER NOT NULL REFERENCES artists (id),
  -- 0 lead: the first artist of one of the song's credits; 1 featured: only ever named after the
  -- first (joined by Featuring, With, &, and, x, a comma, or in the title's "(feat. B)").
  role INTEGER NOT NULL CHECK (role IN (0, 1)),
  PRIMARY KEY (song_id, artist_id)
) WITHOUT ROWID;

-- An artist's songs.
CREATE INDEX song_artists_by_artist ON song_artists (artist_id, song_id);

-- Every credit a song charted under, whole, as artists' names are keyed (`peabo bryson & roberta
-- flack`, `homer & jethro`): what the splitter's archive rule asks, "does this name chart on its
-- own?".
CREATE TABLE whole_credits (
  name_key TEXT PRIMARY KEY
) WITHOUT ROWID;

-- A deleted song's artists go with it (foreign keys, and so cascades, are off while an import
-- writes).
CREATE TRIGGER songs_without_artists AFTER DELETE ON songs BEGIN
  DELETE FROM song_artists WHERE song_id = old.id;
END;

-- One row per artist and song credited to them: the artist's ID and name, `lead` or `featured`,
-- and the song's ID, title and credit as first imported.
CREATE VIEW artist_credits AS
SELECT
  a.id AS artist_id,
  a.name AS artist,
  CASE r.role WHEN 0 THEN 'lead' ELSE 'featured' END AS role,
  r.song_id,
  g.title,
  g.artist AS credit
FROM song_artists r
JOIN artists a ON a.id = r.artist_id
JOIN songs g ON g.id = r.song_id;

-- One row per artist, song credited to them and chart the song was on: the song's figures on the
-- chart as song_runs gives them (what `chart-archive artist` prints), with the artist and role.
-- Written as song_runs is (migration 0007), its entries grouped by artist too, so that a query
-- about one artist (`WHERE artist_id = 42`) reads that artist's songs' entries only.
CREATE VIEW artist_runs AS
SELECT
  k.artist_id,
  a.name AS artist,
  CASE k.role WHEN 0 THEN 'lead' ELSE 'featured' END AS role,
  k.song_id,
  c.name AS chart,
  g.title,
  g.artist AS credit,
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
  k.partial_run
FROM (
  SELECT
    r.artist_id,
    r.role,
    e.song_id,
    s.chart_id,
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
  FROM song_artists r
  JOIN entries e ON e.song_id = r.song_id
  JOIN snapshots s ON s.id = e.snapshot_id
  GROUP BY r.artist_id, e.song_id, s.chart_id
) k
JOIN entries first_entry
  ON first_entry.snapshot_id = k.first_key / 1000000 AND first_entry.position = k.first_key % 1000000
JOIN snapshots first_snapshot ON first_snapshot.id = first_entry.snapshot_id
JOIN entries last_entry
  ON last_entry.snapshot_id = k.last_key / 1000000 AND last_entry.position = k.last_key % 1000000
JOIN snapshots last_snapshot ON last_snapshot.id = last_entry.snapshot_id
JOIN artists a ON a.id = k.artist_id
JOIN songs g ON g.id = k.song_id
JOIN charts c ON c.id = k.chart_id;
