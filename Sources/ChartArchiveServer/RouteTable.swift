/// A table of routes as a trie of path segments, for finding a request's route in one walk of its
/// path: at each segment a literal (`snapshots`) is tried first, then a parameter with an ending
/// the segment has (`{chart}.atom`), then a parameter (`{date}`), so that
/// `/api/charts/hot-100/diff` is the diff and `/api/charts/hot-100/2024-01-06` a snapshot, and
/// `/charts/hot-100.atom` the chart's feed. Each node holds the routes of its path, one a method.
struct RouteTable: Sendable {
  /// A path's routes, found: those of each method, and the values of its path's parameters by
  /// name.
  struct Match: Sendable {
    /// The routes of the path, in the table's order.
    var routes: [Route]
    /// The path parameters' values, percent-decoded.
    var values: [String: String]
  }

  private struct Node: Sendable {
    var literals: [String: Node] = [:]
    /// The nodes after a parameter with an ending, by the ending.
    var suffixed: [String: Node] = [:]
    /// The node after a parameter segment (none, or one).
    var parameter: [Node] = []
    var routes: [Route] = []
  }

  /// The routes, in the order given.
  let routes: [Route]
  private var root = Node()

  /// A table of routes. Two routes of one path must have different methods, and the parameters
  /// at one place of two paths the same name.
  init(_ routes: [Route]) {
    self.routes = routes
    for route in routes { Self.insert(route, at: route.path[...], into: &root) }
  }

  private static func insert(
    _ route: Route, at path: ArraySlice<PathSegment>, into node: inout Node
  ) {
    guard let segment = path.first else {
      precondition(
        !node.routes.contains { $0.method == route.method }, "\(route.name) is in the table twice")
      precondition(
        node.routes.allSatisfy { $0.pattern == route.pattern },
        "\(route.pattern) names its parameters otherwise than \(node.routes[0].pattern)")
      node.routes.append(route)
      return
    }
    switch segment {
    case .literal(let text):
      insert(route, at: path.dropFirst(), into: &node.literals[text, default: Node()])
    case .suffixed(_, let suffix):
      insert(route, at: path.dropFirst(), into: &node.suffixed[suffix, default: Node()])
    case .parameter:
      if node.parameter.isEmpty { node.parameter = [Node()] }
      insert(route, at: path.dropFirst(), into: &node.parameter[0])
    }
  }

  /// The routes of a path (its segments percent-decoded), or `nil` when no route has that path.
  func match(_ segments: [String]) -> Match? {
    var values: [String] = []
    guard let routes = Self.walk(root, segments[...], values: &values) else { return nil }
    let names = routes[0].pathParameters.map(\.name)
    return Match(routes: routes, values: Dictionary(uniqueKeysWithValues: zip(names, values)))
  }

  /// The routes at the end of a walk of `segments` from a node, a literal tried before a
  /// parameter at each; `values` gets the parameters' values in order.
  private static func walk(_ node: Node, _ segments: ArraySlice<String>, values: inout [String])
    -> [Route]?
  {
    guard let segment = segments.first else { return node.routes.isEmpty ? nil : node.routes }
    if let next = node.literals[segment],
      let routes = walk(next, segments.dropFirst(), values: &values)
    {
      return routes
    }
    for (suffix, next) in node.suffixed
    where segment.count > suffix.count && segment.hasSuffix(suffix) {
      values.append(String(segment.dropLast(suffix.count)))
      if let routes = walk(next, segments.dropFirst(), values: &values) { return routes }
      values.removeLast()
    }
    guard let next = node.parameter.first else { return nil }
    values.append(segment)
    if let routes = walk(next, segments.dropFirst(), values: &values) { return routes }
    values.removeLast()
    return nil
  }
}
