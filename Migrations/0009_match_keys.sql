-- ChartArchive schema, version 9: the keys by which songs are matched (songs.identity, and
-- title_key, artist_key, base_title_key and primary_artist_key of songs and song_credits) in
-- their new forms: accents folded, a title without a label naming the same recording
-- ("- Remastered 2009") and without a featured artist, a credit as its artists (see the rules
-- page, "Song identity and linking"). No table changes: the keys are computed again, by the
-- program, after this file (Migrations.swift, recomputeMatchKeys). Songs keep their entries:
-- the new rules apply to the snapshots imported from now on.
-- A shipped migration is never edited: a change to the schema is a new file.
SELECT 1;
