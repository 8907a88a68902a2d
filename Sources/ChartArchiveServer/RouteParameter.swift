import ChartFormats

/// A parameter a route takes, as the route table declares it: its name, where it is, and its
/// words and schema in the OpenAPI document. (How its text is read is ``Parameter``'s.)
struct RouteParameter: Sendable {
  /// Where the parameter is.
  enum Location: String, Sendable {
    /// A segment of the path: always given.
    case path
    /// The query: given or not.
    case query
  }

  /// The name: `{chart}` in a path, `limit=` in a query.
  let name: String
  /// Where it is.
  let location: Location
  /// What it is, for the document.
  let description: String
  /// The JSON schema of its values (`{"type": "integer", "minimum": 0}`), with its limits and
  /// its default.
  let schema: JSONValue
  /// A value that makes a request the service answers with 200 (on Sample-data): the document's
  /// example of a path parameter, and the value the tests ask with.
  let example: JSONValue?
  /// The name under which the document keeps it among its components, when several routes share
  /// it (`chart`, `format`).
  let component: String?
}

/// A parameter a route declares, whatever the type of its value.
protocol DeclaredParameter: Sendable {
  /// Its declaration.
  var declaration: RouteParameter { get }
}
