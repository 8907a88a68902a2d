-- The full-text index song_search again, without the size of each column of each row
-- (https://www.sqlite.org/fts5.html#the_columnsize_option): nothing of ChartArchive's ranks
-- matches by them, and keeping them was about a quarter of the index's cost to an import (a
-- row of song_search_docsize for each song and credit). bm25() still works, reading the sizes
-- from the content. The index is refilled from the songs and their credits, once each.
DROP TABLE song_search_terms;
DROP TABLE song_search;

CREATE VIRTUAL TABLE song_search USING fts5(
  title, artist, song_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2', columnsize = 0
);

-- The terms of song_search with the number of rows holding each, for "did you mean" suggestions
-- (https://www.sqlite.org/fts5.html#the_fts5vocab_virtual_table_module).
CREATE VIRTUAL TABLE song_search_terms USING fts5vocab(song_search, 'row');

INSERT INTO song_search (title, artist, song_id) SELECT title, artist, id FROM songs;
INSERT INTO song_search (title, artist, song_id) SELECT title, artist, song_id FROM song_credits;
