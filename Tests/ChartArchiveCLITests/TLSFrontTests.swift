import Foundation
import Testing

/// nginx in front of `serve` as contrib/nginx/chart-archive-tls.conf sets it up: TLS with a
/// self-signed certificate made by the test, a per-client rate limit answered 429 with
/// `Retry-After`, and plain HTTP sent to HTTPS. The test runs its own nginx on 127.0.0.1 (never
/// the system's), with the configuration's ports, paths and rate replaced. Skipped, saying so,
/// where nginx, openssl or curl is not installed (`script/setup --test-tools` installs them).
struct TLSFrontTests {
  static let nginx = "/usr/sbin/nginx"
  static let openssl = "/usr/bin/openssl"
  static let curl = "/usr/bin/curl"

  /// The contrib configuration with the test's ports, certificate and a limit of 2 requests a
  /// second with bursts of 5 (the file's 20 and 40 would need hundreds of requests to reach).
  static func configuration(
    backend: UInt16, https: UInt16, http: UInt16, folder: TemporaryFolder
  ) throws -> String {
    var text = try String(
      contentsOf: packageRoot.appendingPathComponent("contrib/nginx/chart-archive-tls.conf"),
      encoding: .utf8)
    let path = folder.url.path
    for (from, to) in [
      ("server 127.0.0.1:6081;", "server 127.0.0.1:\(backend);"),
      ("listen 443 ssl http2;", "listen 127.0.0.1:\(https) ssl http2;"),
      ("  listen [::]:443 ssl http2;\n", ""), ("listen 80;", "listen 127.0.0.1:\(http);"),
      ("  listen [::]:80;\n", ""),
      ("/etc/ssl/certs/charts.example.org.pem", "\(path)/cert.pem"),
      ("/etc/ssl/private/charts.example.org.key", "\(path)/key.pem"),
      ("rate=20r/s", "rate=2r/s"), ("burst=40", "burst=5"),
    ] {
      #expect(text.contains(from), "the configuration no longer has \(from)")
      text = text.replacingOccurrences(of: from, with: to)
    }
    return """
      pid \(path)/nginx.pid;
      error_log \(path)/error.log;
      events { worker_connections 64; }
      http {
        access_log off;
        client_body_temp_path \(path)/body;
        proxy_temp_path \(path)/proxy;
        fastcgi_temp_path \(path)/fastcgi;
        uwsgi_temp_path \(path)/uwsgi;
        scgi_temp_path \(path)/scgi;
      \(text)
      }

      """
  }

  @Test(
    .enabled(
      if: isInstalled(nginx) && isInstalled(openssl) && isInstalled(curl),
      "nginx, openssl or curl is not installed (script/setup --test-tools installs them): TLS in front is not checked"
    ))
  func tlsAndARateLimitInFront() throws {
    let (archiveFolder, archive) = try sampleArchive()
    let server = try ServedArchive(["--db", archive])
    let folder = try TemporaryFolder()
    let path = folder.url.path
    let certificate = try bash(
      "\(Self.openssl) req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost"
        + " -addext subjectAltName=IP:127.0.0.1 -days 2 -keyout '\(path)/key.pem'"
        + " -out '\(path)/cert.pem'")
    try #require(certificate.status == 0, "\(certificate.error)")
    let https = try ReplicaCacheTests.freePort()
    let http = try ReplicaCacheTests.freePort()
    _ = try folder.write(
      "nginx.conf",
      try Self.configuration(backend: server.port, https: https, http: http, folder: folder))
    let nginx = "\(Self.nginx) -c '\(path)/nginx.conf' -p '\(path)'"
    let started = runDaemonCommand(nginx, log: path + "/start.log")
    try #require(
      started == 0,
      "\((try? String(contentsOfFile: path + "/start.log", encoding: .utf8)) ?? "")")
    defer { _ = runDaemonCommand(nginx + " -s stop", log: "/dev/null") }

    // The certificate is checked, and the answer is serve's, byte for byte.
    let curl = "\(Self.curl) -s --cacert '\(path)/cert.pem'"
    let feed = try bash("\(curl) https://127.0.0.1:\(https)/api/feed/daily")
    #expect(feed.status == 0)
    #expect(Array(feed.output.utf8) == (try server.get("/api/feed/daily")).body)
    // 1 + 5 requests at once are answered, the rest 429 with Retry-After until a request's time
    // (0.5 s) has passed.
    // One curl, one connection: each address with its own `-o /dev/null`.
    let urls = Array(repeating: "-o /dev/null https://127.0.0.1:\(https)/api/charts", count: 12)
    let statuses = try bash("\(curl) -w '%{http_code}\\n' " + urls.joined(separator: " "))
    let codes = statuses.output.split(separator: "\n")
    #expect(codes.count == 12)
    #expect(codes.filter { $0 == "429" }.count >= 5, "\(codes)")
    #expect(codes.prefix(5).allSatisfy { $0 == "200" }, "\(codes)")
    let limited = try bash("\(curl) -D - -o /dev/null https://127.0.0.1:\(https)/api/charts")
    #expect(limited.output.hasPrefix("HTTP/2 429"), "\(limited.output)")
    #expect(limited.output.lowercased().contains("retry-after: 1\r\n"))
    // Plain HTTP is sent to HTTPS.
    let plain = try bash(
      "\(Self.curl) -s -o /dev/null -w '%{http_code} %{redirect_url}'"
        + " http://127.0.0.1:\(http)/api/health")
    #expect(plain.output == "301 https://127.0.0.1/api/health")
    withExtendedLifetime((archiveFolder, server)) {}
  }
}
