import Testing

@testable import ChartArchiveServer

/// What the service refuses of a request's query and names, and what every answer says of its
/// type: each rule with the smallest request that broke it.
struct QueryRulesTests {
  /// A page's parameter given twice was taken once (the first), where the API refuses it.
  @Test func aPageParameterGivenTwiceIsRefused() throws {
    let service = try Service(try TestArchive.shared.get().path)
    for target in [
      "/charts/hot-100/report?date=2024-01-06&date=2024-01-13", "/charts/hot-100?date=&date=",
      "/search?q=a&q=b",
    ] {
      let reply = service.get(target)
      #expect(reply.status == 400, "\(target)")
      #expect(reply.header("Content-Type") == "text/html; charset=utf-8")
      #expect(reply.text.contains("more than once; give it once"), "\(target)")
    }
    // One the page does not take is ignored, twice or not (shared links carry them).
    #expect(service.get("/charts/hot-100?utm_source=a&utm_source=b").status == 200)
  }

  /// A target in absolute form (`GET http://host/api/health`), which a server must accept (RFC
  /// 9112, section 3.2.2), was looked up as a path and answered 404.
  @Test func aTargetInAbsoluteFormIsItsPathAndQuery() throws {
    #expect(HTTPRequest.originForm(of: "http://x/api/health") == "/api/health")
    #expect(HTTPRequest.originForm(of: "HTTPS://x:8080/api/songs?q=a") == "/api/songs?q=a")
    #expect(HTTPRequest.originForm(of: "http://x?q=a") == "/?q=a")
    #expect(HTTPRequest.originForm(of: "http://x") == "/")
    #expect(HTTPRequest.originForm(of: "/http://x/a") == "/http://x/a")
    #expect(HTTPRequest.originForm(of: "ftp://x/a") == "ftp://x/a")
    let service = try Service(try TestArchive.shared.get().path)
    let reply = service.get("http://127.0.0.1:8080/api/songs?q=night+sky")
    #expect(reply.status == 200)
    #expect(reply.text == service.get("/api/songs?q=night+sky").text)
  }

  /// A bad escape or bytes that are not UTF-8 in a query were searched for as sent (`%ff`).
  @Test func aQueryThatIsNotPercentEncodedUTF8IsRefused() throws {
    let service = try Service(try TestArchive.shared.get().path)
    for target in [
      "/api/songs?q=%ff", "/api/songs?q=%zz", "/api/songs?q=a%C3%28", "/api/songs?%ff=a",
    ] {
      let reply = service.get(target)
      #expect(reply.status == 400, "\(target)")
      #expect(
        try reply.problemDetail().hasSuffix("is not valid percent-encoded UTF-8"), "\(target)")
    }
    #expect(
      try service.get("/api/songs?q=%ff").problemDetail()
        == "the query's parameter 'q' is not valid percent-encoded UTF-8")
    let page = service.get("/search?q=%ff")
    #expect(page.status == 400)
    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
    // Escaped UTF-8 is searched for.
    #expect(service.get("/api/songs?q=caf%C3%A9").status == 200)
  }

  /// `X-Content-Type-Options: nosniff` was on pages only: every answer has it now, once.
  @Test func everyAnswerSaysItsTypeIsNotToBeGuessed() throws {
    let service = try Service(try TestArchive.shared.get().path)
    for target in [
      "/api/charts", "/api/charts?format=csv", "/api/charts/nope/latest", "/api/health",
      "/api/charts?x=1", "/charts/hot-100", "/assets/style.css", "/nope",
    ] {
      let nosniff = service.get(target).headers.filter { $0.name == "X-Content-Type-Options" }
      #expect(nosniff.map(\.value) == ["nosniff"], "\(target)")
    }
  }

  /// The snapshot listing gave the absolute path each snapshot was imported from: where the
  /// server's files are. It gives the file's name.
  @Test func theSnapshotListingNamesSourceFilesOnly() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let listing = try #require(
      try service.get("/api/charts/hot-100/snapshots").json() as? [String: Any])
    let sources = (listing["snapshots"] as? [[String: Any]] ?? []).compactMap {
      $0["source"] as? String
    }
    #expect(
      sources == ["2023-12-23.json", "2023-12-30.json", "2024-01-06.json", "2024-01-13.json"])
    let csv = service.get("/api/charts/hot-100/snapshots?format=csv").text
    #expect(
      csv.split(whereSeparator: \.isNewline).dropFirst().first
        == "hot-100,2023-12-23,100,2023-12-23.json")
  }

  /// An upload named a chart `..`, `.` or one with a bidirectional control, and was stored.
  @Test func anUploadToAChartNameThatIsNoNameIsRefused() throws {
    let (folder, archive) = try TestArchive.sample()
    let token = "s3cret-token-for-uploads"
    let service = try Service(archive) { $0.uploadToken = token }
    let file = Array(#"[{"title": "One", "artist": "A"}]"#.utf8)
    for (segment, detail) in [
      ("%2E%2E", "a chart cannot be named '..'"), ("%2E", "a chart cannot be named '.'"),
      (
        "a%E2%80%AEb",
        "a chart's name cannot hold the bidirectional control U+202E: it reorders the text shown"
          + " after it"
      ),
      (
        "%E2%81%A6x",
        "a chart's name cannot hold the bidirectional control U+2066: it reorders the text shown"
          + " after it"
      ),
    ] {
      let reply = service.request(
        "POST", "/api/charts/\(segment)/snapshots?date=2024-06-01&format=app-feed",
        headers: ["Authorization": "Bearer " + token], body: file)
      #expect(reply.status == 422, "\(segment)")
      #expect(try reply.problemDetail() == detail)
    }
    // Nothing was stored: Sample-data's six charts.
    let charts = chartArchive(["charts", "--db", archive, "--format", "csv"]).output
    #expect(charts.split(whereSeparator: \.isNewline).count == 7)
    _ = folder
  }
}
