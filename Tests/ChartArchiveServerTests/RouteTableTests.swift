import ChartFormats
import Foundation
import Testing

@testable import ChartArchiveServer

/// The route tables drive everything a route is: what answers it, the methods it takes, the
/// query parameters it takes, and its place in the OpenAPI document. These tests walk the tables.
struct RouteTableTests {
  /// A request for a route that the service answers with 200 on Sample-data: each path
  /// parameter's example, and the query parameters that have one (a search's words).
  static func example(_ route: Route) -> String {
    var target =
      "/"
      + route.path.map { segment in
        switch segment {
        case .literal(let text): text
        case .parameter(let parameter): Self.text(of: parameter.example)
        case .suffixed(let parameter, let suffix): Self.text(of: parameter.example) + suffix
        }
      }.joined(separator: "/")
    let query = route.query.compactMap { parameter in
      parameter.example.map {
        parameter.name + "="
          + Self.text(of: $0).replacingOccurrences(of: " ", with: "+")
      }
    }
    if !query.isEmpty { target += "?" + query.joined(separator: "&") }
    return target
  }

  private static func text(of example: JSONValue?) -> String {
    switch example {
    case .string(let text): text
    case .int(let number): String(number)
    default: ""
    }
  }

  /// The served document, parsed.
  static func document(_ service: Service) throws -> [String: Any] {
    try #require(try service.get("/api/openapi.json").json() as? [String: Any])
  }

  /// Every route of the table is in the document, with each of its parameters, and everything the
  /// document gives (path, operation, parameter) is a route of the table and its parameters.
  @Test func theOpenAPIDocumentAndTheRouteTableAgreeBothWays() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let document = try Self.document(service)
    #expect(document["openapi"] as? String == "3.1.0")
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let components = try #require(document["components"] as? [String: Any])
    let shared = try #require(components["parameters"] as? [String: [String: Any]])
    /// A documented parameter as (location, name), its reference followed.
    func parameter(_ item: Any) throws -> [String: Any] {
      let object = try #require(item as? [String: Any])
      guard let reference = object["$ref"] as? String else { return object }
      #expect(reference.hasPrefix("#/components/parameters/"))
      return try #require(
        shared[String(reference.split(separator: "/").last ?? "")], "\(reference)")
    }
    func names(_ items: Any?) throws -> Set<String> {
      Set(
        try (items as? [Any] ?? []).map { item in
          let declared = try parameter(item)
          if declared["in"] as? String == "path" { #expect(declared["required"] as? Bool == true) }
          return "\(declared["in"] ?? "?") \(declared["name"] ?? "?")"
        })
    }
    // The table → the document.
    for route in Router.apiRoutes {
      let item = try #require(paths[route.pattern], "\(route.name) is not in the document")
      let operation = try #require(
        item[route.method.rawValue.lowercased()] as? [String: Any], "\(route.name)")
      let documented = try names(item["parameters"]).union(try names(operation["parameters"]))
      let declared = Set(
        route.pathParameters.map { "path \($0.name)" } + route.query.map { "query \($0.name)" })
      #expect(documented == declared, "\(route.name)")
      let responses = try #require(operation["responses"] as? [String: Any])
      #expect(responses["400"] != nil, "\(route.name): a parameter it does not take is a 400")
      #expect((responses["304"] != nil) == (route.caching != .none), "\(route.name)")
    }
    // The document → the table.
    let methods: Set = ["get", "head", "post", "put", "delete", "patch", "options", "trace"]
    for (path, item) in paths {
      let routes = Router.apiRoutes.filter { $0.pattern == path }
      #expect(!routes.isEmpty, "\(path) is in no route")
      for key in item.keys where key != "parameters" {
        #expect(methods.contains(key), "\(path): \(key)")
        #expect(
          routes.contains { $0.method.rawValue.lowercased() == key }, "\(path) \(key) is no route")
      }
      let pathNames = try names(item["parameters"])
      #expect(pathNames == Set(routes.first?.pathParameters.map { "path \($0.name)" } ?? []))
    }
    #expect(Set(shared.keys) == ["chart", "format"])
    // Every reference of the document leads somewhere.
    let text = service.get("/api/openapi.json").text
    for match in text.matches(of: /"\$ref": "#\/components\/([a-zA-Z]+)\/([a-zA-Z]+)"/) {
      let kind = try #require(components[String(match.1)] as? [String: Any])
      #expect(kind[String(match.2)] != nil, "\(match.0)")
    }
  }

  /// Every documented route answers its example as the document and the table say: 200, the
  /// media type, the schema's required fields, how long it may be kept; and each 404 it gives
  /// is documented and a problem document.
  @Test func everyRouteAnswersAsTheDocumentSays() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let document = try Self.document(service)
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let components = try #require(document["components"] as? [String: Any])
    let schemas = try #require(components["schemas"] as? [String: [String: Any]])
    for route in Router.apiRoutes where route.method == .get {
      let target = Self.example(route)
      let reply = service.get(target)
      #expect(reply.status == 200, "\(target): \(reply.text)")
      #expect(reply.header("Content-Type") == route.media.first?.rawValue, "\(target)")
      let expectedCaching =
        switch route.caching {
        case .none: "no-store"
        case .seconds(let seconds): "public, max-age=\(seconds)"
        // The examples name no chart date, but the period chart's names a past year.
        case .dated(let dated, otherwise: let seconds):
          "public, max-age=\(route.pattern.hasSuffix("/periods") ? dated : seconds)"
        }
      #expect(reply.header("Cache-Control") == expectedCaching, "\(target)")
      let get = try #require(paths[route.pattern]?["get"] as? [String: Any])
      let responses = try #require(get["responses"] as? [String: Any])
      let ok = try #require(responses["200"] as? [String: Any])
      let content = try #require(ok["content"] as? [String: [String: Any]], "\(route.name)")
      #expect(Set(content.keys) == Set(route.media.map(\.name)), "\(route.name)")
      // The required fields of the schema, where it names one.
      if let reference = (content["application/json"]?["schema"] as? [String: Any])?["$ref"]
        as? String
      {
        let schema = try #require(schemas[String(reference.split(separator: "/").last ?? "")])
        let body = try reply.json()
        if let required = schema["required"] as? [String], let object = body as? [String: Any] {
          #expect(Set(required).isSubset(of: object.keys), "\(route.name): \(required)")
        }
        if schema["type"] as? String == "array" { #expect(body is [Any], "\(route.name)") }
      }
      let unknown = service.get(target.replacingOccurrences(of: "hot-100", with: "nope"))
      if unknown.status == 404 {
        #expect(responses["404"] != nil, "\(route.name) answers 404 undocumented")
        #expect(unknown.header("Content-Type") == "application/problem+json")
      }
    }
    // The upload is documented with its security and every status it gives.
    let post = try #require(paths["/api/charts/{chart}/snapshots"]?["post"] as? [String: Any])
    #expect(post["security"] as? [[String: [String]]] == [["bearer": []]])
    let statuses = try #require(post["responses"] as? [String: Any]).keys
    #expect(
      Set(statuses) == ["200", "201", "400", "401", "405", "409", "413", "415", "422", "503"])
  }

  /// The methods a path takes are its routes' (HEAD with GET; POST for uploads only with a
  /// token): any other is a 405 with them in `Allow`, and OPTIONS lists them.
  @Test(arguments: [false, true]) func methodsAndOptionsComeFromTheTable(uploads: Bool) throws {
    let archive = try TestArchive.shared.get().path
    let service = try Service(archive) {
      if uploads { $0.uploadToken = "a-token-of-16-characters" }
    }
    for route in Router.apiRoutes {
      let target = Self.example(route).prefix { $0 != "?" }
      let allowed = Router.apiRoutes.filter { $0.pattern == route.pattern }
        .filter { uploads || !$0.needsUploads }.flatMap { $0.method.allowed }
      // A path of corrections only (POST /api/songs/{id}/merge) is none without a token.
      guard !allowed.isEmpty else {
        #expect(service.request("POST", String(target)).status == 404, "\(target)")
        continue
      }
      let options = service.request("OPTIONS", String(target))
      #expect(options.status == 204, "\(target)")
      #expect(options.header("Allow") == (allowed + ["OPTIONS"]).joined(separator: ", "))
      for method in ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "TRACE"] {
        let reply = service.request(method, String(target))
        if allowed.contains(method) {
          #expect(reply.status != 405, "\(method) \(target)")
        } else {
          #expect(reply.status == 405, "\(method) \(target)")
          #expect(reply.header("Allow") == allowed.joined(separator: ", "), "\(method) \(target)")
          #expect(
            try reply.problemDetail()
              == "\(method) is not allowed here (allowed: \(allowed.joined(separator: ", ")))")
        }
      }
    }
  }

  /// Under `/api/`, a query parameter a route does not take is a 400 naming it and the ones the
  /// route takes (`?lmit=3` was answered with every entry, and each made an answer kept apart).
  @Test func aQueryParameterAnAPIRouteDoesNotTakeIsRefused() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let typo = service.get("/api/charts/hot-100/latest?lmit=3")
    #expect(typo.status == 400)
    #expect(typo.header("Cache-Control") == "no-store")
    #expect(
      try typo.problemDetail()
        == "unknown query parameter 'lmit' (did you mean limit?): GET /api/charts/{chart}/{date}"
        + " takes limit, offset and format")
    #expect(
      try service.get("/api/health?verbose=1&x=2").problemDetail()
        == "unknown query parameters 'verbose' and 'x': GET /api/health takes no query parameter")
    #expect(
      try service.get("/api/feed/daily?format=csv").problemDetail()
        == "unknown query parameter 'format': GET /api/feed/{category} takes limit and offset")
    #expect(
      try service.request("HEAD", "/api/songs?q=a&artist=b&utm_source=x").problemDetail()
        == "unknown query parameter 'utm_source': HEAD /api/songs takes q, artist, chart, limit, after and format"
    )
    // Every route, each naming what it takes; none is kept.
    let kept = service.router.cache.count
    for route in Router.apiRoutes where route.method == .get {
      let target = Self.example(route)
      let reply = service.get(target + (target.contains("?") ? "&" : "?") + "utm_source=x")
      #expect(reply.status == 400, "\(target)")
      let takes = route.query.isEmpty ? "no query parameter" : route.query.last?.name ?? ""
      #expect(try reply.problemDetail().hasSuffix(takes), "\(target)")
    }
    #expect(service.router.cache.count == kept)
  }

  /// Pages take the parameters they need and leave the rest out, of the answer and of the key it
  /// is kept under (shared links carry `utm_source` and the like).
  @Test func pagesIgnoreTheQueryParametersTheyDoNotTake() throws {
    let service = try Service(try TestArchive.shared.get().path)
    for route in Router.pageRoutes {
      let target = Self.example(route)
      let plain = service.get(target)
      let kept = service.router.cache.count
      let tagged = service.get(
        target + (target.contains("?") ? "&" : "?") + "utm_source=news&utm_medium=email")
      #expect(plain.status < 400, "\(target)")
      #expect(tagged.status == plain.status, "\(target)")
      #expect(tagged.body.bytes == plain.body.bytes, "\(target)")
      #expect(tagged.header("ETag") == plain.header("ETag"), "\(target)")
      #expect(service.router.cache.count == kept, "\(target) was kept again")
    }
  }

  /// A literal segment is tried before a parameter, and a parameter after a literal that leads
  /// nowhere: `/a/c/b` is `/a/{x}/b` though `/a/c/d` starts alike.
  @Test func theTrieTriesLiteralsFirstAndGoesBack() {
    func route(_ method: Route.Method, _ path: [PathSegment]) -> Route {
      Route(method, path, media: [.json], caching: .none) { _, _ in HTTPResponse(status: 204) }
    }
    let table = RouteTable([
      route(.get, ["a", .chart, "b"]), route(.get, ["a", "c", "d"]),
      route(.post, ["a", .chart, "b"]),
      route(.get, ["a", .chart]),
    ])
    #expect(table.match(["a", "c", "d"])?.routes.map(\.pattern) == ["/a/c/d"])
    #expect(
      table.match(["a", "c", "b"])?.routes.map(\.name) == ["GET /a/{chart}/b", "POST /a/{chart}/b"])
    #expect(table.match(["a", "c", "b"])?.values == ["chart": "c"])
    #expect(table.match(["a", "c"])?.values == ["chart": "c"])
    #expect(table.match(["a", "c", "d", "e"]) == nil)
    #expect(table.match(["a"]) == nil)
    #expect(table.match([]) == nil)
  }
}
