package org.partita.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code partita} command line: {@code partita <subcommand> [options]}; see {@code --help}. */
@Command(name = "partita", mixinStandardHelpOptions = true, version = "Partita 0.1",
    description = "Partita: an in-memory, partitioned, ACID SQL database.",
    subcommands = {StartCommand.class, CompileCommand.class, SqlCommand.class, StopCommand.class, PasswdCommand.class,
        CommandLine.HelpCommand.class})
public final class PartitaCli implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.manager") == null) {
      System.setProperty("java.util.logging.manager", ShutdownSafeLogManager.class.getName());
    }
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$-7s %3$s: %5$s%6$s%n");
    }
    System.exit(new CommandLine(new PartitaCli()).execute(args));
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand (see partita --help)");
  }
}
