package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.planner.PlanningException;

class AdHocPlansTest {
  private static CompiledCatalog catalog() throws Exception {
    return new CatalogCompiler(AdHocPlansTest.class.getClassLoader())
        .compile(List.of(new SourceFile("t.sql", "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v BIGINT);")));
  }

  @Test
  void shouldPlanEachStatementOncePerCatalog() throws Exception {
    final AdHocPlans plans = new AdHocPlans();
    final CompiledCatalog first = catalog();
    final ExecutableStatement planned = plans.plan("SELECT v FROM t WHERE id = ?", first);
    assertSame(planned, plans.plan("SELECT v FROM t WHERE id = ?", first));
    assertNotSame(planned, plans.plan("SELECT v FROM t WHERE id = ?", catalog()), "a new catalog plans again");
  }

  @Test
  void shouldNotKeepStatementsThatFailToPlan() throws Exception {
    final AdHocPlans plans = new AdHocPlans();
    assertThrows(PlanningException.class, () -> plans.plan("SELECT nope FROM t", catalog()));
    assertEquals(0, plans.size());
  }

  @Test
  void shouldKeepAtMostItsCapacity() throws Exception {
    final AdHocPlans plans = new AdHocPlans();
    final CompiledCatalog c = catalog();
    for (int i = 0; i < AdHocPlans.CAPACITY + 10; i++) {
      plans.plan("SELECT v + " + i + " FROM t", c);
    }
    assertEquals(AdHocPlans.CAPACITY, plans.size());
  }
}
