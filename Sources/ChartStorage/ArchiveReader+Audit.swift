public import ChartRanking

extension ArchiveReader {
  // MARK: - Audit

  /// The audit of a chart from the verdicts stored with its entries (see ``ChartAudit``): the
  /// agreement per figure and every disagreement, of the snapshots from `from` to `to`.
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - from: the first chart date audited, or `nil` for the first snapshot: a day is the
  ///     chart's day in its time zone (``RecordSpan/instants(in:)``).
  ///   - to: the last chart date audited (all of its day), or `nil` for the last snapshot.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func audit(of chart: String, from: ChartDate? = nil, to: ChartDate? = nil)
    throws(ArchiveError) -> ChartAudit
  {
    let chartID = try self.chartID(chart)
    let instants = RecordSpan(from: from, to: to).instants(in: try timeZone(ofChart: chartID))
    let range: [any StatementArgument] = [chartID, instants.from, instants.to]
    return try reading {
      let counts =
        try database.row(
          """
          SELECT sum(s.publishes_previous_rank AND \(FigureFlags.previousRankNotDerivedSQL("e"))),
            count(e.published_peak_position), count(e.published_weeks_on_chart),
            count(e.published_run),
            -- A published movement is compared where the archive can tell how the entry moved:
            -- the source publishes previous ranks, or the snapshot is not the chart's first.
            count(CASE WHEN s.publishes_previous_rank OR s.chart_time > (SELECT min(chart_time)
              FROM snapshots WHERE chart_id = ?1) THEN e.published_trend END)
          FROM snapshots s CROSS JOIN entries e ON e.snapshot_id = s.id
          WHERE s.chart_id = ?1 AND s.chart_time BETWEEN ?2 AND ?3
          """, range, { row in (0..<5).map { row.int(at: $0) } })
        ?? [0, 0, 0, 0, 0]
      let disagreements = try database.rows(
        """
        SELECT s.chart_date, s.chart_time, v.figure, v.derived, v.cause, \(Self.entryColumns),
          \(FigureColumns.sql)
        FROM snapshots s CROSS JOIN verdicts v ON v.snapshot_id = s.id
          CROSS JOIN entries e ON e.snapshot_id = v.snapshot_id AND e.position = v.position
        WHERE s.chart_id = ? AND s.chart_time BETWEEN ? AND ?
          -- A peak, weeks or run the source did not publish, given from earlier ones where the
          -- archive lacks the start of the run, was compared with nothing.
          AND CASE v.figure WHEN 1 THEN e.published_peak_position IS NOT NULL
            WHEN 2 THEN e.published_weeks_on_chart IS NOT NULL
            WHEN 3 THEN e.published_run IS NOT NULL
            WHEN 4 THEN e.published_trend IS NOT NULL ELSE 1 END
        ORDER BY s.chart_time, e.position, v.figure
        """, range
      ) { row in
        let entry = Self.readEntry(row, from: 5)
        let figure = VerdictCodes.figures[row.int(at: 2)]
        let published: Int? =
          switch figure {
          case .previousRank: entry.publishedPreviousRank
          case .peakPosition: entry.publishedPeakPosition
          case .weeksOnChart: entry.publishedWeeksOnChart
          case .run: entry.publishedRun
          case .movement: nil
          }
        let figures = FigureColumns.read(
          row, from: 5 + Self.entryColumnCount, entry: entry, verdicts: [:])
        return Disagreement(
          chartDate: ChartDate(
            trustedISO8601: row.string(at: 0), secondsSince1970: row.int64(at: 1)),
          entry: entry, figure: figure, published: published, derived: row.optionalInt(at: 3),
          cause: VerdictCodes.cause(code: row.int(at: 4)),
          derivedMovement: figure == .movement ? figures.movement : nil)
      }
      var wrong: [AuditFigure: Int] = [:]
      for disagreement in disagreements { wrong[disagreement.figure, default: 0] += 1 }
      return ChartAudit(
        agreements: zip(AuditFigure.allCases, counts).map { figure, compared in
          FigureAgreement(
            figure: figure, compared: compared, agreeing: compared - (wrong[figure] ?? 0))
        }, disagreements: disagreements)
    }
  }

  /// Every snapshot of a chart with its entries and their songs, in chart-date order, as the
  /// source published them: what ``ChartFigures/decideAll(_:)`` reads.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func linkedSnapshots(of chart: String) throws(ArchiveError) -> [LinkedSnapshot] {
    let chartID = try self.chartID(chart)
    return try reading {
      var snapshots: [LinkedSnapshot] = []
      let statement = try database.statement(
        """
        SELECT s.id, s.chart_date, s.chart_time, s.publishes_previous_rank, e.song_id,
          \(Self.entryColumns)
        FROM snapshots s JOIN entries e ON e.snapshot_id = s.id
        WHERE s.chart_id = ? ORDER BY s.chart_time, e.position
        """)
      statement.bind(chartID, at: 1)
      defer { statement.reset() }
      while try statement.step() {
        let id = SnapshotID(statement.int64(at: 0))
        if snapshots.last?.id != id {
          snapshots.append(
            LinkedSnapshot(
              id: id,
              chartDate: ChartDate(
                trustedISO8601: statement.string(at: 1), secondsSince1970: statement.int64(at: 2)),
              publishesPreviousRank: statement.bool(at: 3), entries: [], songs: []))
        }
        snapshots[snapshots.count - 1].entries.append(Self.readEntry(statement, from: 5))
        snapshots[snapshots.count - 1].songs.append(SongID(statement.int64(at: 4)))
      }
      return snapshots
    }
  }
}
