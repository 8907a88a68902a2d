-- ChartArchive schema, version 10: corrections a person made to how entries are tied to songs and
-- to the charts themselves, kept as decisions that every later import and re-linking applies
-- again (docs/rules.md, "Corrections").
-- A shipped migration is never edited: a change to the schema is a new file.

-- A decision, numbered in the order it was made (the number `songs undo N` takes).
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
);

-- The entries a merge or split names, by their identity, never by row IDs: a re-import gives
-- entries and songs new IDs.
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
) WITHOUT ROWID;

-- What undoing a decision restores while nothing changed its songs since (decisions.entry_count):
-- each moved entry's song before the decision (kind 0), a song the decision deleted (kind 1, with
-- its row), a credit it deleted with that song (kind 2) or added to a song (kind 3).
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
);

CREATE INDEX decision_undo_by_decision ON decision_undo (decision);
