package org.partita.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code partita} command line: {@code partita <subcommand> [options]}; see {@code --help}. */
@Command(name = "partita", mixinStandardHelpOptions = true, version = "Partita 0.1",
    description = "Partita: an in-memory, partitioned, ACID SQL database.",
    subcommands = {CompileCommand.class, CommandLine.HelpCommand.class})
public final class PartitaCli implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PartitaCli()).execute(args));
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand (see partita --help)");
  }
}
