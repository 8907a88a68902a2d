import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage

/// The corrections over HTTP: `POST /api/songs/{id}/merge`, `POST /api/songs/{id}/split`,
/// `POST /api/decisions/{number}/undo` on a server with an upload token, and the list,
/// `GET /api/decisions`: what `chart-archive songs` does, with the same library calls.
extension APIRoutes {
  /// `POST /api/songs/{id}/merge?with=ID,ID…`: the songs are one song, `{id}` kept.
  static let mergeSongs = Route(
    .post, ["api", "songs", .song, "merge"], query: [Parameters.mergedSongs], media: [.json],
    caching: .none, needsUploads: true,
    document: decisionDocument(
      "The songs are one song: the others' entries become the song's, with their figures decided"
        + " again", operationID: "mergeSongs")
  ) { router, request in
    // The parameters are read once the token is checked.
    try router.deciding(request) {
      let song = try request.value(Parameters.song)
      return try $0.correct(.merge([song] + (try request.value(Parameters.mergedSongs))))
    }
  }

  /// `POST /api/songs/{id}/split?chart=NAME&from=DATE`: the song's entries on the chart from the
  /// date on are another song.
  static let splitSong = Route(
    .post, ["api", "songs", .song, "split"], query: [Parameters.splitChart, Parameters.splitFrom],
    media: [.json], caching: .none, needsUploads: true,
    document: decisionDocument(
      "The song's entries on the chart from the date on are another song, with their figures"
        + " decided again", operationID: "splitSong")
  ) { router, request in
    try router.deciding(request) {
      let song = try request.value(Parameters.song)
      let chart = try request.value(Parameters.splitChart)
      let from = try request.value(Parameters.splitFrom)
      return try $0.correct(.split(song, chart: chart, from: from))
    }
  }

  /// `POST /api/decisions/{number}/undo`: a decision undone.
  static let undoDecision = Route(
    .post, ["api", "decisions", .decision, "undo"], media: [.json], caching: .none,
    needsUploads: true,
    document: decisionDocument(
      "The decision undone: the archive as it was before it, or linked again by the rules when"
        + " its songs changed since", operationID: "undoDecision")
  ) { router, request in
    try router.deciding(request) { try $0.undoDecision(try request.value(Parameters.decision)) }
  }

  /// `GET /api/decisions`: the archive's decisions (`songs decisions`).
  static let decisions = Route(
    .get, ["api", "decisions"], media: [.json, .csv], caching: .seconds(60),
    document: RouteDocument(
      summary: "The corrections made to the archive, numbered", operationID: "decisions",
      answers: [.ok("Every decision in the order made", schema: "Decisions")])
  ) { router, request in
    try router.view(request) { DecisionsView(try $0.decisions()) }
  }

  private static func decisionDocument(_ summary: String, operationID: String) -> RouteDocument {
    RouteDocument(
      summary: summary,
      description:
        "Kept as a decision and applied again by every later import (docs/rules.md, Corrections). Only on a server started with --token-file (405 otherwise), with Authorization: Bearer TOKEN.",
      operationID: operationID,
      answers: [.ok("The decision made or undone", schema: "Decisions")],
      problems: [400, 401, 404, 405, 409, 503], needsToken: true)
  }
}

extension Router {
  /// Makes or undoes a decision on the archive opened for writing, with the upload token (the
  /// request's parameters are read in `body`, after the token is checked): 200
  /// with the decision, as `GET /api/decisions` lists it; 401 without the token; 404 for a song,
  /// chart or decision not in the archive; 409 for what the archive's data forbids (songs on one
  /// snapshot, nothing to split, a delete undone, a name taken); 400 for a merge of one song.
  func deciding(_ request: RouteRequest, _ body: (Archive) throws -> Decision) throws
    -> HTTPResponse
  {
    guard let uploads else {
      throw ServerProblem(405, "this server takes no corrections (start it with --token-file)")
    }
    guard isAuthorized(request.http) else {
      var response = problem(
        401, "corrections need the server's token: Authorization: Bearer TOKEN")
      response.headers.append(("WWW-Authenticate", "Bearer"))
      return response
    }
    do {
      let decision = try body(uploads)
      let text = DecisionsView([decision]).rendered(as: .json, style: Style(colors: false))
      return Self.json(Array(text.utf8))
    } catch let error as CorrectionError {
      let status =
        switch error {
        case .noSuchSong, .noSuchDecision: 404
        case .fewerThanTwoSongs: 400
        case .sameSnapshot, .nothingToSplit, .cannotUndo, .chartNameTaken: 409
        }
      return problem(status, CorrectionWords.describe(error))
    } catch let error as ArchiveError {
      return problem(for: error)
    }
  }
}

extension Parameters {
  /// `{number}`: a decision's number, a whole number from 1; another is no decision (404).
  static let decision = Parameter<Int>(
    "number", in: .path, "A decision's number, as GET /api/decisions lists it",
    schema: .object([("type", .string("integer"))]), example: .int(1)
  ) { text throws(ServerProblem) in
    guard let text, let number = Int(text), number > 0 else {
      throw ServerProblem(404, "no decision with the number \(text ?? "")")
    }
    return number
  }

  /// `with`: the songs merged into the path's, their IDs separated by commas.
  static let mergedSongs = Parameter<[SongID]>(
    "with", in: .query, "The IDs of the songs merged into it, separated by commas (12,40)",
    schema: .object([("type", .string("string"))]), example: .string("40")
  ) { text throws(ServerProblem) in
    guard let text, !text.isEmpty else {
      throw ServerProblem(400, "give with=ID (the songs merged into this one, by commas)")
    }
    var songs: [SongID] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let id = Int64(part), id > 0 else {
        throw ServerProblem(400, "with: '\(part)' is not a song ID")
      }
      songs.append(SongID(id))
    }
    return songs
  }

  /// `chart`: the chart whose entries a split makes another song.
  static let splitChart = Parameter<String>(
    "chart", in: .query, "The chart whose entries are split",
    schema: .object([("type", .string("string"))])
  ) { text throws(ServerProblem) in
    guard let text, !text.isEmpty else { throw ServerProblem(400, "give chart=NAME") }
    return text
  }

  /// `from`: the first chart date of the other song of a split.
  static let splitFrom = Parameter<ChartDate>(
    "from", in: .query, "The first chart date (YYYY-MM-DD) of the other song",
    schema: .object([("type", .string("string"))])
  ) { text throws(ServerProblem) in
    guard let text else { throw ServerProblem(400, "give from=YYYY-MM-DD") }
    return try chartDate(text)
  }
}

extension PathSegment {
  /// `{number}`: a decision's number.
  static let decision = PathSegment.parameter(Parameters.decision.declaration)
}
