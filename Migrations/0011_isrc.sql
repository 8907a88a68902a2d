-- ChartArchive schema, version 11: the recording's ISRC (ISO 3901) as a source gives it beside an
-- entry (Apple Music's charts, ChartArchive's own formats), by which linking joins the entries of
-- any charts into one song before their titles and credits are compared (see the rules page,
-- "Song identity and linking").
-- A shipped migration is never edited: a change to the schema is a new file.

-- Its 12 characters, upper-case, without hyphens (`USRC17607839`); NULL when the source gives none.
ALTER TABLE entries ADD COLUMN isrc TEXT
  CHECK (isrc GLOB '[A-Z][A-Z][A-Z0-9][A-Z0-9][A-Z0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]');

-- The songs of an ISRC's entries, with their snapshots (for the most recent): only the entries that
-- have one, so that an archive of charts without ISRCs keeps an empty index.
CREATE INDEX entries_by_isrc ON entries (isrc, song_id) WHERE isrc IS NOT NULL;
