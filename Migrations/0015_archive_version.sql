-- ChartArchive schema, version 15: the archive's version, which grows with every committed change
-- (an import or upload that stored or replaced something, a decision, a rename, a deletion), so
-- that a client polling the service never misses a change, whatever the clock does
-- (docs/http-api.md, "Keeping in sync").
-- A shipped migration is never edited: a change to the schema is a new file.

CREATE TABLE archive_version (
  -- One row, 1: the archive's own writer keeps it.
  only INTEGER PRIMARY KEY,
  -- 0 for an archive nothing was written to; one more with each committed change.
  version INTEGER NOT NULL,
  -- When the archive last changed, in seconds since 1970-01-01T00:00:00Z, and never the same for
  -- two versions: a change within the second of the one before takes the next second.
  updated INTEGER NOT NULL
);

-- An archive that holds snapshots starts at version 1, changed when it last stored one or made a
-- decision.
INSERT INTO archive_version (only, version, updated)
SELECT 1, (SELECT count(*) > 0 FROM snapshots),
  coalesce(CAST(strftime('%s', max(
    (SELECT max(imported_at) FROM snapshots), coalesce((SELECT max(made_at) FROM decisions), '')
  )) AS INTEGER), 0);
