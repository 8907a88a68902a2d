-- ChartArchive schema, version 2: each entry's figures, decided once when its snapshot is stored
-- (see ChartFigures), and the audit's verdicts.
-- A shipped migration is never edited: a change to the schema is a new file.

-- What the source published keeps its values under names that say so.
ALTER TABLE entries RENAME COLUMN previous_rank TO published_previous_rank;
ALTER TABLE entries RENAME COLUMN peak_position TO published_peak_position;
ALTER TABLE entries RENAME COLUMN weeks_on_chart TO published_weeks_on_chart;

-- The figures the archive gives the entry. They are NULL only while an archive of version 1 is
-- being brought up to this version (its figures are decided right after this file is applied).
-- The previous rank, 1-based; NULL when the song was not on the previous chart.
ALTER TABLE entries ADD COLUMN previous_rank INTEGER CHECK (previous_rank >= 1);
-- Best rank up to and including the chart date, 1-based.
ALTER TABLE entries ADD COLUMN peak_position INTEGER CHECK (peak_position >= 1);
-- Snapshots of the chart the song was on up to and including this one, across re-entries.
ALTER TABLE entries ADD COLUMN weeks_on_chart INTEGER CHECK (weeks_on_chart >= 1);
-- The song's run on the chart: 1 from its first entry, one more at each later re-entry.
ALTER TABLE entries ADD COLUMN run INTEGER CHECK (run >= 1);
-- Where the previous rank comes from, whether the run is whole and whether the song charted
-- before, in one small number (the chart_entries view spells them out): its two low bits are 0
-- when the source published the previous rank, 1 when derived from the archive's previous
-- snapshot, 2 when corrected (the source's could not be right); 4 is added when the archive lacks
-- the start of the song's run, so that peak_position and weeks_on_chart are the source's, which
-- say more than the archive holds; 8 is added when the entry is not the song's first on the chart,
-- so that an entry without a previous rank is a re-entry, not new.
ALTER TABLE entries ADD COLUMN figure_flags INTEGER NOT NULL DEFAULT 0
  CHECK (figure_flags BETWEEN 0 AND 15 AND figure_flags & 3 != 3);

-- How many entries a snapshot holds, and whether the source's previous chart is missing from the
-- archive (most published previous ranks disagree with the archive's previous snapshot, with no
-- common offset).
ALTER TABLE snapshots ADD COLUMN entry_count INTEGER NOT NULL DEFAULT 0 CHECK (entry_count >= 0);
ALTER TABLE snapshots ADD COLUMN follows_missing_snapshot INTEGER NOT NULL DEFAULT 0
  CHECK (follows_missing_snapshot IN (0, 1));
CREATE INDEX snapshots_following_missing ON snapshots (chart_id, chart_time)
  WHERE follows_missing_snapshot = 1;

-- Where a figure the archive derives disagrees with the one the source published, and why: one
-- row per such figure (most entries have none).
CREATE TABLE verdicts (
  snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  -- 0 previous rank, 1 peak position, 2 weeks on chart.
  figure INTEGER NOT NULL CHECK (figure IN (0, 1, 2)),
  -- The archive's own figure; NULL for a previous rank: not on the archive's previous snapshot.
  derived INTEGER,
  -- 0 source gap, 1 rank shift, 2 credit change, 3 two recordings, 4 tie, 5 unexplained.
  cause INTEGER NOT NULL CHECK (cause BETWEEN 0 AND 5),
  PRIMARY KEY (snapshot_id, position, figure)
) WITHOUT ROWID;

-- The titles and credits a song charted under besides its first (which the songs table holds),
-- folded for search (see SongIdentity.fold), with the letters and digits of the base title and
-- lead artist.
CREATE TABLE song_credits (
  song_id INTEGER NOT NULL REFERENCES songs (id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  artist TEXT NOT NULL,
  title_key TEXT NOT NULL,
  artist_key TEXT NOT NULL,
  base_title_key TEXT NOT NULL,
  primary_artist_key TEXT NOT NULL,
  PRIMARY KEY (song_id, title_key, artist_key)
) WITHOUT ROWID;

CREATE INDEX song_credits_by_name ON song_credits (title_key, artist_key);
CREATE INDEX song_credits_by_base_title ON song_credits (base_title_key, primary_artist_key);
