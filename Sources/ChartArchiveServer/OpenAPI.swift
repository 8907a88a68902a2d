import ChartFormats
import Foundation

/// The service's OpenAPI 3.1 document (<https://spec.openapis.org/oas/v3.1.0>), served at
/// `/api/openapi.json`: its paths, operations and parameters read from the API's route table
/// (``Router/apiRoutes``), the schemas of the answers written here. A test walks the table
/// against the document both ways and asks every documented path, and schemathesis fuzzes the
/// service against it.
enum OpenAPIDocument {
  /// The document as JSON text.
  static let json = document(for: Router.apiRoutes)

  /// The document of a table of routes.
  static func document(for routes: [Route]) -> String {
    #"""
    {
      "openapi": "3.1.0",
      "info": \#(info),
      "paths": \#(nested(paths(of: routes), depth: 1)),
      "components": {
        "securitySchemes": \#(securitySchemes),
        "parameters": \#(nested(sharedParameters(of: routes), depth: 2)),
        "responses": \#(responses),
        "headers": \#(headers),
        "schemas": \#(schemas)
      }
    }
    """#
  }

  /// The document's title, version and description.
  private static let info = #"""
    {
        "title": "ChartArchive",
        "version": "1",
        "summary": "A chart archive's snapshots, movements, song histories and a chart app's feed.",
        "description": "Ranks are 1-based; chart dates are ISO 8601 (YYYY-MM-DD, or a date and time in UTC for an hourly chart). A date in a path or a query names the snapshot of that day in the chart's time zone (a chart imported with a zone, shown by the chart list; UTC for the others); a day with several snapshots is a 404 listing their chart dates, each of which names one. Movement is decided once per entry when its snapshot is stored, with the same rules as the chart-archive command line. Errors are RFC 9457 problem details; a query parameter an operation does not list is a 400 that names it and the ones the operation takes, and so is a query that is not percent-encoded UTF-8. Every cacheable answer has an ETag (If-None-Match gives 304) and is gzipped when asked. Lists page with limit, from offset or after a cursor (the last item of the page before, for lists imports grow); a page gives X-Total-Count, and Link to the next page but on the last (RFC 8288). Fields are only ever added: a field removed or changed in meaning goes to a new versioned path, the old operation marked deprecated and answering with Deprecation (RFC 9745), Sunset and a Link to its successor a release before it goes."
      }
    """#

  /// How uploads are authorized.
  private static let securitySchemes = #"""
    {"bearer": {"type": "http", "scheme": "bearer", "description": "The token in the server's --token-file"}}
    """#

  /// The answers several operations share: 304 and the problem document.
  private static let responses = #"""
    {
          "NotModified": {"description": "The answer has the ETag given in If-None-Match"},
          "Problem": {"description": "An RFC 9457 problem, in the command line's words", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        }
    """#

  /// The schemas of the answers' bodies.
  private static let schemas = #"""
    {
          "Problem": {
            "type": "object",
            "required": ["type", "title", "status", "detail"],
            "properties": {
              "type": {"type": "string"},
              "title": {"type": "string"},
              "status": {"type": "integer"},
              "detail": {"type": "string"},
              "problems": {"type": "array", "items": {"type": "string"}, "description": "An upload's problems, each as the command line prints it"}
            }
          },
          "Health": {
            "type": "object",
            "required": ["status", "schema_version", "charts", "last_import"],
            "properties": {
              "status": {"const": "ok"},
              "schema_version": {"type": "integer"},
              "charts": {"type": "integer", "minimum": 0},
              "last_import": {"type": ["string", "null"], "description": "ISO 8601 date and time in UTC"}
            }
          },
          "ChartDate": {"type": "string", "description": "YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ for an hourly chart; a date names the snapshot of that day in the chart's time zone"},
          "Movement": {"type": "string", "enum": ["up", "down", "unchanged", "new", "re-entry"]},
          "Charts": {
            "type": "object",
            "required": ["charts"],
            "properties": {
              "charts": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["chart", "frequency", "snapshots", "first_chart_date", "last_chart_date"],
                  "properties": {
                    "chart": {"type": "string"},
                    "frequency": {"type": ["string", "null"], "enum": ["hourly", "daily", "weekly", "monthly", "all-time", null]},
                    "snapshots": {"type": "integer", "minimum": 0},
                    "first_chart_date": {"$ref": "#/components/schemas/ChartDate"},
                    "last_chart_date": {"$ref": "#/components/schemas/ChartDate"}
                  }
                }
              }
            }
          },
          "Snapshots": {
            "type": "object",
            "required": ["chart", "snapshots"],
            "properties": {
              "chart": {"type": "string"},
              "snapshots": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["chart_date", "entries", "source"],
                  "properties": {
                    "chart_date": {"$ref": "#/components/schemas/ChartDate"},
                    "entries": {"type": "integer", "minimum": 0},
                    "source": {"type": ["string", "null"], "description": "The name of the file it was imported from (without its folder)"}
                  }
                }
              }
            }
          },
          "Figures": {
            "type": "object",
            "required": ["movement", "previous_rank", "peak_position", "weeks_on_chart", "streams", "previous_rank_source", "run", "partial_run", "published_previous_rank", "published_peak_position", "published_weeks_on_chart", "archive_peak_position", "archive_weeks_on_chart"],
            "properties": {
              "rank": {"type": "integer", "minimum": 1},
              "movement": {"$ref": "#/components/schemas/Movement"},
              "previous_rank": {"type": ["integer", "null"], "minimum": 1, "description": "The previous rank the archive uses; null for a new or re-entering song"},
              "peak_position": {"type": "integer", "minimum": 1},
              "weeks_on_chart": {"type": "integer", "minimum": 1, "description": "Periods on the chart: weeks, or days, hours or months by the chart's frequency"},
              "streams": {"type": ["integer", "null"]},
              "previous_rank_source": {"type": "string", "enum": ["published", "derived", "corrected"]},
              "run": {"type": "integer", "minimum": 1},
              "partial_run": {"type": "boolean", "description": "The archive does not hold the start of the song's run: peak and weeks are the source's"},
              "published_previous_rank": {"type": ["integer", "null"], "description": "The source's figure, where it differs from the archive's"},
              "published_peak_position": {"type": ["integer", "null"]},
              "published_weeks_on_chart": {"type": ["integer", "null"]},
              "archive_peak_position": {"type": ["integer", "null"], "description": "The archive's own figure, where it differs from the one given"},
              "archive_weeks_on_chart": {"type": ["integer", "null"]}
            }
          },
          "Entry": {
            "allOf": [{"$ref": "#/components/schemas/Figures"}],
            "type": "object",
            "required": ["rank", "title", "artist", "image_url", "song_url"],
            "properties": {
              "title": {"type": "string"},
              "artist": {"type": "string"},
              "image_url": {"type": ["string", "null"]},
              "song_url": {"type": ["string", "null"]}
            }
          },
          "Snapshot": {
            "type": "object",
            "required": ["chart", "chart_date", "previous_chart_date", "entries"],
            "properties": {
              "chart": {"type": "string"},
              "chart_date": {"$ref": "#/components/schemas/ChartDate"},
              "previous_chart_date": {"type": ["string", "null"]},
              "entries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}}
            }
          },
          "Move": {
            "type": "object",
            "required": ["rank", "movement", "older_rank", "title", "artist"],
            "properties": {
              "rank": {"type": "integer", "minimum": 1},
              "movement": {"$ref": "#/components/schemas/Movement"},
              "older_rank": {"type": ["integer", "null"]},
              "title": {"type": "string"},
              "artist": {"type": "string"}
            }
          },
          "Diff": {
            "type": "object",
            "required": ["chart", "older_chart_date", "newer_chart_date", "arrivals", "drop_outs", "movements"],
            "properties": {
              "chart": {"type": "string"},
              "older_chart_date": {"$ref": "#/components/schemas/ChartDate"},
              "newer_chart_date": {"$ref": "#/components/schemas/ChartDate"},
              "arrivals": {"type": "array", "items": {"$ref": "#/components/schemas/Move"}},
              "drop_outs": {"type": "array", "items": {"type": "object", "required": ["older_rank", "title", "artist"], "properties": {"older_rank": {"type": "integer"}, "title": {"type": "string"}, "artist": {"type": "string"}}}},
              "movements": {"type": "array", "items": {"$ref": "#/components/schemas/Move"}}
            }
          },
          "Report": {
            "type": "object",
            "required": ["chart", "chart_date", "previous_chart_date", "number_one", "debuts", "reentries", "climbers", "fallers", "drop_outs"],
            "properties": {
              "chart": {"type": "string"},
              "chart_date": {"$ref": "#/components/schemas/ChartDate"},
              "previous_chart_date": {"type": ["string", "null"]},
              "number_one": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
              "debuts": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
              "reentries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
              "climbers": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
              "fallers": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
              "drop_outs": {"type": "array", "items": {"type": "object", "required": ["previous_rank", "title", "artist"], "properties": {"previous_rank": {"type": "integer"}, "title": {"type": "string"}, "artist": {"type": "string"}}}}
            }
          },
          "Records": {
            "type": "object",
            "required": ["chart", "frequency", "unit", "from", "to", "limit", "leaderboards"],
            "properties": {
              "chart": {"type": "string"},
              "frequency": {"type": ["string", "null"]},
              "unit": {"type": "string", "description": "The chart's periods: weeks, days, hours, months or snapshots"},
              "from": {"type": ["string", "null"]},
              "to": {"type": ["string", "null"]},
              "limit": {"type": "integer", "minimum": 0},
              "leaderboards": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["kind", "title", "holder", "figure", "rows"],
                  "properties": {
                    "kind": {"type": "string", "description": "weeks-at-number-one, longest-stay-at-number-one, weeks-on-chart, longest-run, highest-debut, biggest-climb, biggest-fall, fastest-rise-to-number-one, longest-road-to-number-one, then by artist: artist-number-ones, artist-top-10s, artist-entries, artist-weeks-at-number-one or artist-entries-at-once"},
                    "title": {"type": "string"},
                    "holder": {"type": "string", "description": "What the rows hold: song, or artist for the artist- leaderboards"},
                    "figure": {"type": "string", "description": "What the figure counts: the chart's periods (weeks …), rank, places or songs"},
                    "rows": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "required": ["rank", "holder", "figure", "first_chart_date", "last_chart_date", "from_rank", "to_rank"],
                        "properties": {
                          "rank": {"type": "integer", "minimum": 1, "description": "Equal figures share a rank (1, 1, 3)"},
                          "holder": {"type": "object", "required": ["type", "id"], "description": "A song {type: song, id, title, artist} or an artist {type: artist, id, name}", "properties": {"type": {"type": "string"}, "id": {"type": "integer"}, "title": {"type": "string"}, "artist": {"type": "string"}, "name": {"type": "string"}}},
                          "figure": {"type": "integer"},
                          "first_chart_date": {"$ref": "#/components/schemas/ChartDate"},
                          "last_chart_date": {"$ref": "#/components/schemas/ChartDate"},
                          "from_rank": {"type": ["integer", "null"]},
                          "to_rank": {"type": ["integer", "null"]}
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "Period": {
            "type": "object",
            "required": ["chart", "year", "from", "to", "previous_from", "previous_to", "scoring", "snapshots", "previous_snapshots", "first_chart_date", "last_chart_date", "songs", "notice", "entries"],
            "properties": {
              "chart": {"type": "string"},
              "year": {"type": ["integer", "null"], "description": "The year asked for; null for a span of two dates"},
              "from": {"$ref": "#/components/schemas/ChartDate"},
              "to": {"$ref": "#/components/schemas/ChartDate"},
              "previous_from": {"$ref": "#/components/schemas/ChartDate"},
              "previous_to": {"$ref": "#/components/schemas/ChartDate"},
              "scoring": {"type": "string", "enum": ["root", "linear", "billboard", "streams"]},
              "snapshots": {"type": "integer", "minimum": 0},
              "previous_snapshots": {"type": "integer", "minimum": 0},
              "first_chart_date": {"type": ["string", "null"]},
              "last_chart_date": {"type": ["string", "null"]},
              "songs": {"type": "integer", "minimum": 0, "description": "Songs in the span; entries holds the top limit of them"},
              "notice": {"type": "string"},
              "entries": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["rank", "movement", "previous_rank", "title", "artist", "points", "peak", "at_peak", "periods"],
                  "properties": {
                    "rank": {"type": "integer", "minimum": 1},
                    "movement": {"$ref": "#/components/schemas/Movement"},
                    "previous_rank": {"type": ["integer", "null"], "minimum": 1, "description": "The rank in the period before; null when the song was not in it (movement new)"},
                    "title": {"type": "string"},
                    "artist": {"type": "string"},
                    "points": {"type": "integer", "minimum": 0, "description": "Points summed over the span's snapshots, rounded"},
                    "peak": {"type": "integer", "minimum": 1},
                    "at_peak": {"type": "integer", "minimum": 1, "description": "Snapshots of the span at that peak"},
                    "periods": {"type": "integer", "minimum": 1, "description": "Snapshots of the span the song was on: weeks, or days, hours or months by the chart's frequency"}
                  }
                }
              }
            }
          },
          "SongMatches": {
            "type": "object",
            "required": ["matches"],
            "properties": {
              "matches": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["song_id", "title", "artist", "recording", "first_chart_date", "best_rank", "entries"],
                  "properties": {
                    "song_id": {"type": "integer"},
                    "title": {"type": "string"},
                    "artist": {"type": "string"},
                    "recording": {"type": "integer", "minimum": 1},
                    "first_chart_date": {"$ref": "#/components/schemas/ChartDate"},
                    "best_rank": {"type": "integer", "minimum": 1},
                    "entries": {"type": "integer", "minimum": 1}
                  }
                }
              }
            }
          },
          "ArtistMatches": {
            "type": "object",
            "required": ["matches"],
            "properties": {
              "matches": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["artist_id", "artist", "songs"],
                  "properties": {
                    "artist_id": {"type": "integer"},
                    "artist": {"type": "string"},
                    "songs": {"type": "integer", "minimum": 0}
                  }
                }
              }
            }
          },
          "Artist": {
            "type": "object",
            "required": ["artist_id", "artist", "charts"],
            "properties": {
              "artist_id": {"type": "integer"},
              "artist": {"type": "string"},
              "charts": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["chart", "entries", "top_10s", "number_ones", "weeks_at_number_one", "weeks_on_chart", "first_entry", "latest_entry", "songs"],
                  "properties": {
                    "chart": {"type": "string"},
                    "entries": {"type": "integer", "minimum": 0},
                    "top_10s": {"type": "integer", "minimum": 0},
                    "number_ones": {"type": "integer", "minimum": 0},
                    "weeks_at_number_one": {"type": "integer", "minimum": 0},
                    "weeks_on_chart": {"type": "integer", "minimum": 0},
                    "first_entry": {"$ref": "#/components/schemas/ArtistEntry"},
                    "latest_entry": {"$ref": "#/components/schemas/ArtistEntry"},
                    "songs": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "required": ["song_id", "title", "credit", "role", "debut_date", "debut_rank", "peak_position", "weeks_at_peak", "weeks_on_chart", "runs", "last_date", "partial_run"],
                        "properties": {
                          "song_id": {"type": "integer"},
                          "title": {"type": "string"},
                          "credit": {"type": "string"},
                          "role": {"type": "string", "enum": ["lead", "featured"]},
                          "debut_date": {"$ref": "#/components/schemas/ChartDate"},
                          "debut_rank": {"type": "integer", "minimum": 1},
                          "peak_position": {"type": "integer", "minimum": 1},
                          "weeks_at_peak": {"type": "integer", "minimum": 0},
                          "weeks_on_chart": {"type": "integer", "minimum": 1},
                          "runs": {"type": "integer", "minimum": 1},
                          "last_date": {"$ref": "#/components/schemas/ChartDate"},
                          "partial_run": {"type": "boolean"}
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "ArtistEntry": {
            "type": ["object", "null"],
            "required": ["song_id", "title", "credit", "chart_date"],
            "properties": {
              "song_id": {"type": "integer"},
              "title": {"type": "string"},
              "credit": {"type": "string"},
              "chart_date": {"$ref": "#/components/schemas/ChartDate"}
            }
          },
          "History": {
            "type": "object",
            "required": ["title", "artist", "recordings"],
            "properties": {
              "title": {"type": "string"},
              "artist": {"type": "string"},
              "recordings": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["recording", "song_id", "relation", "first_chart_date", "charts"],
                  "properties": {
                    "recording": {"type": "integer", "minimum": 1},
                    "song_id": {"type": "integer"},
                    "relation": {"type": "string"},
                    "first_chart_date": {"$ref": "#/components/schemas/ChartDate"},
                    "charts": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "required": ["chart", "peak_position", "weeks_at_peak", "weeks_on_chart", "runs", "partial_run", "debut_date", "debut_rank", "debut_before_archive", "credit_changes", "entries"],
                        "properties": {
                          "chart": {"type": "string"},
                          "peak_position": {"type": "integer", "minimum": 1},
                          "weeks_at_peak": {"type": "integer", "minimum": 0, "description": "0 when the peak is the source's, reached before the archive's first entry of the song"},
                          "weeks_on_chart": {"type": "integer", "minimum": 1},
                          "runs": {"type": "integer", "minimum": 1},
                          "partial_run": {"type": "boolean"},
                          "debut_date": {"$ref": "#/components/schemas/ChartDate"},
                          "debut_rank": {"type": "integer", "minimum": 1},
                          "debut_before_archive": {"type": "boolean", "description": "true when the song charted before the archive's first entry of it: debut_date and debut_rank are then that entry"},
                          "credit_changes": {"type": "array", "items": {"type": "object", "required": ["chart_date", "from", "to"], "properties": {"chart_date": {"type": "string"}, "from": {"type": "string"}, "to": {"type": "string"}}}},
                          "entries": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/Figures"}], "type": "object", "required": ["chart_date", "rank"], "properties": {"chart_date": {"$ref": "#/components/schemas/ChartDate"}}}}
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "Feed": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["title", "artist", "image", "url", "last", "rank", "movement", "peak_position", "weeks_on_chart"],
              "properties": {
                "title": {"type": "string"},
                "artist": {"type": "string"},
                "image": {"type": "string", "description": "The image URL; empty when there is none"},
                "url": {"type": "string", "description": "The song URL; empty when there is none"},
                "last": {"type": "integer", "minimum": 0, "description": "The previous rank; 0 for a new or re-entering song"},
                "rank": {"type": "integer", "minimum": 1},
                "movement": {"type": "string", "enum": ["up", "down", "unchanged", "new", "re-entry"], "description": "new for a debut, re-entry for a song back after time away"},
                "peak_position": {"type": "integer", "minimum": 1},
                "weeks_on_chart": {"type": "integer", "minimum": 1, "description": "In the chart's periods: days for a daily chart, hours for an hourly one"}
              }
            }
          },
          "Decisions": {
            "type": "object",
            "required": ["decisions"],
            "properties": {
              "decisions": {"type": "array", "items": {"type": "object", "required": ["number", "kind", "made_at", "decision"], "properties": {"number": {"type": "integer"}, "kind": {"type": "string", "enum": ["merge", "split", "rename", "delete"]}, "made_at": {"type": "string"}, "decision": {"type": "string"}}}}
            }
          },
          "Upload": {
            "type": "object",
            "required": ["outcome", "snapshots", "decisions_kept", "warnings"],
            "properties": {
              "outcome": {"type": "string", "enum": ["imported", "replaced", "unchanged"]},
              "decisions_kept": {"type": "integer", "minimum": 0},
              "snapshots": {"type": "array", "items": {"type": "object", "required": ["chart", "chart_date", "entries", "outcome"], "properties": {"chart": {"type": "string"}, "chart_date": {"$ref": "#/components/schemas/ChartDate"}, "entries": {"type": "integer"}, "outcome": {"type": "string"}}}},
              "warnings": {"type": "array", "items": {"type": "string"}}
            }
          }
        }
    """#

  /// The document's paths: each route's path with the parameters of its path, and an operation
  /// for each of its methods, in the table's order.
  static func paths(of routes: [Route]) -> JSONValue {
    var patterns: [String] = []
    var byPattern: [String: [Route]] = [:]
    for route in routes where route.document != nil {
      if byPattern[route.pattern] == nil { patterns.append(route.pattern) }
      byPattern[route.pattern, default: []].append(route)
    }
    return .object(
      patterns.map { pattern in
        let routes = byPattern[pattern] ?? []
        var item: [(String, JSONValue)] = []
        if let parameters = routes.first?.pathParameters, !parameters.isEmpty {
          item.append(("parameters", .array(parameters.map(reference))))
        }
        for route in routes { item.append((route.method.rawValue.lowercased(), operation(route))) }
        return (pattern, .object(item))
      })
  }

  /// A route's operation: its words, query parameters, request body and answers.
  static func operation(_ route: Route) -> JSONValue {
    guard let document = route.document else { return .null }
    var members: [(String, JSONValue)] = [("summary", .string(document.summary))]
    if let description = document.description {
      members.append(("description", .string(description)))
    }
    members.append(("operationId", .string(document.operationID)))
    if route.deprecation != nil { members.append(("deprecated", .bool(true))) }
    if document.needsToken {
      members.append(("security", .array([.object([("bearer", .array([]))])])))
    }
    if !route.query.isEmpty {
      members.append(("parameters", .array(route.query.map(reference))))
    }
    if let body = document.requestBody { members.append(("requestBody", body)) }
    var responses: [(status: Int, JSONValue)] = document.answers.map { answer in
      var response: [(String, JSONValue)] = [("description", .string(answer.description))]
      if answer.status == 200, let headers = headers(of: route) {
        response.append(("headers", headers))
      }
      if let schema = answer.schema {
        let content = route.media.map { media in
          (media.name, JSONValue.object([("schema", media == .json ? schema : stringSchema)]))
        }
        response.append(("content", .object(content)))
      }
      return (answer.status, .object(response))
    }
    if route.caching != .none { responses.append((304, component("responses", "NotModified"))) }
    for status in Set([400] + document.problems) {
      responses.append((status, component("responses", "Problem")))
    }
    members.append(
      ("responses", .object(responses.sorted { $0.status < $1.status }.map { (String($0), $1) })))
    return .object(members)
  }

  /// The parameters several routes share, kept among the document's components.
  static func sharedParameters(of routes: [Route]) -> JSONValue {
    var names: Set<String> = []
    var shared: [(String, JSONValue)] = []
    for route in routes where route.document != nil {
      for parameter in route.pathParameters + route.query {
        guard let name = parameter.component, names.insert(name).inserted else { continue }
        shared.append((name, declaration(parameter)))
      }
    }
    return .object(shared)
  }

  /// A parameter where an operation or path names it: a reference to the components for a shared
  /// one, else its declaration.
  static func reference(_ parameter: RouteParameter) -> JSONValue {
    parameter.component.map { component("parameters", $0) } ?? declaration(parameter)
  }

  /// A parameter's declaration: name, location, whether it is required (a path's are),
  /// description, schema and example.
  static func declaration(_ parameter: RouteParameter) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("name", .string(parameter.name)), ("in", .string(parameter.location.rawValue)),
    ]
    if parameter.location == .path { members.append(("required", .bool(true))) }
    members += [("description", .string(parameter.description)), ("schema", parameter.schema)]
    if let example = parameter.example { members.append(("example", example)) }
    return .object(members)
  }

  private static let stringSchema = JSONValue.object([("type", .string("string"))])

  /// The headers of a route's 200 answer, references to the components: a page's (see
  /// ``Paging``), a deprecated route's (see ``Route/Deprecation``); `nil` for none.
  private static func headers(of route: Route) -> JSONValue? {
    var headers: [(String, JSONValue)] = []
    if route.document?.paged == true {
      headers += [
        ("X-Total-Count", component("headers", "TotalCount")),
        ("Link", component("headers", "Link")),
      ]
    }
    if route.deprecation != nil {
      headers += [
        ("Deprecation", component("headers", "Deprecation")),
        ("Sunset", component("headers", "Sunset")),
      ]
    }
    return headers.isEmpty ? nil : .object(headers)
  }

  /// The headers several operations answer with: a page's, and a deprecated operation's.
  private static let headers = #"""
    {
          "TotalCount": {"description": "How many items the whole list holds (records: the rows its leaderboards list down to rank 100)", "schema": {"type": "integer", "minimum": 0}},
          "Link": {"description": "RFC 8288: the next page, <PATH?QUERY>; rel=\"next\", an absolute path with the query; absent on the last page", "schema": {"type": "string"}},
          "Deprecation": {"description": "RFC 9745: the operation is deprecated, since this date (@ seconds since 1970)", "schema": {"type": "string"}},
          "Sunset": {"description": "RFC 8594: the HTTP date after which the operation may answer no more", "schema": {"type": "string"}}
        }
    """#

  private static func component(_ kind: String, _ name: String) -> JSONValue {
    .object([("$ref", .string("#/components/\(kind)/\(name)"))])
  }

  /// JSON text to put at a depth of the document (two spaces a level).
  private static func nested(_ value: JSONValue, depth: Int) -> String {
    value.encoded().replacingOccurrences(
      of: "\n", with: "\n" + String(repeating: "  ", count: depth))
  }
}
