import ChartImport
import ChartStorage
import Foundation
import Testing

@testable import ChartArchiveServer

/// The HTTP API, asked through the router as the server asks it: what a chart app, a script and
/// an adversary would send.
struct APITests {
  /// Every read endpoint gives the bytes the command line prints for the same question, in JSON
  /// and in CSV: the service shares every rule and figure with the CLI.
  @Test func everyReadEndpointAnswersWhatTheCommandLinePrints() throws {
    let archive = try TestArchive.shared.get().path
    let service = try Service(archive)
    let nightSky = try songID(["night sky"], in: archive)
    let pairs: [(String, [String])] = [
      ("/api/charts", ["charts"]),
      ("/api/charts/hot-100/snapshots", ["snapshots", "hot-100"]),
      ("/api/charts/hot-100/2024-01-06", ["show", "hot-100", "2024-01-06"]),
      ("/api/charts/hot-100/latest", ["show", "hot-100"]),
      ("/api/charts/hot-100/previous", ["show", "hot-100", "previous"]),
      (
        "/api/charts/app-hourly/2024-05-05T13:00:00Z",
        ["show", "app-hourly", "2024-05-05T13:00:00Z"]
      ),
      (
        "/api/charts/app-daily/diff?from=2024-05-01&to=2024-05-05",
        ["diff", "app-daily", "2024-05-01", "2024-05-05"]
      ),
      ("/api/charts/app-daily/diff", ["diff", "app-daily"]),
      ("/api/charts/hot-100/report?date=2024-01-06", ["report", "hot-100", "2024-01-06"]),
      ("/api/charts/app-weekly/report", ["report", "app-weekly"]),
      ("/api/charts/hot-100/records", ["records", "hot-100"]),
      (
        "/api/charts/app-daily/records?from=2024-05-02&to=2024-05-04&limit=3",
        ["records", "app-daily", "--from", "2024-05-02", "--to", "2024-05-04", "--limit", "3"]
      ),
      ("/api/songs/\(nightSky)", ["history", "--song", "\(nightSky)"]),
      ("/api/charts/hot-100/periods?year=2024", ["period", "hot-100", "--year", "2024"]),
      (
        "/api/charts/app-daily/periods?from=2024-05-02&to=2024-05-04&scoring=linear&limit=3",
        [
          "period", "app-daily", "--from", "2024-05-02", "--to", "2024-05-04", "--scoring",
          "linear", "--limit", "3",
        ]
      ),
    ]
    for (target, command) in pairs {
      for format in ["json", "csv"] {
        let separator = target.contains("?") ? "&" : "?"
        let reply = service.get(target + separator + "format=" + format)
        let printed = chartArchive(command + ["--format", format, "--db", archive])
        #expect(reply.status == 200, "\(target) \(format): \(reply.text)")
        #expect(!printed.output.isEmpty)
        // The service names each snapshot's source by its file name only, not where it is.
        let sourceFolder = packageRoot.appendingPathComponent("Sample-data/hot-100").path + "/"
        #expect(
          reply.text == printed.output.replacingOccurrences(of: sourceFolder, with: ""),
          "\(target) \(format)")
        #expect(
          reply.header("Content-Type")
            == (format == "json" ? "application/json" : "text/csv; charset=utf-8"))
      }
    }
    // Accept: text/csv asks for CSV too.
    let csv = service.get("/api/charts", headers: ["Accept": "text/csv"])
    #expect(csv.text == chartArchive(["charts", "--format", "csv", "--db", archive]).output)
    #expect(
      service.get("/api/songs?q=cafe").text
        == """
        {
          "matches": [
            {
              "song_id": \(try songID(["cafe"], in: archive)),
              "title": "Café de Flore",
              "artist": "Élodie Marchand",
              "recording": 1,
              "first_chart_date": "2024-04-01",
              "best_rank": 1,
              "entries": 14
            }
          ]
        }

        """)
  }

  /// The app's feed for every category is the latest Sample-data file of its chart, in the app's
  /// own fields, with `last` the previous rank (0 for a new or re-entering song).
  @Test func csvTextThatStartsLikeAFormulaIsEscaped() throws {
    // The title and the artist were answered as they are: a spreadsheet opening the answer ran
    // them.
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    let snapshot =
      #"{"chart": "inj", "chart_date": "2024-03-02", "entries": [{"rank": 1, "#
      + #""title": "=HYPERLINK(\"http://evil.example/x\",\"click\")", "artist": "=1+1"}]}"#
    do {
      let archive = try Archive(path: path, access: .create)
      _ = try Importer.run([.bytes(Data(snapshot.utf8), name: "inj.json")], into: archive)
    }
    let service = try Service(path)
    let reply = service.get("/api/charts/inj/latest?format=csv")
    #expect(reply.status == 200)
    #expect(
      reply.text.hasSuffix(
        #"inj,2024-03-02,,1,new,,1,1,,"'=HYPERLINK(""http://evil.example/x"",""click"")","#
          + #""'=1+1",,,derived,1,false,,,,,,,"# + "\r\n"))
    let songs = service.get("/api/songs?q=hyperlink&format=csv")
    #expect(
      songs.text
        == "song_id,title,artist,recording,first_chart_date,best_rank,entries\r\n"
        + #"1,"'=HYPERLINK(""http://evil.example/x"",""click"")","'=1+1",1,2024-03-02,1,1"#
        + "\r\n")
  }

  @Test func everyFeedIsTheLatestSnapshotOfItsChartAsTheAppReadsIt() throws {
    let archive = try TestArchive.shared.get().path
    let service = try Service(archive)
    let feeds = [
      ("total", "app-total/2024-05-05.json"), ("time", "app-hourly/2024-05-05T14-00.json"),
      ("daily", "app-daily/2024-05-05.json"), ("weekly", "app-weekly/2024-05-05.json"),
      ("monthly", "app-monthly/2024-05-01.json"),
    ]
    for (category, file) in feeds {
      let source = try #require(
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: packageRoot.appendingPathComponent("Sample-data/" + file)))
          as? [[String: Any]])
      let reply = service.get("/api/feed/\(category)")
      #expect(reply.status == 200)
      let feed = try #require(try reply.json() as? [[String: Any]])
      #expect(feed.count == min(20, source.count), "\(category)")
      for (served, given) in zip(feed, source) {
        #expect(
          Set(served.keys)
            == [
              "title", "artist", "image", "url", "last", "rank", "movement", "peak_position",
              "weeks_on_chart",
            ])
        for key in ["title", "artist", "image", "url"] {
          #expect(served[key] as? String == given[key] as? String, "\(category) \(key)")
        }
        #expect(served["last"] as? Int == given["last"] as? Int, "\(category) \(given["title"]!)")
      }
    }
    // A re-entry's last is 0: Kaleidoscope Heart left the hourly chart at 13:00 and came back.
    let hourly = try #require(try service.get("/api/feed/time").json() as? [[String: Any]])
    #expect(hourly[19]["title"] as? String == "Kaleidoscope Heart")
    #expect(hourly[19]["last"] as? Int == 0)
    #expect(hourly[19]["movement"] as? String == "re-entry")
    #expect((try service.get("/api/feed/daily?limit=3").json() as? [[String: Any]])?.count == 3)
    let unknown = service.get("/api/feed/yearly")
    #expect(unknown.status == 404)
    #expect(
      try unknown.problemDetail()
        == "no feed 'yearly' (the feeds: daily, monthly, time, total, weekly; and updated, when the"
        + " archive last changed)")
    // When the archive last changed, in seconds since 1970: as the import that made it committed,
    // at or after the time the health check gives for its start.
    let updated = service.get("/api/feed/updated")
    #expect(updated.header("Cache-Control") == "public, max-age=10")
    let seconds = try #require(Int(updated.text.trimmingCharacters(in: .newlines)))
    let health = try #require(try service.get("/api/health").json() as? [String: Any])
    let importedAt = try #require(
      ISO8601DateFormatter().date(from: health["last_import"] as? String ?? ""))
    #expect(seconds >= Int(importedAt.timeIntervalSince1970))
    #expect(seconds <= Int(importedAt.timeIntervalSince1970) + 60)
    #expect(abs(Date().timeIntervalSince1970 - Double(seconds)) < 3_600)
    #expect(health["status"] as? String == "ok")
    #expect(health["charts"] as? Int == 6)
    #expect(service.get("/api/health").header("Cache-Control") == "no-store")
    // A feed mapped to another chart (`--feed daily=hot-100`).
    let remapped = try Service(archive) { $0.feeds["daily"] = "hot-100" }
    let hot = try #require(try remapped.get("/api/feed/daily").json() as? [[String: Any]])
    #expect(hot.count == 20)
    #expect(hot[0]["title"] as? String == "Lovin On Me")
    #expect(hot[0]["last"] as? Int == 9)
  }

  /// ETags, 304, Cache-Control long for a dated snapshot and short for the latest, gzip when
  /// asked, HEAD as GET (the server leaves its body out), 405 with Allow, problems in the command
  /// line's words.
  @Test func httpIsDoneProperly() throws {
    let archive = try TestArchive.shared.get().path
    let service = try Service(archive)
    let dated = service.get("/api/charts/hot-100/2024-01-06")
    let tag = try #require(dated.header("ETag"))
    #expect(dated.header("Cache-Control") == "public, max-age=86400")
    #expect(dated.header("Vary") == "Accept, Accept-Encoding")
    #expect(
      service.get("/api/charts/hot-100/latest").header("Cache-Control") == "public, max-age=60")
    let again = service.get("/api/charts/hot-100/2024-01-06", headers: ["If-None-Match": tag])
    #expect(again.status == 304)
    #expect(again.body.count == 0)
    #expect(again.header("ETag") == tag)
    #expect(again.header("Content-Type") == nil)
    #expect(
      service.get("/api/charts/hot-100/2024-01-06", headers: ["If-None-Match": "W/" + tag]).status
        == 304)
    #expect(
      service.get("/api/charts/hot-100/2024-01-06", headers: ["If-None-Match": "\"other\""])
        .status == 200)
    // Diffs and histories have ETags too; the CSV form is another entity.
    #expect(service.get("/api/charts/app-daily/diff").header("ETag") != nil)
    #expect(service.get("/api/songs/1").header("ETag") != nil)
    #expect(service.get("/api/charts/hot-100/2024-01-06?format=csv").header("ETag") != tag)

    let zipped = service.get(
      "/api/charts/hot-100/2024-01-06", headers: ["Accept-Encoding": "gzip, deflate"])
    #expect(zipped.header("Content-Encoding") == "gzip")
    #expect(zipped.body.count < dated.body.count / 3)
    #expect(try gzipTool(zipped.body.bytes, decompressing: true) == dated.body.bytes)
    let refused = service.get(
      "/api/charts/hot-100/2024-01-06", headers: ["Accept-Encoding": "gzip;q=0"])
    #expect(refused.header("Content-Encoding") == nil)
    // A body under a kilobyte is not worth gzip's header.
    #expect(
      service.get("/api/feed/daily?limit=1", headers: ["Accept-Encoding": "gzip"])
        .header("Content-Encoding") == nil)

    let head = service.request("HEAD", "/api/charts/hot-100/2024-01-06")
    #expect(head.status == 200)
    #expect(head.header("ETag") == tag)
    #expect(head.body.bytes == dated.body.bytes)

    let delete = service.request("DELETE", "/api/charts")
    #expect(delete.status == 405)
    #expect(delete.header("Allow") == "GET, HEAD")
    #expect(try delete.problemDetail() == "DELETE is not allowed here (allowed: GET, HEAD)")
    #expect(delete.header("Cache-Control") == "no-store")
    // Without a token file the service has no write endpoint at all.
    let post = service.request("POST", "/api/charts/hot-100/snapshots", body: Array("x".utf8))
    #expect(post.status == 405)
    #expect(post.header("Allow") == "GET, HEAD")
    let trace = service.request("TRACE", "/api/charts")
    #expect(trace.status == 405)
    #expect(trace.header("Allow") == "GET, HEAD")

    let noChart = service.get("/api/charts/hot100/latest")
    #expect(noChart.status == 404)
    #expect(
      chartArchive(["show", "hot100", "--db", archive]).error
        == "Error: " + (try noChart.problemDetail()) + "\n")
    #expect(
      try noChart.problemDetail()
        == "no chart named 'hot100' in the archive (did you mean hot-100? the archive's charts:"
        + " app-daily, app-hourly, app-monthly, app-total, app-weekly, hot-100)")
    let problem = try #require(try noChart.json() as? [String: Any])
    #expect(problem["type"] as? String == "about:blank")
    #expect(problem["title"] as? String == "Not Found")
    #expect(problem["status"] as? Int == 404)
    let noDate = service.get("/api/charts/hot-100/2024-01-01")
    #expect(noDate.status == 404)
    #expect(
      try noDate.problemDetail()
        == "chart 'hot-100' has no snapshot dated 2024-01-01 (the nearest are 2023-12-30 and"
        + " 2024-01-06)")
    #expect(
      chartArchive(["show", "hot-100", "2024-01-01", "--db", archive]).error
        == "Error: " + (try noDate.problemDetail()) + "\n")
  }

  /// Each parameter's text that it does not take is a 400 in the command line's words.
  @Test func parametersAreReadAsTheCommandLineReadsItsOptions() throws {
    let archive = try TestArchive.shared.get().path
    let service = try Service(archive)
    let refusals = [
      (
        "/api/charts/hot-100/diff?from=yesterday",
        "from 'yesterday' is not a chart date (YYYY-MM-DD, latest or previous)"
      ),
      (
        "/api/charts/hot-100/yesterday",
        "date 'yesterday' is not a chart date (YYYY-MM-DD, latest or previous)"
      ),
      ("/api/charts?format=xml", "format must be json or csv, found 'xml'"),
      (
        "/api/charts/hot-100/latest?limit=-1",
        "limit must be a whole number of 0 or more and at most 1000, found '-1'"
      ),
      (
        "/api/charts/hot-100/report?limit=x", "limit must be a whole number of 0 or more, found 'x'"
      ),
      // A leaderboard's rows are bounded: 100000 listed every entry that ever climbed.
      (
        "/api/charts/hot-100/records?limit=100000",
        "limit must be a whole number of 0 or more and at most 100, found '100000'"
      ),
      // The first parameter's problem first, as the handler reads them.
      (
        "/api/charts/hot-100/report?limit=x&date=nope",
        "date 'nope' is not a chart date (YYYY-MM-DD, latest or previous)"
      ),
      ("/api/songs", "give q (words of a title or credit) or artist"),
      // Blanks are no words (they found every song), as for history.
      ("/api/songs?q=%20%20", "give q (words of a title or credit) or artist"),
      ("/api/songs?q=%00", "give q (words of a title or credit) or artist"),
      ("/api/charts/%ZZ/latest", "the path is not valid percent-encoded UTF-8"),
      ("/api/charts/hot-100/periods", "give year=YYYY, or from=DATE and to=DATE"),
      ("/api/charts/hot-100/periods?year=85", "year '85' is not a year (YYYY)"),
      ("/api/charts/hot-100/periods?from=2024-01-01", "give year=YYYY, or from=DATE and to=DATE"),
      (
        "/api/charts/hot-100/periods?year=2024&to=2024-01-01",
        "give year, or from and to, not both"
      ),
      (
        "/api/charts/hot-100/periods?from=2024-02-01&to=2024-01-01",
        "from 2024-02-01 is after to 2024-01-01: give the earlier date first"
      ),
      (
        "/api/charts/hot-100/periods?from=soon&to=2024-01-01",
        "from 'soon' is not a chart date (YYYY-MM-DD)"
      ),
      (
        "/api/charts/hot-100/periods?year=2024&scoring=best",
        "unknown scoring 'best' (expected root, linear, billboard, streams)"
      ),
    ]
    for (target, detail) in refusals {
      let reply = service.get(target)
      #expect(reply.status == 400, "\(target)")
      #expect(try reply.problemDetail() == detail, "\(target)")
    }
    // A parameter given twice, as the command line refuses an option given twice; after the
    // answer with one is kept, too.
    #expect(service.get("/api/charts/hot-100/latest?limit=1").status == 200)
    let twice = service.get("/api/charts/hot-100/latest?limit=1&limit=2")
    #expect(twice.status == 400)
    #expect(try twice.problemDetail() == "the query gives 'limit' more than once; give it once")
    // A snapshot compared with itself is refused, as diff refuses it.
    let same = service.get("/api/charts/hot-100/diff?from=2024-01-13&to=latest")
    #expect(same.status == 400)
    #expect(
      try same.problemDetail()
        == "both dates name the snapshot of hot-100 on 2024-01-13: give two different chart dates")
    let sameCLI = chartArchive(["diff", "hot-100", "2024-01-13", "latest", "--db", archive])
    #expect(sameCLI.status == 64)
    #expect(sameCLI.error.hasPrefix("Error: " + (try same.problemDetail()) + "\nUsage: "))
    // A NUL separates words (it ended the full-text query: a 500).
    let nul = service.get("/api/songs?q=night%00sky")
    #expect(nul.status == 200)
    #expect(nul.text.contains("밤하늘 (Night Sky)"))
    #expect(service.get("/api/songs/99999").status == 404)
    #expect(try service.get("/api/songs/abc").problemDetail() == "no song with ID abc")
    #expect(try service.get("/api/songs/99999").problemDetail() == "no song with ID 99999")
    #expect(try service.get("/api/nothing").problemDetail() == "no such API endpoint: /api/nothing")
  }

  /// Uploads: only with the token, the same checks and words as `import`, all or nothing; a
  /// title with markup, quotes and emoji comes back exact.
  @Test func uploadsAreImportsBehindTheToken() throws {
    let (folder, archive) = try TestArchive.sample()
    let token = "s3cret-token-for-uploads"
    let service = try Service(archive) { $0.uploadToken = token }
    let hostile = #"<script>alert("1")</script> & 'quotes' 🎧🔥"#
    let file = Array(
      #"[{"title": "\#(hostile.replacingOccurrences(of: "\"", with: "\\\""))", "artist": "Zoë \"Z\" Ä", "image": "https://i.example/1.jpg", "url": "https://m.example/1", "last": 0}, {"title": "Two", "artist": "B"}]"#
        .utf8)
    let target = "/api/charts/app-new/snapshots?date=2024-06-01&format=app-feed"
    let bearer = ["Authorization": "Bearer " + token]

    let anonymous = service.request("POST", target, body: file)
    #expect(anonymous.status == 401)
    #expect(anonymous.header("WWW-Authenticate") == "Bearer")
    let wrong = service.request(
      "POST", target, headers: ["Authorization": "Bearer nope"], body: file)
    #expect(wrong.status == 401)
    #expect(service.get("/api/charts/app-new/latest").status == 404)
    #expect(
      service.request("OPTIONS", "/api/charts/app-new/snapshots").header("Allow")
        == "GET, HEAD, POST, OPTIONS")

    let created = service.request("POST", target, headers: bearer, body: file)
    #expect(created.status == 201, "\(created.text)")
    #expect(created.header("Cache-Control") == "no-store")
    #expect((try created.json() as? [String: Any])?["outcome"] as? String == "imported")
    let snapshot = try #require(
      try service.get("/api/charts/app-new/latest").json() as? [String: Any])
    let entries = try #require(snapshot["entries"] as? [[String: Any]])
    #expect(entries.map { $0["title"] as? String } == [hostile, "Two"])
    #expect(entries[0]["artist"] as? String == "Zoë \"Z\" Ä")
    #expect(entries.map { $0["movement"] as? String } == ["new", "new"])
    let feed = try Service(archive) { $0.feeds["daily"] = "app-new" }
    #expect(
      feed.get("/api/feed/daily").text
        == #"[{"title":"<script>alert(\"1\")</script> & 'quotes' 🎧🔥","artist":"Zoë \"Z\" Ä","image":"https://i.example/1.jpg","url":"https://m.example/1","last":0,"rank":1,"movement":"new","peak_position":1,"weeks_on_chart":1},{"title":"Two","artist":"B","image":"","url":"","last":0,"rank":2,"movement":"new","peak_position":2,"weeks_on_chart":1}]"#
        + "\n")

    let unchanged = service.request("POST", target, headers: bearer, body: file)
    #expect(unchanged.status == 200)
    #expect((try unchanged.json() as? [String: Any])?["outcome"] as? String == "unchanged")

    // Warnings in the command line's words (they were the notes' debug descriptions).
    let again = service.request(
      "POST", "/api/charts/app-new/snapshots?date=2024-06-02&format=app-feed", headers: bearer,
      body: file)
    #expect(again.status == 201)
    #expect(
      (try again.json() as? [String: Any])?["warnings"] as? [String] == [
        "app-new 2024-06-02 holds the same entries as 2024-06-01: the same chart saved under two"
          + " dates?"
      ])
    let yes = service.request("POST", target + "&replace=yes", headers: bearer, body: file)
    #expect(yes.status == 400)
    #expect(try yes.problemDetail() == "replace must be true or false, found 'yes'")
    for (query, detail) in [
      ("date=2024-13-01", "date '2024-13-01' is not a chart date (YYYY-MM-DD)"),
      ("date=", "date '' is not a chart date (YYYY-MM-DD)"),
      ("format=xls", "unknown format 'xls'"),
      ("frequency=fortnightly", "unknown frequency 'fortnightly'"),
    ] {
      let refused = service.request(
        "POST", "/api/charts/app-new/snapshots?" + query, headers: bearer, body: file)
      #expect(try refused.problemDetail() == detail)
    }

    let other = Array(#"[{"title": "Three", "artist": "C"}]"#.utf8)
    let conflict = service.request("POST", target, headers: bearer, body: other)
    #expect(conflict.status == 409)
    #expect(try conflict.problemDetail().hasSuffix("(add ?replace=true to replace it)"))
    let replaced = service.request("POST", target + "&replace=true", headers: bearer, body: other)
    #expect(replaced.status == 200)
    #expect((try replaced.json() as? [String: Any])?["outcome"] as? String == "replaced")

    // A broken file: 422 with every problem `import` prints, and nothing stored.
    let before = chartArchive(["export", "hot-100", "--format", "csv", "--db", archive]).output
    let broken =
      #"{"date": "2024-01-20", "data": [{"song": "A", "artist": "B", "this_week": 1}, {"song": "C", "artist": "D", "this_week": 1}]}"#
    let brokenFile = try folder.write("hot-100/2024-01-20.json", broken)
    let refused = service.request(
      "POST", "/api/charts/hot-100/snapshots", headers: bearer, body: Array(broken.utf8))
    #expect(refused.status == 422)
    let problems = try #require((try refused.json() as? [String: Any])?["problems"] as? [String])
    let cli = chartArchive(["import", brokenFile, "--chart", "hot-100", "--db", archive])
    #expect(cli.status != 0)
    // The same words, the upload named as such instead of the file's path.
    #expect(
      problems == [
        "hot-100/upload: entry 2 (rank 1), field 'this_week': rank 1 is also the rank of entry 1"
      ])
    for problem in problems {
      let words = problem.drop { $0 != ":" }
      #expect(cli.error.contains(brokenFile + words), "\(problem)\n\(cli.error)")
    }
    #expect(
      chartArchive(["export", "hot-100", "--format", "csv", "--db", archive]).output == before)
  }

  /// A native file naming `hot-100`, POSTed to app-weekly's address, was stored in app-weekly
  /// (201) and changed the figures of its later snapshot. The address names the chart the file
  /// must be of: 422 naming both, nothing stored; a file that names no chart goes to the
  /// address's.
  @Test func anUploadOfAnotherChartIsRefused() throws {
    let (folder, archive) = try TestArchive.sample()
    let service = try Service(archive) { $0.uploadToken = "s3cret-token-for-uploads" }
    let bearer = ["Authorization": "Bearer s3cret-token-for-uploads"]
    let before = service.get("/api/charts/app-weekly/snapshots").text
    let file =
      #"{"chart": "hot-100", "chart_date": "2024-05-12", "entries": [{"rank": 1, "title": "A", "artist": "B"}]}"#
    let refused = service.request(
      "POST", "/api/charts/app-weekly/snapshots", headers: bearer, body: Array(file.utf8))
    #expect(refused.status == 422)
    #expect(
      try refused.problemDetail()
        == "app-weekly/upload: the file is of chart 'hot-100', not of 'app-weekly', the chart it"
        + " was sent to")
    #expect(service.get("/api/charts/app-weekly/snapshots").text == before)
    #expect(service.get("/api/charts/hot-100/2024-05-12").status == 404)
    let own = file.replacingOccurrences(of: "hot-100", with: "app-weekly")
    let stored = service.request(
      "POST", "/api/charts/app-weekly/snapshots", headers: bearer, body: Array(own.utf8))
    #expect(stored.status == 201, "\(stored.text)")
    _ = folder
  }

  /// An upload sent gzipped (Content-Encoding: gzip) is the file it holds; another coding is
  /// refused. The gzipped bytes were read as the file ("not UTF-8 text (a binary file?)"), and a
  /// plain file labelled gzip was taken.
  @Test func aGzippedUploadIsTheFileItHolds() throws {
    let (folder, archive) = try TestArchive.sample()
    let token = "s3cret-token-for-uploads"
    let service = try Service(archive) { $0.uploadToken = token }
    let file = Array(#"[{"title": "One", "artist": "A"}, {"title": "Two", "artist": "B"}]"#.utf8)
    func upload(_ body: [UInt8], coding: String?, date: String) -> HTTPResponse {
      service.request(
        "POST", "/api/charts/app-new/snapshots?date=\(date)&format=app-feed",
        headers: ["Authorization": "Bearer " + token].merging(
          coding.map { ["Content-Encoding": $0] } ?? [:]
        ) { $1 }, body: body)
    }
    let zipped = try gzipTool(file, decompressing: false)
    #expect(upload(zipped, coding: "gzip", date: "2024-06-01").status == 201)
    let snapshot = try #require(
      try service.get("/api/charts/app-new/latest").json() as? [String: Any])
    #expect(
      (snapshot["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        == ["One", "Two"])
    let plain = upload(file, coding: "gzip", date: "2024-06-02")
    #expect(plain.status == 400)
    #expect(try plain.problemDetail().hasPrefix("the body is not valid gzip: "))
    let cut = upload(Array(zipped.dropLast(12)), coding: "gzip", date: "2024-06-02")
    #expect(try cut.problemDetail() == "the body is not valid gzip: the gzip stream is cut short")
    let other = upload(file, coding: "br", date: "2024-06-02")
    #expect(other.status == 415)
    #expect(
      try other.problemDetail()
        == "Content-Encoding 'br' is not read here; send the file as it is, or gzipped")
    // 33 MB of spaces, 32 KB gzipped: past the limit once decompressed.
    let bomb = try gzipTool(
      Array(repeating: UInt8(ascii: " "), count: 33 * 1024 * 1024), decompressing: false)
    let tooLong = upload(bomb, coding: "gzip", date: "2024-06-02")
    #expect(tooLong.status == 413)
    #expect(
      try tooLong.problemDetail() == "the file is longer than 33554432 bytes once decompressed")
    #expect(service.get("/api/charts/app-new/snapshots").text.contains("2024-06-02") == false)
    _ = folder
  }

  /// An import from elsewhere (the command line) while the service runs is seen by the next
  /// request: the answers kept are dropped.
  @Test func anImportBesideTheServiceIsSeenByTheNextRequest() throws {
    let (folder, archive) = try TestArchive.sample()
    let service = try Service(archive)
    let before = service.get("/api/charts/app-daily/latest")
    let tag = try #require(before.header("ETag"))
    let file = try folder.write(
      "app-daily/2024-05-06.json", #"[{"title": "Fresh", "artist": "New", "last": 0}]"#)
    #expect(chartArchive(["import", file, "--db", archive, "--quiet"]).status == 0)
    let after = service.get("/api/charts/app-daily/latest", headers: ["If-None-Match": tag])
    #expect(after.status == 200)
    let snapshot = try #require(try after.json() as? [String: Any])
    #expect(snapshot["chart_date"] as? String == "2024-05-06")
    let feed = try #require(try service.get("/api/feed/daily").json() as? [[String: Any]])
    #expect(feed.map { $0["title"] as? String } == ["Fresh"])
  }

  /// `--cors ORIGIN` lets a web page of that origin read the API: the header on answers, and a
  /// preflight (OPTIONS) with the methods and headers it may use. Without it, neither.
  @Test func corsIsOnlyForTheOriginGiven() throws {
    let archive = try TestArchive.shared.get().path
    let open = try Service(archive) { $0.corsOrigin = "https://app.example" }
    #expect(
      open.get("/api/feed/daily").header("Access-Control-Allow-Origin") == "https://app.example")
    let preflight = open.request(
      "OPTIONS", "/api/charts/hot-100/snapshots",
      headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"])
    #expect(preflight.status == 204)
    #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
    #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
    #expect(
      preflight.header("Access-Control-Allow-Headers")
        == "Authorization, Content-Type, If-None-Match")
    let closed = try Service(archive)
    #expect(closed.get("/api/feed/daily").header("Access-Control-Allow-Origin") == nil)
    let options = closed.request("OPTIONS", "/api/charts")
    #expect(options.status == 204)
    #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
    #expect(options.header("Access-Control-Allow-Methods") == nil)
    let nowhere = closed.request("OPTIONS", "/api/nothing")
    #expect(nowhere.status == 404)
    #expect(try nowhere.problemDetail() == "no such API endpoint")
  }
}
