package org.partita.fault;

import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * A kind of fault: {@link #inject} breaks something and says what it
 * targets; {@link #heal} repairs exactly that (restarting what was killed,
 * resuming what was paused) and returns when the hosts answer again.
 * Each fault gets its own instance; the target is passed back to heal.
 */
interface Nemesis {
  /** The name in --nemesis and in the history. */
  String name();

  /** Breaks something; returns the hosts it hit. */
  List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException;

  /** Repairs what {@link #inject} broke on {@code targets}. */
  void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException;

  /** What the fault did beyond its target hosts, for the history (empty when nothing more). */
  default String detail() {
    return "";
  }
}
