/// A table index or trigger that is not ChartArchive's, on one of ChartArchive's tables: a user's
/// own, or one that an SQL tool added. ChartArchive tolerates them, but one may change what its
/// writes do (a trigger that fails, a unique index).
public struct UserSchemaObject: Hashable, Sendable {
  /// `index` or `trigger`.
  public var type: String
  /// Its name.
  public var name: String
  /// The ChartArchive table it is on, named as the statement that made it wrote it.
  public var table: String

  /// An object of the given type and name, on a table.
  public init(type: String, name: String, table: String) {
    self.type = type
    self.name = name
    self.table = table
  }
}

extension ArchiveReader {
  /// The indexes and triggers on ChartArchive's tables that its migrations did not make (see
  /// ``UserSchemaObject``), by table and name: those of the archive's file, and the temporary
  /// triggers of the reader's connection (`sqlite_temp_schema`). Names are matched as SQLite
  /// matches them, whatever the case of their ASCII letters: `tbl_name` keeps a table's name as
  /// the statement wrote it (`SNAPSHOTS`, <https://www.sqlite.org/schematab.html>), and
  /// ``UserSchemaObject/table`` gives it so.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func userObjectsOnArchiveTables() throws(ArchiveError) -> [UserSchemaObject] {
    try reading {
      try database.rows(
        "SELECT type, name, tbl_name FROM sqlite_schema WHERE type IN ('index', 'trigger')"
          + " AND sql IS NOT NULL UNION ALL SELECT type, name, tbl_name FROM sqlite_temp_schema"
          + " WHERE type = 'trigger' ORDER BY 3, 2"
      ) {
        UserSchemaObject(type: $0.string(at: 0), name: $0.string(at: 1), table: $0.string(at: 2))
      }
    }.filter { object in
      Migrations.ownTables.contains(object.table.lowercased())
        && !Migrations.ownObjects.contains("\(object.type) \(object.name.lowercased())")
    }
  }
}
