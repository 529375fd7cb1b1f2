package org.partita.sqllogictest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The {@link SqlTargetFactory}s on the class path, by name. Immutable. */
public final class TargetRegistry {

  private final List<SqlTargetFactory> factories;

  /** A registry of exactly {@code factories}. */
  public TargetRegistry(List<SqlTargetFactory> factories) {
    this.factories = List.copyOf(factories);
  }

  /** The factories that {@link ServiceLoader} finds through {@code classLoader}. */
  public static TargetRegistry load(ClassLoader classLoader) {
    final List<SqlTargetFactory> found = new ArrayList<>();
    ServiceLoader.load(SqlTargetFactory.class, classLoader).forEach(found::add);
    return new TargetRegistry(found);
  }

  /** Returns the factory named {@code name}, or empty when none has that name. */
  public Optional<SqlTargetFactory> find(String name) {
    return factories.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** Every registered factory, in discovery order. */
  public List<SqlTargetFactory> factories() {
    return factories;
  }
}
