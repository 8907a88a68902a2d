/// The files pages use, carried inside the binary (`Assets/` of this module, embedded by
/// SwiftPM's `.embedInCode` rule): the style sheet and the icon. Nothing is ever read from a
/// path, so a request can name no file of the machine.
public enum PageAssets {
  /// One asset: its media type and bytes.
  public struct Asset: Sendable {
    /// The media type, with its charset for text (`text/css; charset=utf-8`).
    public var contentType: String
    /// The bytes.
    public var bytes: [UInt8]
  }

  /// The assets by name, as served under `/assets/`: `style.css` and `icon.svg`.
  public static let all: [String: Asset] = [
    "style.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css),
    "icon.svg": Asset(contentType: "image/svg+xml", bytes: PackageResources.icon_svg),
  ]

  /// The style sheet's text.
  static let styleSheet = String(decoding: PackageResources.style_css, as: UTF8.self)

  /// The `Content-Security-Policy` of served pages (<https://www.w3.org/TR/CSP3/>): nothing by
  /// default, so no script of any kind (inline or not); the style sheet and icon from the server
  /// itself; covers from the sources' `https` addresses; forms sent to the server only; no
  /// `<base>`; not shown inside another site's frame.
  public static let pagePolicy =
    "default-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self';"
    + " base-uri 'none'; frame-ancestors 'none'"

  /// The policy a file on its own carries in a `<meta>` element: its style sheet is inside it,
  /// covers from `https` addresses, still no script.
  static let filePolicy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src https:; base-uri 'none'"
}
