/// The service's OpenAPI 3.1 document (<https://spec.openapis.org/oas/v3.1.0>), served at
/// `/api/openapi.json`: every endpoint, parameter, response and its schema. A test asks every
/// documented path and checks each answer against the document, and schemathesis fuzzes the
/// service against it.
enum OpenAPIDocument {
  /// The document as JSON text.
  static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "ChartArchive",
        "version": "1",
        "summary": "A chart archive's snapshots, movements, song histories and a chart app's feed.",
        "description": "Ranks are 1-based; chart dates are ISO 8601 (YYYY-MM-DD, or a date and time in UTC for an hourly chart). Movement is decided once per entry when its snapshot is stored, with the same rules as the chart-archive command line. Errors are RFC 9457 problem details. Every cacheable answer has an ETag (If-None-Match gives 304) and is gzipped when asked."
      },
      "paths": {
        "/api/health": {
          "get": {
            "summary": "Whether the service can read its archive",
            "operationId": "health",
            "responses": {
              "200": {"description": "The archive is readable", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}},
              "500": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/openapi.json": {
          "get": {
            "summary": "This document",
            "operationId": "openAPI",
            "responses": {"200": {"description": "The OpenAPI document", "content": {"application/json": {"schema": {"type": "object"}}}}}
          }
        },
        "/api/charts": {
          "get": {
            "summary": "The archive's charts",
            "operationId": "charts",
            "parameters": [{"$ref": "#/components/parameters/format"}],
            "responses": {
              "200": {"description": "Every chart with its frequency, snapshot count and first and last chart dates", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Charts"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/charts/{chart}/snapshots": {
          "parameters": [{"$ref": "#/components/parameters/chart"}],
          "get": {
            "summary": "A chart's snapshots",
            "operationId": "snapshots",
            "parameters": [{"$ref": "#/components/parameters/format"}],
            "responses": {
              "200": {"description": "Every snapshot of the chart, oldest first", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Snapshots"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          },
          "post": {
            "summary": "Import a chart file as the chart's snapshots",
            "description": "The body is a chart file in any format chart-archive import reads, as it is or gzipped (Content-Encoding: gzip; another coding is a 415). All or nothing: the same checks as the command line. Only on a server started with --token-file (405 otherwise), with Authorization: Bearer TOKEN.",
            "operationId": "upload",
            "security": [{"bearer": []}],
            "parameters": [
              {"name": "date", "in": "query", "description": "The chart date, when the file does not give one (YYYY-MM-DD)", "schema": {"type": "string"}},
              {"name": "format", "in": "query", "description": "The file's format, when it cannot be told from its content (see chart-archive formats)", "schema": {"type": "string"}},
              {"name": "frequency", "in": "query", "description": "How often the chart is published", "schema": {"type": "string", "enum": ["hourly", "daily", "weekly", "monthly", "all-time"]}},
              {"name": "replace", "in": "query", "description": "true to replace a different snapshot stored for the same chart date", "schema": {"type": "string", "enum": ["true", "false"]}}
            ],
            "requestBody": {"required": true, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}, "application/json": {"schema": {}}, "text/csv": {"schema": {"type": "string"}}}},
            "responses": {
              "200": {"description": "Nothing new (every snapshot was already stored), or a snapshot replaced (?replace=true): outcome says which", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Upload"}}}},
              "201": {"description": "Stored", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Upload"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "405": {"$ref": "#/components/responses/Problem"},
              "409": {"$ref": "#/components/responses/Problem"},
              "413": {"description": "The body is larger than the server takes (libevent's own HTML answer), or its gzipped file is, once decompressed (a problem)"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/charts/{chart}/diff": {
          "parameters": [{"$ref": "#/components/parameters/chart"}],
          "get": {
            "summary": "How a chart changed between two snapshots",
            "operationId": "diff",
            "parameters": [
              {"name": "from", "in": "query", "description": "The older chart date (YYYY-MM-DD, latest or previous); by default the one before to", "schema": {"type": "string"}},
              {"name": "to", "in": "query", "description": "The newer chart date; by default the latest", "schema": {"type": "string"}},
              {"$ref": "#/components/parameters/format"}
            ],
            "responses": {
              "200": {"description": "Arrivals, drop-outs and movements, ranks compared between the two snapshots", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Diff"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/charts/{chart}/report": {
          "parameters": [{"$ref": "#/components/parameters/chart"}],
          "get": {
            "summary": "A snapshot's rank-change report",
            "operationId": "report",
            "parameters": [
              {"name": "date", "in": "query", "description": "The chart date (YYYY-MM-DD, latest or previous); by default the latest", "schema": {"type": "string"}},
              {"name": "limit", "in": "query", "description": "The most climbers and fallers listed", "schema": {"type": "integer", "minimum": 0, "default": 10}},
              {"$ref": "#/components/parameters/format"}
            ],
            "responses": {
              "200": {"description": "The number one, debuts, re-entries, climbers, fallers and drop-outs", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Report"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/charts/{chart}/{date}": {
          "parameters": [
            {"$ref": "#/components/parameters/chart"},
            {"name": "date", "in": "path", "required": true, "description": "A chart date (YYYY-MM-DD), latest or previous", "schema": {"type": "string"}, "example": "latest"}
          ],
          "get": {
            "summary": "A snapshot: its entries with their figures",
            "description": "Cached for a day when dated, a minute for latest and previous.",
            "operationId": "snapshot",
            "parameters": [
              {"name": "limit", "in": "query", "description": "The most entries given, from rank 1", "schema": {"type": "integer", "minimum": 0}},
              {"$ref": "#/components/parameters/format"}
            ],
            "responses": {
              "200": {"description": "The snapshot's entries in rank order", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Snapshot"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/songs": {
          "get": {
            "summary": "Search songs by words of their titles and credits",
            "description": "Each word must begin a word of a title or credit; case and accents do not matter. Give q, artist or both.",
            "operationId": "searchSongs",
            "parameters": [
              {"name": "q", "in": "query", "description": "Words of a title or credit", "schema": {"type": "string"}},
              {"name": "artist", "in": "query", "description": "Words of the artist credit", "schema": {"type": "string"}},
              {"name": "chart", "in": "query", "description": "Only songs that were on this chart", "schema": {"type": "string"}},
              {"$ref": "#/components/parameters/format"}
            ],
            "responses": {
              "200": {"description": "The songs that match, exact titles first", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SongMatches"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/songs/{id}": {
          "parameters": [{"name": "id", "in": "path", "required": true, "description": "A song ID, as a search gives it", "schema": {"type": "integer"}, "example": 1}],
          "get": {
            "summary": "A song's history on every chart it was on",
            "operationId": "song",
            "parameters": [{"$ref": "#/components/parameters/format"}],
            "responses": {
              "200": {"description": "Every chart date of every recording of the song, with peak position, weeks on chart, runs and credit changes", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/History"}}, "text/csv": {"schema": {"type": "string"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/api/feed/updated": {
          "get": {
            "summary": "When the archive last changed",
            "description": "The time of the latest import, in seconds since 1970-01-01T00:00:00Z (0 for an empty archive): a chart app compares it before fetching its feeds again.",
            "operationId": "feedUpdated",
            "responses": {
              "200": {"description": "Seconds since 1970", "content": {"application/json": {"schema": {"type": "integer", "minimum": 0}}}},
              "304": {"$ref": "#/components/responses/NotModified"}
            }
          }
        },
        "/api/feed/{category}": {
          "parameters": [{"name": "category", "in": "path", "required": true, "description": "total, time (hourly), daily, weekly or monthly (or one given with --feed)", "schema": {"type": "string"}, "example": "daily"}],
          "get": {
            "summary": "A chart app's feed: the latest snapshot of the category's chart",
            "operationId": "feed",
            "parameters": [{"name": "limit", "in": "query", "description": "The most entries given, from rank 1", "schema": {"type": "integer", "minimum": 0, "default": 20}}],
            "responses": {
              "200": {"description": "The entries in rank order", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Feed"}}}},
              "304": {"$ref": "#/components/responses/NotModified"},
              "400": {"$ref": "#/components/responses/Problem"},
              "404": {"$ref": "#/components/responses/Problem"}
            }
          }
        }
      },
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "The token in the server's --token-file"}},
        "parameters": {
          "chart": {"name": "chart", "in": "path", "required": true, "description": "The chart's name, as chart-archive charts lists it", "schema": {"type": "string"}, "example": "hot-100"},
          "format": {"name": "format", "in": "query", "description": "json (the default) or csv; Accept: text/csv asks for CSV too", "schema": {"type": "string", "enum": ["json", "csv"]}}
        },
        "responses": {
          "NotModified": {"description": "The answer has the ETag given in If-None-Match"},
          "Problem": {"description": "An RFC 9457 problem, in the command line's words", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        },
        "schemas": {
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
          "ChartDate": {"type": "string", "description": "YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ for an hourly chart"},
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
                    "source": {"type": ["string", "null"], "description": "The file it was imported from"}
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
              "required": ["title", "artist", "image", "url", "last"],
              "properties": {
                "title": {"type": "string"},
                "artist": {"type": "string"},
                "image": {"type": "string", "description": "The image URL; empty when there is none"},
                "url": {"type": "string", "description": "The song URL; empty when there is none"},
                "last": {"type": "integer", "minimum": 0, "description": "The previous rank; 0 for a new or re-entering song"}
              }
            }
          },
          "Upload": {
            "type": "object",
            "required": ["outcome", "snapshots", "warnings"],
            "properties": {
              "outcome": {"type": "string", "enum": ["imported", "replaced", "unchanged"]},
              "snapshots": {"type": "array", "items": {"type": "object", "required": ["chart", "chart_date", "entries", "outcome"], "properties": {"chart": {"type": "string"}, "chart_date": {"$ref": "#/components/schemas/ChartDate"}, "entries": {"type": "integer"}, "outcome": {"type": "string"}}}},
              "warnings": {"type": "array", "items": {"type": "string"}}
            }
          }
        }
      }
    }
    """#
}
