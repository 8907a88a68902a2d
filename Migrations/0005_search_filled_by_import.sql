-- The full-text index song_search is filled by each import once, before it commits, with the
-- songs and credits it added (ImportBatch.finish), rather than by a trigger on each new row: an
-- import holds a savepoint a file, and at each one SQLite's FTS5 wrote the index's pending words
-- out as a new segment and merged segments, about 40 % of a first import of the Hot 100.
-- The triggers that take deleted songs and credits out of the index stay.
DROP TRIGGER songs_searchable;
DROP TRIGGER song_credits_searchable;
