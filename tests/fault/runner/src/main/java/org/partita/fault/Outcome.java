package org.partita.fault;

/** What the history says of an operation's completion (tests/fault/README.md, "The history"). */
enum Outcome {
  /** It happened; the completion carries its result. */
  OK("ok"),
  /** It certainly did not happen. */
  FAIL("fail"),
  /** Unknown: it may or may not have happened. */
  INFO("info");

  private final String type;

  Outcome(String type) {
    this.type = type;
  }

  /** The history's {@code type} field. */
  String type() {
    return type;
  }
}
