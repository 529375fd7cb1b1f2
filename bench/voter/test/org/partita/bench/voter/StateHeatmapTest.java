package org.partita.bench.voter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;

/** GetStateHeatmap and ContestantWinningStates over votes whose leaders the test knows. */
@Timeout(60)
class StateHeatmapTest {
  private long nextLine = 1_000;

  private Database open(int partitions) throws Exception {
    final Database db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("ddl.sql", Files.readString(Path.of("ddl.sql"))))), partitions);
    assertTrue(db.callSync("Initialize", 4, "Ann,Bob,Cy,Dee").ok());
    return db;
  }

  /** {@code count} accepted votes for {@code contestant} from distinct phones of {@code areaCode}. */
  private void votes(Database db, int areaCode, int contestant, int count) {
    for (int i = 0; i < count; i++) {
      final ClientResponse r = db.callSync("Vote", areaCode * 10_000_000L + nextLine++, contestant, 2L);
      assertTrue(r.ok(), r::toString);
      assertEquals(Vote.ACCEPTED, r.firstLong());
    }
  }

  /**
   * MA (617): Bob 3, Ann 1. NY (212): Ann 2, Cy 2 (a tie: Ann, the lower
   * number, leads). CA (213 and 310): Bob 5, Cy 1. TX (214): Cy 1.
   */
  private void castVotes(Database db) {
    votes(db, 617, 2, 3);
    votes(db, 617, 1, 1);
    votes(db, 212, 3, 2);
    votes(db, 212, 1, 2);
    votes(db, 213, 2, 3);
    votes(db, 310, 2, 2);
    votes(db, 310, 3, 1);
    votes(db, 214, 3, 1);
  }

  private static List<String> rows(ClientResponse r) {
    assertTrue(r.ok(), r::toString);
    final ResultTable t = r.results().get(0);
    assertEquals("STATE", t.columnName(0));
    final List<String> rows = new ArrayList<>();
    while (t.advanceRow()) {
      rows.add(t.getString(0) + " " + t.getLong(1) + " " + t.getLong(2) + "/" + t.getLong(3));
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldNameTheLeaderOfEveryStateWithItsVotesAndTheStateTotal(int partitions) throws Exception {
    try (Database db = open(partitions)) {
      castVotes(db);
      assertEquals(List.of("CA 2 5/6", "MA 2 3/4", "NY 1 2/4", "TX 3 1/1"), rows(db.callSync("GetStateHeatmap")));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldGiveAnEmptyHeatmapBeforeAnyVote(int partitions) throws Exception {
    try (Database db = open(partitions)) {
      assertEquals(List.of(), rows(db.callSync("GetStateHeatmap")));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldListTheStatesAContestantLeadsBestFirst(int partitions) throws Exception {
    try (Database db = open(partitions)) {
      castVotes(db);
      assertEquals(List.of("CA 2 5/6", "MA 2 3/4"), rows(db.callSync("ContestantWinningStates", 2, 10)));
      assertEquals(List.of("NY 1 2/4"), rows(db.callSync("ContestantWinningStates", 1, 10)));
      assertEquals(List.of("TX 3 1/1"), rows(db.callSync("ContestantWinningStates", 3, 10)));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldReturnAtMostMaxStates(int partitions) throws Exception {
    try (Database db = open(partitions)) {
      castVotes(db);
      assertEquals(List.of("CA 2 5/6"), rows(db.callSync("ContestantWinningStates", 2, 1)));
      assertEquals(List.of(), rows(db.callSync("ContestantWinningStates", 2, 0)));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldReturnNoStatesForAContestantWhoLeadsNowhere(int partitions) throws Exception {
    try (Database db = open(partitions)) {
      castVotes(db);
      assertEquals(List.of(), rows(db.callSync("ContestantWinningStates", 4, 10)));
      assertEquals(List.of(), rows(db.callSync("ContestantWinningStates", 99, 10)));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRejectANegativeMax(int partitions) throws Exception {
    try (Database db = open(partitions)) {
      final ClientResponse r = db.callSync("ContestantWinningStates", 2, -1);
      assertEquals(ClientResponse.Status.USER_ABORT, r.status(), r::toString);
      assertTrue(r.message().contains("max must be 0 or more, got -1"), r.message());
    }
  }
}
