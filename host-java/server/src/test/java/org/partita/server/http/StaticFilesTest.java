package org.partita.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Static files from a web root, and every way out of it refused. */
@Timeout(30)
class StaticFilesTest {
  @TempDir
  Path dir;
  private Path root;
  private HttpFixture http;

  @BeforeEach
  void start() throws Exception {
    root = Files.createDirectory(dir.resolve("www"));
    Files.writeString(root.resolve("index.html"), "<h1>Partita</h1>");
    Files.writeString(root.resolve("app.js"), "let x = 1;");
    Files.writeString(root.resolve("style.css"), "h1 {}");
    Files.writeString(root.resolve("data.json"), "{}");
    Files.writeString(root.resolve("logo.svg"), "<svg/>");
    Files.write(root.resolve("chart.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    Files.writeString(root.resolve("notes.unknownext"), "?");
    Files.writeString(root.resolve(".hidden"), "secret");
    Files.createDirectory(root.resolve("sub"));
    Files.writeString(root.resolve("sub").resolve("index.html"), "sub index");
    Files.writeString(root.resolve("sub").resolve("a b+c.txt"), "spaces");
    Files.writeString(dir.resolve("secret.txt"), "outside");
    Files.createSymbolicLink(root.resolve("escape.txt"), dir.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("escape-dir"), dir);
    Files.createSymbolicLink(root.resolve("inside.txt"), root.resolve("app.js"));
    http = new HttpFixture(root, HttpApiLimits.DEFAULTS);
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
  }

  private void assertServed(String path, String contentType, String body) throws Exception {
    final HttpResponse<String> response = http.get(path);
    assertEquals(200, response.statusCode(), path);
    assertEquals(contentType, response.headers().firstValue("Content-Type").orElse(""), path);
    assertEquals(body, response.body(), path);
  }

  private void assertNotServed(String rawPath) throws Exception {
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("GET " + rawPath + " HTTP/1.1\r\nHost: x\r\n\r\n");
      final RawHttp.Response response = raw.read();
      assertEquals(404, response.status(), rawPath + " -> " + response.body());
      assertEquals("NOT_FOUND", HttpFixture.JSON.readTree(response.body()).get("errorName").textValue());
    }
  }

  @Test
  void shouldServeIndexForTheRoot() throws Exception {
    assertServed("/", "text/html; charset=utf-8", "<h1>Partita</h1>");
    assertServed("/sub/", "text/html; charset=utf-8", "sub index");
  }

  @Test
  void shouldServeFilesWithTheirContentTypes() throws Exception {
    assertServed("/app.js", "text/javascript; charset=utf-8", "let x = 1;");
    assertServed("/style.css", "text/css; charset=utf-8", "h1 {}");
    assertServed("/data.json", "application/json", "{}");
    assertServed("/logo.svg", "image/svg+xml", "<svg/>");
    assertServed("/notes.unknownext", "application/octet-stream", "?");
    final HttpResponse<byte[]> png = http.client().send(HttpRequest.newBuilder(http.uri("/chart.png")).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals("image/png", png.headers().firstValue("Content-Type").orElse(""));
    assertEquals(4, png.body().length);
  }

  @Test
  void shouldDecodePercentEncodedNames() throws Exception {
    assertServed("/sub/a%20b+c.txt", "text/plain; charset=utf-8", "spaces");
  }

  @Test
  void shouldServeSymlinksThatStayInsideTheRoot() throws Exception {
    assertServed("/inside.txt", "text/plain; charset=utf-8", "let x = 1;");
  }

  @Test
  void shouldAnswerHeadWithTheLengthButNoBody() throws Exception {
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("HEAD /app.js HTTP/1.1\r\nHost: x\r\n\r\nGET /style.css HTTP/1.1\r\nHost: x\r\n\r\n");
      final RawHttp.Response head = raw.readHead();
      assertEquals(200, head.status());
      assertEquals("10", head.header("Content-Length"));
      final RawHttp.Response next = raw.read();
      assertEquals(200, next.status());
      assertEquals("h1 {}", next.body());
    }
  }

  @Test
  void shouldRefuseTraversalOutOfTheRoot() throws Exception {
    assertNotServed("/../secret.txt");
    assertNotServed("/%2e%2e/secret.txt");
    assertNotServed("/%2E%2E%2Fsecret.txt");
    assertNotServed("/sub/../../secret.txt");
    assertNotServed("/sub/%2e%2e/%2e%2e/secret.txt");
    assertNotServed("/..%5csecret.txt");
    assertNotServed("/./index.html");
  }

  @Test
  void shouldRefuseAbsoluteAndEmptySegments() throws Exception {
    assertNotServed("//etc/passwd");
    assertNotServed("/%2fetc/passwd");
    assertNotServed("/sub//index.html");
  }

  @Test
  void shouldRefuseSymlinksOutOfTheRoot() throws Exception {
    assertNotServed("/escape.txt");
    assertNotServed("/escape-dir/secret.txt");
  }

  @Test
  void shouldRefuseHiddenFilesDirectoriesAndMissingFiles() throws Exception {
    assertNotServed("/.hidden");
    assertNotServed("/sub");
    assertNotServed("/missing.html");
    assertNotServed("/index.html%00.png");
    assertNotServed("/bad%zzescape");
  }

  @Test
  void shouldAnswer405ForWritesToFiles() throws Exception {
    final HttpResponse<String> response = http.post("/index.html", "application/json", "{}");
    assertEquals(405, response.statusCode());
    assertEquals("GET, HEAD", response.headers().firstValue("Allow").orElse(""));
  }

  @Test
  void shouldStillServeTheApiAndHealth() throws Exception {
    assertEquals(200, http.get("/health").statusCode());
    assertEquals(200, http.get("/api/1.0/?Procedure=X").statusCode());
  }

  @Test
  void shouldRefuseAWebRootThatIsNotADirectory() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new HttpApiServer(http.dispatcher, root.resolve("app.js")));
    assertEquals("web root " + root.resolve("app.js") + " is not a directory", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new HttpApiServer(http.dispatcher, dir.resolve("nope")));
  }
}
