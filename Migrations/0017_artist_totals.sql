-- ChartArchive schema, version 17: each chart's artist leaderboards over its whole history, kept
-- as the archive changes, so that `chart-archive records` and `/api/charts/{chart}/records` read
-- them rather than every entry of the chart. Figures the archive already holds, added up: each
-- write keeps them (ArtistTotals.swift), adding the snapshots it appends after the chart's latest,
-- and adding the chart up again from its entries after anything else (a snapshot stored before
-- others or replaced, songs joined or split by hand, artists decided again). The program fills
-- them for an archive that holds data, after this file.
-- A shipped migration is never edited: a change to the schema is a new file.

-- One artist's total of one figure on one chart, when more than 0: what `records` ranks. Figures
-- ChartArchive adds up from rows it checked, so without CHECK constraints of their own.
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
) WITHOUT ROWID;

-- A leaderboard: one chart's figure, most first.
CREATE INDEX artist_totals_ranked ON artist_totals (chart_id, figure, total);

-- Which charts' totals hold: those added up as of the archive's version (`archive_version`); a
-- reader adds up the entries itself when the version differs (an archive written by other means).
CREATE TABLE artist_totals_kept (
  chart_id INTEGER PRIMARY KEY REFERENCES charts (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  -- The chart time of the last snapshot added up (seconds since 1970), or NULL for none.
  through_time INTEGER
);
