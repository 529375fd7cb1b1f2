package org.partita.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class ClusterPageTest {
  @TempDir
  Path webRoot;

  private HttpFixture clusterHost() throws Exception {
    Files.writeString(webRoot.resolve("index.html"), "<h1>Voter</h1>");
    Files.createDirectories(webRoot.resolve("cluster"));
    Files.writeString(webRoot.resolve("cluster").resolve("mine.txt"), "the web root's");
    return new HttpFixture(webRoot, HttpApiLimits.DEFAULTS, true);
  }

  @Test
  void shouldServeThePageAndItsFilesOnAClusterHostBesideTheWebRoot() throws Exception {
    try (HttpFixture http = clusterHost()) {
      for (String path : new String[] {"/cluster", "/cluster/", "/cluster?view=figures"}) {
        final HttpResponse<String> page = http.get(path);
        assertEquals(200, page.statusCode(), path);
        assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElse(""), path);
        assertTrue(page.body().contains("<title>Partita cluster</title>"), path);
        assertEquals("no-store", page.headers().firstValue("Cache-Control").orElse(""));
      }
      final HttpResponse<String> script = http.get("/cluster/cluster.js");
      assertEquals(200, script.statusCode());
      assertEquals("text/javascript; charset=utf-8", script.headers().firstValue("Content-Type").orElse(""));
      assertTrue(script.body().contains("@Statistics"), "the page reads @Statistics CLUSTER");
      assertEquals("text/css; charset=utf-8", http.get("/cluster/cluster.css").headers().firstValue("Content-Type")
          .orElse(""));
      assertEquals("<h1>Voter</h1>", http.get("/").body(), "the web root still serves everything else");
    }
  }

  @Test
  void shouldAnswer404ForAnythingElseUnderThePageAnd405ForOtherMethods() throws Exception {
    try (HttpFixture http = clusterHost()) {
      for (String path : new String[] {"/cluster/mine.txt", "/cluster/missing.js", "/cluster/../index.html",
          "/cluster/%2e%2e/index.html", "/cluster/cluster.js/x", "/cluster//cluster.js"}) {
        final HttpResponse<String> r = http.get(path);
        assertEquals(404, r.statusCode(), path);
        assertEquals("NOT_FOUND", HttpFixture.json(r).get("errorName").asText(), path);
      }
      final HttpResponse<String> post = http.send(HttpRequest.newBuilder(http.uri("/cluster"))
          .POST(HttpRequest.BodyPublishers.ofString("x")));
      assertEquals(405, post.statusCode());
      assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
    }
  }

  @Test
  void shouldLeaveASingleServersPathsAlone() throws Exception {
    Files.createDirectories(webRoot.resolve("cluster"));
    Files.writeString(webRoot.resolve("cluster").resolve("index.html"), "a single server's own page");
    try (HttpFixture single = new HttpFixture(webRoot, HttpApiLimits.DEFAULTS);
         HttpFixture bare = new HttpFixture()) {
      assertEquals("a single server's own page", single.get("/cluster/").body());
      assertEquals(404, bare.get("/cluster").statusCode());
    }
  }
}
