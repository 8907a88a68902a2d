import ChartPresentation

/// A request as its route's handler sees it: the HTTP request, the route, the values of the
/// route's parameters, and the format its answer is asked in. The query's other parameters are
/// not here: under `/api/` they were refused, and pages leave them out (of their answer and of
/// the key the answer is kept under).
struct RouteRequest: Sendable {
  /// The request as it came.
  let http: HTTPRequest
  /// The route it matched.
  let route: Route
  /// The values of the path's parameters, percent-decoded, by name.
  let pathValues: [String: String]
  /// The query's parameters the route takes, decoded, by name.
  let query: [String: String]
  /// The format of the answer: the `format` parameter's, else CSV when `Accept` asks for it, for
  /// a route that answers CSV; else JSON.
  let format: OutputFormat

  /// The request matched to a route.
  ///
  /// - Throws: ``ServerProblem`` (400) for a `format` other than `json` or `csv`.
  init(_ http: HTTPRequest, route: Route, pathValues: [String: String]) throws(ServerProblem) {
    self.http = http
    self.route = route
    self.pathValues = pathValues
    let names = Set(route.query.map(\.name))
    query = http.query.filter { names.contains($0.key) }
    format =
      if route.media.contains(.csv) {
        try Parameters.format.read(query["format"])
          ?? (http.headers["accept"]?.contains("text/csv") == true ? .csv : .json)
      } else {
        .json
      }
  }

  /// A parameter's value, read from its text.
  ///
  /// - Throws: ``ServerProblem`` when the parameter does not take the text given.
  func value<Value>(_ parameter: Parameter<Value>) throws(ServerProblem) -> Value {
    try parameter.read(text(of: parameter))
  }

  /// A parameter's text as given, `nil` when the query does not give it.
  func text<Value>(of parameter: Parameter<Value>) -> String? {
    let declaration = parameter.declaration
    switch declaration.location {
    case .path:
      assert(route.pathParameters.contains { $0.name == declaration.name }, "\(route.name)")
      return pathValues[declaration.name]
    case .query:
      assert(route.query.contains { $0.name == declaration.name }, "\(route.name)")
      return query[declaration.name]
    }
  }

  /// How long the answer may be kept, by the route's caching: for a ``Route/Caching/dated(_:otherwise:)``
  /// route, whether the request names chart dates decides.
  func caching(dated: Bool = false) -> HTTPResponse.Caching {
    switch route.caching {
    case .none: .none
    case .seconds(let seconds): .seconds(seconds)
    case .dated(let seconds, let otherwise): .seconds(dated ? seconds : otherwise)
    }
  }

  /// The key its answer is kept under, the request normalised: the route, its path parameters'
  /// values (decoded) and its query parameters' in the route's order, each value with its length
  /// so that no value reads as two, and the format. Two requests that differ only in how they
  /// are written (`hot%2D100`, the order of the parameters, one a route does not take) share it.
  /// The encoding is no part of it: an entry holds the body and its gzip form.
  var cacheKey: String {
    var key = route.name
    for parameter in route.pathParameters {
      let value = pathValues[parameter.name] ?? ""
      key += "/\(value.utf8.count):\(value)"
    }
    key += "?"
    for parameter in route.query {
      guard let value = query[parameter.name] else { continue }
      key += "\(parameter.name)=\(value.utf8.count):\(value)&"
    }
    return key + "|" + format.rawValue
  }
}
