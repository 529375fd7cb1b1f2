package org.partita.examples.voter;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The application's settings ({@code voter.*} in application.properties or
 * on the command line). Immutable.
 *
 * @param servers comma-separated host:port of the Partita servers (the JDBC URL uses the same list)
 * @param contestants how many contestants Initialize loads (1..12)
 * @param maxVotes votes allowed per phone number
 * @param burst votes the firehose sends per scheduled tick (each waits for a free slot of the client)
 * @param maxInFlight calls in flight per server connection of the firehose's client
 * @param durationSeconds seconds to vote before stopping by itself; 0 = until stopped
 * @param resultFile where the final summary is written as JSON when the run ends ("" = nowhere)
 */
@ConfigurationProperties("voter")
public record VoterProperties(@DefaultValue("127.0.0.1:21212") String servers, @DefaultValue("6") int contestants,
    @DefaultValue("2") long maxVotes, @DefaultValue("1000") int burst, @DefaultValue("4096") int maxInFlight,
    @DefaultValue("0") long durationSeconds, @DefaultValue("") String resultFile) {
  /** The contestants' names, in Initialize's order. */
  public static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman,Allie Rogalski,Nita Coster,Kurt Walser,Ericka Dieter,Loraine Nygren,Tania Mattioli";

  public VoterProperties {
    if (contestants < 1 || contestants > NAMES.split(",").length) {
      throw new IllegalArgumentException("voter.contestants must be between 1 and " + NAMES.split(",").length
          + ", got " + contestants);
    }
    if (burst < 1 || maxInFlight < 1 || maxVotes < 1 || durationSeconds < 0) {
      throw new IllegalArgumentException("voter.burst, voter.max-in-flight and voter.max-votes must be positive"
          + " and voter.duration-seconds not negative");
    }
  }
}
