import ChartFormats
import Foundation
import Testing

@testable import ChartArchiveServer

/// The API's compatibility promise (docs/http-api.md, "Compatibility"): fields are only ever
/// added; a field removed or changed in meaning goes through a new versioned path, the old one
/// answering with `Deprecation`, `Sunset` and a link to its successor a release before it goes;
/// the app's five feed fields never change.
struct CompatibilityTests {
  /// The committed list of every field of every GET answer, as the OpenAPI document gives them:
  /// `operationId path`, a list's items as `[]` (`snapshots snapshots[].chart_date`); lines
  /// from `#` are words.
  static let listPath = packageRoot.appendingPathComponent("Tests/Fixtures/api-fields.txt").path

  /// The header of the list.
  static let listHeader = """
    # Every field of every GET answer of the HTTP API, as the OpenAPI document gives them
    # (operationId, then the field's path; a list's items are []). The API's promise
    # (docs/http-api.md, "Compatibility"): fields are only ever added. CompatibilityTests checks
    # that each is still documented and still in the service's answers; add a field's line when
    # it is added (CHART_ARCHIVE_WRITE_API_FIELDS=1 swift test --filter CompatibilityTests writes
    # the list anew), and never remove one: a field removed or changed in meaning goes to a new
    # versioned path.

    """

  /// The committed list's fields.
  static func committedFields() throws -> [String] {
    try String(contentsOfFile: listPath, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }.map(String.init)
  }

  /// Requests whose answers hold every documented field between them, beside each route's
  /// example (``RouteTableTests/example(_:)``), on Sample-data with Everything I Love (75) and
  /// I Can Feel It (131) merged: a song with a credit change, and a decision.
  static let richerTargets = [
    "/api/charts/hot-100/diff?from=2023-12-23&to=2023-12-30",
    "/api/charts/hot-100/report?date=2023-12-30", "/api/songs/75", "/api/artists/13",
  ]

  /// A schema's fields: each property's path from the answer's top, a list's items as `[]`, its
  /// `$ref`s and `allOf`s followed.
  static func fields(of schema: Any?, _ schemas: [String: Any], at prefix: String) -> Set<String> {
    guard var object = schema as? [String: Any] else { return [] }
    if let reference = object["$ref"] as? String {
      object = schemas[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:]
    }
    var found: Set<String> = []
    for part in object["allOf"] as? [Any] ?? [] {
      found.formUnion(fields(of: part, schemas, at: prefix))
    }
    if let items = object["items"] {
      found.formUnion(fields(of: items, schemas, at: prefix + "[]"))
    }
    for (name, property) in object["properties"] as? [String: Any] ?? [:] {
      let path = prefix.isEmpty ? name : prefix + "." + name
      found.insert(path)
      found.formUnion(fields(of: property, schemas, at: path))
    }
    return found
  }

  /// The fields an answer's JSON holds, named as ``fields(of:_:at:)`` names them.
  static func fields(in json: Any, at prefix: String = "") -> Set<String> {
    var found: Set<String> = []
    if let object = json as? [String: Any] {
      for (name, value) in object {
        let path = prefix.isEmpty ? name : prefix + "." + name
        found.insert(path)
        found.formUnion(fields(in: value, at: path))
      }
    } else if let list = json as? [Any] {
      for item in list { found.formUnion(fields(in: item, at: prefix + "[]")) }
    }
    return found
  }

  /// Every field of every GET answer the document gives today, as `operationId path` lines.
  static func documentedFields(_ service: Service) throws -> Set<String> {
    let document = try RouteTableTests.document(service)
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let components = try #require(document["components"] as? [String: Any])
    let schemas = try #require(components["schemas"] as? [String: Any])
    var lines: Set<String> = []
    for route in Router.apiRoutes where route.method == .get {
      let get = try #require(paths[route.pattern]?["get"] as? [String: Any])
      let operation = try #require(get["operationId"] as? String)
      let ok = (get["responses"] as? [String: Any])?["200"] as? [String: Any]
      let schema = ((ok?["content"] as? [String: Any])?["application/json"] as? [String: Any])?[
        "schema"]
      for field in fields(of: schema, schemas, at: "") { lines.insert(operation + " " + field) }
    }
    return lines
  }

  /// The committed list is the document's fields: a field gone from the document (removed or
  /// renamed) fails here; one added is added to the list (never taken out of it).
  @Test func theCommittedFieldListIsWhatTheDocumentGives() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let documented = try Self.documentedFields(service)
    if ProcessInfo.processInfo.environment["CHART_ARCHIVE_WRITE_API_FIELDS"] == "1" {
      try (Self.listHeader + documented.sorted().joined(separator: "\n") + "\n").write(
        toFile: Self.listPath, atomically: true, encoding: .utf8)
    }
    let committed = Set(try Self.committedFields())
    #expect(committed.contains("feed [].last"))
    #expect(committed.contains("snapshots snapshots[].chart_date"))
    let gone = committed.subtracting(documented).sorted()
    #expect(
      gone.isEmpty,
      "fields the API promised are gone (a field is removed or renamed only on a new versioned path): \(gone)"
    )
    let added = documented.subtracting(committed).sorted()
    #expect(added.isEmpty, "fields added: add them to Tests/Fixtures/api-fields.txt: \(added)")
  }

  /// Every committed field is in what the service answers today, each in an answer of its
  /// operation to the route's example or a richer request (``richerTargets``).
  @Test func everyCommittedFieldIsAnswered() throws {
    let (folder, archive) = try TestArchive.sample()
    _ = folder
    #expect(chartArchive(["songs", "merge", "75", "131", "--db", archive]).status == 0)
    let service = try Service(archive)
    var answered: Set<String> = []
    for route in Router.apiRoutes where route.method == .get {
      guard let operation = route.document?.operationID, route.media.first == .json else {
        continue
      }
      let targets =
        [RouteTableTests.example(route)]
        + Self.richerTargets.filter { target in
          Router.api.match(Router.segments(of: String(target.prefix { $0 != "?" })) ?? [])?
            .routes.contains { $0.name == route.name } == true
        }
      for target in targets {
        let reply = service.get(target)
        #expect(reply.status == 200, "\(target)")
        guard let json = try? reply.json() else { continue }
        for field in Self.fields(in: json) { answered.insert(operation + " " + field) }
      }
    }
    let committed = try Self.committedFields()
    let missing = committed.filter { !answered.contains($0) }
    #expect(missing.isEmpty, "promised fields the service no longer answers: \(missing)")
  }

  /// The app's five fields come first in every feed entry, as the app has always read them.
  @Test func theFeedsFiveFieldsComeFirst() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let text = service.get("/api/feed/daily?limit=1").text
    #expect(text.hasPrefix(#"[{"title":"#))
    let keys = text.matches(of: /"([a-z_]+)":/).map { String($0.1) }
    #expect(Array(keys.prefix(5)) == ["title", "artist", "image", "url", "last"])
  }

  /// A route the table marks deprecated answers as before with `Deprecation`, `Sunset` and a
  /// link to its successor, its errors too, kept or not; the document marks it deprecated.
  @Test func aDeprecatedRouteSaysSoAndNamesItsSuccessor() throws {
    let deprecated = Route(
      .get, ["api", "v0", "feed", .category], query: [Parameters.feedLimit, Paging.offset],
      media: [.json], caching: .seconds(60),
      document: RouteDocument(
        summary: "The feed's old path", operationID: "feedV0",
        answers: [.ok("The entries in rank order", schema: "Feed")], problems: [404],
        paged: true),
      deprecation: Route.Deprecation(
        since: 1_767_225_600, sunset: 1_782_864_000, successor: "/api/feed/{category}")
    ) { router, request in try router.feed(request) }
    let routes = [deprecated] + Router.apiRoutes
    let archive = try TestArchive.shared.get().path
    let router = try Router(
      configuration: ServerConfiguration(archivePath: archive), apiRoutes: RouteTable(routes),
      log: { _ in })
    let service = Service(router: router)
    for _ in 1...2 {
      let reply = service.get("/api/v0/feed/daily?limit=3")
      #expect(reply.status == 200)
      #expect(reply.body.bytes == service.get("/api/feed/daily?limit=3").body.bytes)
      #expect(reply.header("Deprecation") == "@1767225600")
      #expect(reply.header("Sunset") == "Wed, 01 Jul 2026 00:00:00 GMT")
      let links = reply.headers.filter { $0.name == "Link" }.map(\.value)
      #expect(
        links == [
          "</api/v0/feed/daily?limit=3&offset=3>; rel=\"next\"",
          "</api/feed/{category}>; rel=\"successor-version\"",
        ])
    }
    let missing = service.get("/api/v0/feed/nope")
    #expect(missing.status == 404)
    #expect(missing.header("Deprecation") == "@1767225600")
    // The routes that stay say nothing of it.
    #expect(service.get("/api/feed/daily").header("Deprecation") == nil)
    #expect(Router.apiRoutes.allSatisfy { $0.deprecation == nil })
    // The document marks the operation, and the headers of its answer.
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.document(for: routes).utf8))
        as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let old = try #require(paths["/api/v0/feed/{category}"]?["get"] as? [String: Any])
    #expect(old["deprecated"] as? Bool == true)
    let ok = try #require((old["responses"] as? [String: Any])?["200"] as? [String: Any])
    #expect(
      Set((ok["headers"] as? [String: Any])?.keys.map { $0 } ?? [])
        == ["X-Total-Count", "Link", "Deprecation", "Sunset"])
    let feed = try #require(paths["/api/feed/{category}"]?["get"] as? [String: Any])
    #expect(feed["deprecated"] == nil)
  }
}
