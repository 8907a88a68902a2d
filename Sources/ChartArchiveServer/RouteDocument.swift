import ChartFormats

/// A route's words in the OpenAPI document (<https://spec.openapis.org/oas/v3.1.0>): what it
/// does and what it answers. The rest of its operation is read from the route itself: its
/// parameters, the media types of its answers, `304` for a route whose answers are kept, and `400`,
/// which every API route answers for a query parameter it does not take.
struct RouteDocument: Sendable {
  /// An answer that is not a problem document.
  struct Answer: Sendable {
    /// The status.
    var status: Int
    /// What it means.
    var description: String
    /// The JSON schema of its body, for each of the route's media types (CSV is a string); `nil`
    /// for an answer the document gives no body.
    var schema: JSONValue?

    /// 200 with a body of a schema among the document's components (`Snapshot`).
    static func ok(_ description: String, schema name: String) -> Answer {
      Answer(status: 200, description: description, schema: RouteDocument.schema(name))
    }

    /// 200 with a body of a schema.
    static func ok(_ description: String, schema: JSONValue) -> Answer {
      Answer(status: 200, description: description, schema: schema)
    }
  }

  /// One line on what the route does.
  var summary: String
  /// More, when one line is not enough.
  var description: String? = nil
  /// The operation's ID (`snapshot`).
  var operationID: String
  /// Its answers other than problems.
  var answers: [Answer]
  /// The statuses it answers with an RFC 9457 problem document, besides `400`.
  var problems: [Int] = []
  /// What its request body is (an upload's file), when it reads one.
  var requestBody: JSONValue? = nil
  /// Whether it needs the bearer token.
  var needsToken = false
  /// Whether its answer is a page of a list: its 200 gives `X-Total-Count`, and `Link` to the
  /// next page (see ``Paging``).
  var paged = false

  /// A reference to a schema among the document's components (`Snapshot`).
  static func schema(_ name: String) -> JSONValue {
    .object([("$ref", .string("#/components/schemas/" + name))])
  }
}
