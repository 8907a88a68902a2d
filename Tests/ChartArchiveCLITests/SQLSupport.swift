import Foundation

@testable import ChartStorage

/// The rows of a query on an archive file, read with a connection of its own as an SQL tool would:
/// each row's columns as text joined by `separator` (NULL as `null`).
func rows(_ path: String, _ query: String, separator: String = "|", null: String = "")
  throws -> [String]
{
  let database = try Database(path: path, mode: .readOnly)
  defer { try? database.close() }
  let statement = try database.statement(query)
  defer { statement.reset() }
  var rows: [String] = []
  while try statement.step() {
    rows.append(
      (0..<statement.columnCount).map { statement.optionalString(at: Int32($0)) ?? null }
        .joined(separator: separator))
  }
  return rows
}

/// Runs SQL on an archive file as an SQL tool would, with a connection of its own.
func sql(_ path: String, _ statements: String) throws {
  let database = try Database(path: path, mode: .readWrite)
  try database.execute(statements)
  try database.close()
}
