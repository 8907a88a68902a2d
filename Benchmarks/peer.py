#!/usr/bin/env python3
"""The Python peer: the Hot 100 import written the way a data person would, with the standard
json and sqlite3 modules, executemany in one transaction, into the same tables and indexes as
ChartArchive's (song identity by folded title and artist, as ChartArchive's without linking).

    peer.py FOLDER ARCHIVE
"""
import glob
import json
import os
import sqlite3
import sys
import unicodedata

folder, path = sys.argv[1], sys.argv[2]
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path)
db.executescript(
    """
    PRAGMA journal_mode = WAL;
    CREATE TABLE charts (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, frequency TEXT);
    CREATE TABLE snapshots (id INTEGER PRIMARY KEY, chart_id INTEGER NOT NULL, chart_date TEXT NOT NULL,
      chart_time INTEGER NOT NULL, publishes_previous_rank INTEGER NOT NULL, source TEXT,
      imported_at TEXT NOT NULL, UNIQUE (chart_id, chart_time));
    CREATE TABLE songs (id INTEGER PRIMARY KEY, identity TEXT NOT NULL, recording INTEGER NOT NULL,
      title TEXT NOT NULL, artist TEXT NOT NULL, title_key TEXT NOT NULL, artist_key TEXT NOT NULL,
      base_title_key TEXT NOT NULL, primary_artist_key TEXT NOT NULL, UNIQUE (identity, recording));
    CREATE TABLE entries (snapshot_id INTEGER NOT NULL, position INTEGER NOT NULL, rank INTEGER NOT NULL,
      song_id INTEGER NOT NULL, previous_rank INTEGER, peak_position INTEGER, weeks_on_chart INTEGER,
      title TEXT NOT NULL, artist TEXT NOT NULL, image_url TEXT, song_url TEXT, streams INTEGER,
      PRIMARY KEY (snapshot_id, position)) WITHOUT ROWID;
    CREATE INDEX entries_by_song ON entries (song_id, snapshot_id);
    CREATE INDEX songs_by_base_title ON songs (base_title_key, primary_artist_key);
    """
)


def fold(text):
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


songs = {}
snapshot_rows, entry_rows, song_rows = [], [], []
for snapshot_id, name in enumerate(sorted(glob.glob(os.path.join(folder, "*.json"))), start=1):
    with open(name, encoding="utf-8") as file:
        chart = json.load(file)
    snapshot_rows.append((snapshot_id, 1, chart["date"], snapshot_id, 1, name, ""))
    for position, entry in enumerate(chart["data"]):
        key = "song:" + fold(entry["song"]) + "\x1f" + fold(entry["artist"])
        song_id = songs.get(key)
        if song_id is None:
            song_id = songs[key] = len(songs) + 1
            title, artist = fold(entry["song"]), fold(entry["artist"])
            song_rows.append((song_id, key, 1, entry["song"], entry["artist"], title, artist, title, artist))
        entry_rows.append(
            (snapshot_id, position, entry["this_week"], song_id, entry["last_week"],
             entry["peak_position"], entry["weeks_on_chart"], entry["song"], entry["artist"],
             None, None, None)
        )
with db:
    db.execute("INSERT INTO charts VALUES (1, 'hot-100', 'weekly')")
    db.executemany("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?, ?)", snapshot_rows)
    db.executemany("INSERT INTO songs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", song_rows)
    db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entry_rows)
db.close()
print(len(entry_rows))
