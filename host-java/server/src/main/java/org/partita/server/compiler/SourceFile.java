package org.partita.server.compiler;

/** A DDL file's name (for error messages) and text. */
public record SourceFile(String name, String text) {}
