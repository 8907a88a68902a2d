// What the migrations make (Migrations.executedSchema()), kept in the source so that opening an
// archive need not apply them all in memory first. Written by the test
// ExpectedSchemaTests.theCopyIsWhatTheMigrationsMake when run with
// CHART_ARCHIVE_WRITE_EXPECTED_SCHEMA=1 after a new migration; never edited by hand.

extension Migrations {
  /// ChartArchive's own objects at ``latestVersion``, in `sqlite_schema`'s words, ordered by
  /// type and name, each with the migration that last made or changed it.
  static let expectedObjects: [SchemaObject] = [
    SchemaObject(
      type: "index", name: "artist_totals_ranked",
      sql: #"""
        CREATE INDEX artist_totals_ranked ON artist_totals (chart_id, figure, total)
        """#, migration: "0017_artist_totals"),
    SchemaObject(
      type: "index", name: "decision_undo_by_decision",
      sql: #"""
        CREATE INDEX decision_undo_by_decision ON decision_undo (decision)
        """#, migration: "0010_decisions"),
    SchemaObject(
      type: "index", name: "entries_at_number_one",
      sql: #"""
        CREATE INDEX entries_at_number_one
          ON entries (song_id, snapshot_id, weeks_on_chart, previous_rank, rank)
          WHERE rank = 1
        """#, migration: "0013_records"),
    SchemaObject(
      type: "index", name: "entries_by_isrc",
      sql: #"""
        CREATE INDEX entries_by_isrc ON entries (isrc, song_id) WHERE isrc IS NOT NULL
        """#, migration: "0011_isrc"),
    SchemaObject(
      type: "index", name: "entries_by_song",
      sql: #"""
        CREATE INDEX entries_by_song ON entries (song_id, snapshot_id)
        """#, migration: "0001_initial_schema"),
    SchemaObject(
      type: "index", name: "entries_debuting",
      sql: #"""
        CREATE INDEX entries_debuting ON entries (rank, snapshot_id)
          WHERE previous_rank IS NULL AND figure_flags & 8 = 0 AND rank <= 20
        """#, migration: "0013_records"),
    SchemaObject(
      type: "index", name: "entries_long_charting",
      sql: #"""
        CREATE INDEX entries_long_charting ON entries (weeks_on_chart, song_id, run)
          WHERE weeks_on_chart >= 40
        """#, migration: "0013_records"),
    SchemaObject(
      type: "index", name: "entries_moving",
      sql: #"""
        CREATE INDEX entries_moving ON entries (previous_rank - rank)
          WHERE previous_rank - rank >= 30 OR rank - previous_rank >= 30
        """#, migration: "0013_records"),
    SchemaObject(
      type: "index", name: "snapshots_by_size",
      sql: #"""
        CREATE INDEX snapshots_by_size ON snapshots (chart_id, entry_count, chart_time)
          WHERE entry_count > 0
        """#, migration: "0018_snapshots_by_size"),
    SchemaObject(
      type: "index", name: "snapshots_following_missing",
      sql: #"""
        CREATE INDEX snapshots_following_missing ON snapshots (chart_id, chart_time)
          WHERE follows_missing_snapshot = 1
        """#, migration: "0002_decided_figures"),
    SchemaObject(
      type: "index", name: "song_artists_by_artist",
      sql: #"""
        CREATE INDEX song_artists_by_artist ON song_artists (artist_id, song_id)
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "index", name: "song_credits_by_base_title",
      sql: #"""
        CREATE INDEX song_credits_by_base_title ON song_credits (base_title_key, primary_artist_key)
        """#, migration: "0002_decided_figures"),
    SchemaObject(
      type: "index", name: "song_credits_by_name",
      sql: #"""
        CREATE INDEX song_credits_by_name ON song_credits (title_key, artist_key)
        """#, migration: "0002_decided_figures"),
    SchemaObject(
      type: "index", name: "songs_by_base_title",
      sql: #"""
        CREATE INDEX songs_by_base_title ON songs (base_title_key, primary_artist_key)
        """#, migration: "0001_initial_schema"),
    SchemaObject(
      type: "index", name: "songs_by_title",
      sql: #"""
        CREATE INDEX songs_by_title ON songs (title_key)
        """#, migration: "0001_initial_schema"),
    SchemaObject(
      type: "table", name: "archive_version",
      sql: #"""
        CREATE TABLE archive_version (
          -- One row, 1: the archive's own writer keeps it.
          only INTEGER PRIMARY KEY,
          -- 0 for an archive nothing was written to; one more with each committed change.
          version INTEGER NOT NULL,
          -- When the archive last changed, in seconds since 1970-01-01T00:00:00Z, and never the same for
          -- two versions: a change within the second of the one before takes the next second.
          updated INTEGER NOT NULL
        )
        """#, migration: "0015_archive_version"),
    SchemaObject(
      type: "table", name: "artist_totals",
      sql: #"""
        CREATE TABLE artist_totals (
          chart_id INTEGER NOT NULL REFERENCES charts (id) ON DELETE CASCADE,
          artist_id INTEGER NOT NULL,
          -- 0 number ones (songs at number 1), 1 top-10 songs, 2 entries (songs on the chart), 3 weeks
          -- at number 1, 4 the most entries on one snapshot: docs/rules.md ("Records") gives their rules.
          figure INTEGER NOT NULL,
          -- More than 0.
          total INTEGER NOT NULL,
          -- The first and last snapshot counted (those with the most entries at once, for figure 4).
          first_snapshot_id INTEGER NOT NULL,
          last_snapshot_id INTEGER NOT NULL,
          PRIMARY KEY (chart_id, artist_id, figure)
        ) WITHOUT ROWID
        """#, migration: "0017_artist_totals"),
    SchemaObject(
      type: "table", name: "artist_totals_kept",
      sql: #"""
        CREATE TABLE artist_totals_kept (
          chart_id INTEGER PRIMARY KEY REFERENCES charts (id) ON DELETE CASCADE,
          version INTEGER NOT NULL,
          -- The chart time of the last snapshot added up (seconds since 1970), or NULL for none.
          through_time INTEGER
        )
        """#, migration: "0017_artist_totals"),
    SchemaObject(
      type: "table", name: "artists",
      sql: #"""
        CREATE TABLE artists (
          id INTEGER PRIMARY KEY,
          -- The name as the first song crediting the artist spelled it (the lowest song ID), kept when
          -- later songs spell it otherwise.
          name TEXT NOT NULL,
          -- The name folded (case and accents, runs of white space one space) with ` and ` written ` & `:
          -- one artist per key (`Beyoncé` and `BEYONCE` are one; `Hall and Oates` is `hall & oates`).
          name_key TEXT NOT NULL UNIQUE
        )
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "table", name: "charts",
      sql: #"""
        CREATE TABLE "charts" (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
          -- How often the chart is published, when known.
          frequency TEXT CHECK (frequency IN ('hourly', 'daily', 'weekly', 'monthly', 'yearly', 'all-time')),
          -- The IANA time zone its snapshots are cut in (Asia/Seoul), set by its first import that gives
          -- one; NULL for UTC. Chart times stay instants (seconds since 1970-01-01T00:00:00Z).
          time_zone TEXT
        )
        """#, migration: "0016_chart_zones_and_yearly_charts"),
    SchemaObject(
      type: "table", name: "decision_entries",
      sql: #"""
        CREATE TABLE decision_entries (
          decision INTEGER NOT NULL REFERENCES decisions (number) ON DELETE CASCADE,
          -- merge: which of the merged songs (0-based, in the order given; the first is the one kept);
          -- split: 0.
          song INTEGER NOT NULL CHECK (song >= 0),
          -- The entry: its chart's name, its snapshot's chart date, and its title, credit and song URL
          -- as published. A merge names each song's first entry on each chart it was on.
          chart TEXT NOT NULL,
          chart_date TEXT NOT NULL,
          title TEXT NOT NULL,
          artist TEXT NOT NULL,
          song_url TEXT,
          PRIMARY KEY (decision, song, chart)
        ) WITHOUT ROWID
        """#, migration: "0010_decisions"),
    SchemaObject(
      type: "table", name: "decision_undo",
      sql: #"""
        CREATE TABLE decision_undo (
          decision INTEGER NOT NULL REFERENCES decisions (number) ON DELETE CASCADE,
          kind INTEGER NOT NULL CHECK (kind BETWEEN 0 AND 3),
          -- kind 0: the entry's snapshot and position.
          snapshot_id INTEGER,
          position INTEGER,
          -- The song: the entry's before (0), the deleted one (1), the credit's (2, 3).
          song_id INTEGER NOT NULL,
          -- kind 1: the song's identity and recording; kinds 1 to 3: the title and credit with their keys.
          identity TEXT,
          recording INTEGER,
          title TEXT,
          artist TEXT,
          title_key TEXT,
          artist_key TEXT,
          base_title_key TEXT,
          primary_artist_key TEXT
        )
        """#, migration: "0010_decisions"),
    SchemaObject(
      type: "table", name: "decisions",
      sql: #"""
        CREATE TABLE decisions (
          number INTEGER PRIMARY KEY,
          -- merge: the songs holding the entries of decision_entries are one song; split: the song
          -- holding the entry of decision_entries is another song on its chart from that entry's chart
          -- date on; rename: the chart `chart` was renamed `detail`; delete: the snapshot of `chart` at
          -- `chart_date` was deleted.
          kind TEXT NOT NULL CHECK (kind IN ('merge', 'split', 'rename', 'delete')),
          -- When it was made (ISO 8601, UTC).
          made_at TEXT NOT NULL,
          -- rename: the chart's name before; delete: the chart. NULL for merge and split.
          chart TEXT,
          -- delete: the deleted snapshot's chart date; NULL otherwise.
          chart_date TEXT,
          -- rename: the chart's new name; delete: the file the deleted snapshot came from, if known.
          detail TEXT,
          -- How many entries the songs the decision left had right after it was made, while the rows of
          -- decision_undo still describe the archive; NULL once an import or re-linking applied it again
          -- (undo then links the songs by the rules again).
          entry_count INTEGER
        )
        """#, migration: "0010_decisions"),
    SchemaObject(
      type: "table", name: "entries",
      sql: #"""
        CREATE TABLE entries (
          snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
          -- 0-based order of the entry within the snapshot (rank order).
          position INTEGER NOT NULL CHECK (position >= 0),
          -- 1-based rank.
          rank INTEGER NOT NULL CHECK (rank >= 1),
          song_id INTEGER NOT NULL REFERENCES songs (id),
          -- As published; NULL when not published (see snapshots.publishes_previous_rank).
          published_previous_rank INTEGER CHECK (published_previous_rank >= 1),
          published_peak_position INTEGER CHECK (published_peak_position >= 1),
          published_weeks_on_chart INTEGER CHECK (published_weeks_on_chart >= 1),
          title TEXT NOT NULL,
          artist TEXT NOT NULL,
          image_url TEXT,
          song_url TEXT,
          -- Plays in the chart's period, when the source counts them (streaming charts).
          streams INTEGER CHECK (streams >= 0), previous_rank INTEGER CHECK (previous_rank >= 1), peak_position INTEGER CHECK (peak_position >= 1), weeks_on_chart INTEGER CHECK (weeks_on_chart >= 1), run INTEGER CHECK (run >= 1), figure_flags INTEGER NOT NULL DEFAULT 0
          CHECK (figure_flags BETWEEN 0 AND 15 AND figure_flags & 3 != 3), published_run INTEGER CHECK (published_run >= 1), published_trend TEXT CHECK (instr(published_trend, ': ') > 1), isrc TEXT
          CHECK (isrc GLOB '[A-Z][A-Z][A-Z0-9][A-Z0-9][A-Z0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
          PRIMARY KEY (snapshot_id, position)
        ) WITHOUT ROWID
        """#, migration: "0011_isrc"),
    SchemaObject(
      type: "table", name: "snapshots",
      sql: #"""
        CREATE TABLE snapshots (
          id INTEGER PRIMARY KEY,
          chart_id INTEGER NOT NULL REFERENCES charts (id) ON DELETE CASCADE,
          -- ISO 8601: YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ for charts with a time of day.
          chart_date TEXT NOT NULL,
          -- The instant chart_date stands for, in seconds since 1970-01-01T00:00:00Z: the sort key.
          chart_time INTEGER NOT NULL,
          -- 1 when the source publishes previous ranks (a NULL previous_rank then means "not on the
          -- previous chart"), 0 when previous ranks are derived from the archive.
          publishes_previous_rank INTEGER NOT NULL CHECK (publishes_previous_rank IN (0, 1)),
          -- Where the snapshot was imported from (a file path as given), and when (ISO 8601, UTC).
          source TEXT,
          imported_at TEXT NOT NULL, entry_count INTEGER NOT NULL DEFAULT 0 CHECK (entry_count >= 0), follows_missing_snapshot INTEGER NOT NULL DEFAULT 0
          CHECK (follows_missing_snapshot IN (0, 1)),
          UNIQUE (chart_id, chart_time)
        )
        """#, migration: "0002_decided_figures"),
    SchemaObject(
      type: "table", name: "song_artists",
      sql: #"""
        CREATE TABLE song_artists (
          song_id INTEGER NOT NULL REFERENCES songs (id) ON DELETE CASCADE,
          artist_id INTEGER NOT NULL REFERENCES artists (id),
          -- 0 lead: the first artist of one of the song's credits; 1 featured: only ever named after the
          -- first (joined by Featuring, With, &, and, x, a comma, or in the title's "(feat. B)").
          role INTEGER NOT NULL CHECK (role IN (0, 1)),
          PRIMARY KEY (song_id, artist_id)
        ) WITHOUT ROWID
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "table", name: "song_credits",
      sql: #"""
        CREATE TABLE song_credits (
          song_id INTEGER NOT NULL REFERENCES songs (id) ON DELETE CASCADE,
          title TEXT NOT NULL,
          artist TEXT NOT NULL,
          title_key TEXT NOT NULL,
          artist_key TEXT NOT NULL,
          base_title_key TEXT NOT NULL,
          primary_artist_key TEXT NOT NULL,
          PRIMARY KEY (song_id, title_key, artist_key)
        ) WITHOUT ROWID
        """#, migration: "0002_decided_figures"),
    SchemaObject(
      type: "table", name: "song_search",
      sql: #"""
        CREATE VIRTUAL TABLE song_search USING fts5(
          title, artist, song_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2', columnsize = 0
        )
        """#, migration: "0006_search_without_column_sizes"),
    SchemaObject(
      type: "table", name: "song_search_config",
      sql: #"""
        CREATE TABLE 'song_search_config'(k PRIMARY KEY, v) WITHOUT ROWID
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "table", name: "song_search_content",
      sql: #"""
        CREATE TABLE 'song_search_content'(id INTEGER PRIMARY KEY, c0, c1, c2)
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "table", name: "song_search_data",
      sql: #"""
        CREATE TABLE 'song_search_data'(id INTEGER PRIMARY KEY, block BLOB)
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "table", name: "song_search_idx",
      sql: #"""
        CREATE TABLE 'song_search_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "table", name: "song_search_terms",
      sql: #"""
        CREATE VIRTUAL TABLE song_search_terms USING fts5vocab(song_search, 'row')
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "table", name: "songs",
      sql: #"""
        CREATE TABLE songs (
          id INTEGER PRIMARY KEY,
          -- 'url:<song URL>' or 'song:<folded title>' || char(31) || '<folded artist>', as first imported.
          identity TEXT NOT NULL,
          -- 1 for the first song with this identity, 2 for a second recording with the same title and
          -- artist (a remake charting beside a reissue), and so on.
          recording INTEGER NOT NULL DEFAULT 1 CHECK (recording >= 1),
          -- Title and artist as first imported, their folded forms for search, and the letters and digits
          -- of the title before any parenthesis and of the lead artist, to follow a song through changes
          -- of its credit or of its title's punctuation (see SongIdentity.baseTitle and primaryArtist).
          title TEXT NOT NULL,
          artist TEXT NOT NULL,
          title_key TEXT NOT NULL,
          artist_key TEXT NOT NULL,
          base_title_key TEXT NOT NULL,
          primary_artist_key TEXT NOT NULL,
          UNIQUE (identity, recording)
        )
        """#, migration: "0001_initial_schema"),
    SchemaObject(
      type: "table", name: "verdicts",
      sql: #"""
        CREATE TABLE "verdicts" (
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
        ) WITHOUT ROWID
        """#, migration: "0012_joined_by_hand"),
    SchemaObject(
      type: "table", name: "whole_credits",
      sql: #"""
        CREATE TABLE whole_credits (
          name_key TEXT PRIMARY KEY
        ) WITHOUT ROWID
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "trigger", name: "song_credits_unsearchable",
      sql: #"""
        CREATE TRIGGER song_credits_unsearchable AFTER DELETE ON song_credits BEGIN
          DELETE FROM song_search
          WHERE song_id = old.song_id AND title = old.title AND artist = old.artist;
        END
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "trigger", name: "songs_unsearchable",
      sql: #"""
        CREATE TRIGGER songs_unsearchable AFTER DELETE ON songs BEGIN
          DELETE FROM song_search WHERE song_id = old.id;
        END
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "trigger", name: "songs_without_artists",
      sql: #"""
        CREATE TRIGGER songs_without_artists AFTER DELETE ON songs BEGIN
          DELETE FROM song_artists WHERE song_id = old.id;
        END
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "view", name: "artist_credits",
      sql: #"""
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
        JOIN songs g ON g.id = r.song_id
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "view", name: "artist_runs",
      sql: #"""
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
        JOIN charts c ON c.id = k.chart_id
        """#, migration: "0014_artists"),
    SchemaObject(
      type: "view", name: "chart_debuts",
      sql: #"""
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
          )
        """#, migration: "0013_records"),
    SchemaObject(
      type: "view", name: "chart_entries",
      sql: #"""
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
        JOIN charts c ON c.id = s.chart_id
        """#, migration: "0004_published_runs"),
    SchemaObject(
      type: "view", name: "chart_runs",
      sql: #"""
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
        GROUP BY s.chart_id, e.song_id, e.run
        """#, migration: "0013_records"),
    SchemaObject(
      type: "view", name: "latest_snapshots",
      sql: #"""
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
        )
        """#, migration: "0003_views_and_search"),
    SchemaObject(
      type: "view", name: "number_one_stays",
      sql: #"""
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
        GROUP BY w.chart_id, w.song_id, w.stay
        """#, migration: "0013_records"),
    SchemaObject(
      type: "view", name: "rises_to_number_one",
      sql: #"""
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
        WHERE f.chart_time > (SELECT min(chart_time) FROM snapshots WHERE chart_id = f.chart_id)
        """#, migration: "0013_records"),
    SchemaObject(
      type: "view", name: "song_runs",
      sql: #"""
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
        JOIN charts c ON c.id = k.chart_id
        """#, migration: "0007_weeks_at_peak_as_weeks_on_chart"),
  ]
}
