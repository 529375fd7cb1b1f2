package org.partita.bench.voter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;

class VoterProceduresTest {
  private static long vote(Database db, long phone, int contestant) {
    final ClientResponse r = db.callSync("Vote", phone, contestant, 2L);
    assertTrue(r.ok(), r::toString);
    final ResultTable t = r.results().get(0);
    t.advanceRow();
    return t.getLong(0);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldCountAcceptedVotesInTheStandings(int partitions) throws Exception {
    final Path ddl = Path.of("ddl.sql");
    try (Database db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("ddl.sql", Files.readString(ddl)))), partitions)) {
      assertTrue(db.callSync("Initialize", 3, "Ann,Bob,Cy,Dee").ok());
      assertEquals(3L, scalar(db.callSync("Initialize", 3, "Ann,Bob,Cy,Dee")), "Initialize is idempotent");
      assertEquals(Vote.INVALID_CONTESTANT, vote(db, 6175550000L, 9));
      assertEquals(Vote.ACCEPTED, vote(db, 6175550000L, 1));
      assertEquals(Vote.ACCEPTED, vote(db, 6175550000L, 2));
      assertEquals(Vote.OVER_VOTE_LIMIT, vote(db, 6175550000L, 3));
      final Random random = new Random(7);
      final long[] accepted = new long[4];
      accepted[1] = 1;
      accepted[2] = 1;
      for (int i = 0; i < 2000; i++) {
        final long phone = AreaCodes.CODES[random.nextInt(AreaCodes.CODES.length)] * 10_000_000L
            + random.nextInt(100);
        final int contestant = 1 + random.nextInt(3);
        if (vote(db, phone, contestant) == Vote.ACCEPTED) {
          accepted[contestant]++;
        }
      }
      final ResultTable standings = db.callSync("Results").results().get(0);
      long previous = Long.MAX_VALUE;
      while (standings.advanceRow()) {
        final long votes = standings.getLong(2);
        assertEquals(accepted[(int) standings.getLong(1)], votes);
        assertTrue(votes <= previous, "most votes first");
        previous = votes;
      }
      assertEquals(3, standings.rowCount());
      final ClientResponse states = db.adHocSync(
          "SELECT COUNT(*) FROM votes v JOIN area_code_state a ON a.state = v.state");
      assertTrue(states.ok(), states::toString);
    }
  }

  private static long scalar(ClientResponse r) {
    final ResultTable t = r.results().get(0);
    t.advanceRow();
    return t.getLong(0);
  }
}
