-- ChartArchive schema, version 18: the snapshots of each chart by their number of entries, so that
-- deciding a snapshot's figures finds the most entries a chart's snapshots held before a date
-- (its full size, against which a short snapshot is told) from the largest down, instead of
-- reading every snapshot of the chart: 0.5 ms to a few microseconds on the Hot 100, twice in a
-- one-week import.
-- A shipped migration is never edited: a change to the schema is a new file.

-- Partial: only a query that says `entry_count > 0` can use it, so that no other query on
-- snapshots is planned onto it in place of the index by chart time.
CREATE INDEX snapshots_by_size ON snapshots (chart_id, entry_count, chart_time)
  WHERE entry_count > 0;
