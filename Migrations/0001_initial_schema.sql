-- ChartArchive schema, version 1.
-- A shipped migration is never edited: a change to the schema is a new file.

-- A chart: a named ranking published again and again (hot-100, spotify-daily-us, app-total).
CREATE TABLE charts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
  -- How often the chart is published, when known.
  frequency TEXT CHECK (frequency IN ('hourly', 'daily', 'weekly', 'monthly', 'all-time'))
);

-- A snapshot: one chart as published at one chart date.
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
  imported_at TEXT NOT NULL,
  UNIQUE (chart_id, chart_time)
);

-- A song: the entries that are one recording's run on the charts (see SongLinking).
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
);

CREATE INDEX songs_by_base_title ON songs (base_title_key, primary_artist_key);
CREATE INDEX songs_by_title ON songs (title_key);

-- An entry: one line of a snapshot, exactly as the source gave it.
CREATE TABLE entries (
  snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
  -- 0-based order of the entry within the snapshot (rank order).
  position INTEGER NOT NULL CHECK (position >= 0),
  -- 1-based rank.
  rank INTEGER NOT NULL CHECK (rank >= 1),
  song_id INTEGER NOT NULL REFERENCES songs (id),
  -- As published; NULL when not published (see snapshots.publishes_previous_rank).
  previous_rank INTEGER CHECK (previous_rank >= 1),
  peak_position INTEGER CHECK (peak_position >= 1),
  weeks_on_chart INTEGER CHECK (weeks_on_chart >= 1),
  title TEXT NOT NULL,
  artist TEXT NOT NULL,
  image_url TEXT,
  song_url TEXT,
  -- Plays in the chart's period, when the source counts them (streaming charts).
  streams INTEGER CHECK (streams >= 0),
  PRIMARY KEY (snapshot_id, position)
) WITHOUT ROWID;

-- A song's history: its entries, then their snapshots by primary key.
CREATE INDEX entries_by_song ON entries (song_id, snapshot_id);
