import ChartFormats

/// A route's parameter with the type of its value: its declaration, and how its text is read,
/// with the problem that refuses a text it does not take.
///
/// A handler reads its parameters with ``RouteRequest/value(_:)`` in the order it needs them,
/// so that the first problem is the one the request gets.
struct Parameter<Value>: DeclaredParameter {
  /// The declaration: name, location, words and schema.
  let declaration: RouteParameter
  /// Reads the text given (`nil` when the query does not give the parameter) as a value.
  let read: @Sendable (String?) throws(ServerProblem) -> Value

  /// A parameter: its declaration (see ``RouteParameter``) and how its text is read.
  init(
    _ name: String, in location: RouteParameter.Location, _ description: String,
    schema: JSONValue, example: JSONValue? = nil, component: String? = nil,
    read: @escaping @Sendable (String?) throws(ServerProblem) -> Value
  ) {
    declaration = RouteParameter(
      name: name, location: location, description: description, schema: schema,
      example: example, component: component)
    self.read = read
  }
}
