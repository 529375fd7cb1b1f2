package org.partita.fault;

import java.util.List;

/** The workloads by name. Stateless. */
final class Workloads {
  static final List<String> NAMES = List.of("register", "set", "dirty-read", "bank", "redundant-register");

  private Workloads() {
  }

  /**
   * A fresh workload for {@code hosts} hosts; an unknown name is an
   * IllegalArgumentException listing the known ones.
   */
  static Workload named(String name, int hosts) {
    return switch (name) {
      case "register" -> new RegisterWorkload();
      case "set" -> new SetWorkload(false, hosts > 1);
      case "dirty-read" -> new SetWorkload(true, hosts > 1);
      case "bank" -> new BankWorkload();
      case "redundant-register" -> new RedundantRegisterWorkload();
      default -> throw new IllegalArgumentException("unknown workload '" + name + "' (known: "
          + String.join(", ", NAMES) + ")");
    };
  }
}
