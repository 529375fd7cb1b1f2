package org.partita.server.procedure;

/** Lets the runtime (another package) bind a context into a procedure instance. */
public final class ProcedureBinding {
  private ProcedureBinding() {}

  public static void bind(Procedure procedure, ProcedureContext context) {
    procedure.bind(context);
  }
}
