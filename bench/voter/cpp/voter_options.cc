#include "voter_options.h"

#include "text_format.h"

namespace partita::bench::voter {

ParseOutcome VoterOptions::Parse(int argc, const char* const* argv, VoterOptions* o) {
  OptionParser parser("voter_driver",
                      "Run the Voter benchmark against Partita servers with the Voter schema (bench/voter/ddl.sql).\n"
                      "Exit codes: 0 consistent, 1 consistency check failed, 2 bad options, 3 could not run.");
  parser.AddList("--servers", "HOST:PORT,...", "servers to connect to, comma-separated", &o->servers);
  parser.AddDouble("--duration", "S", "measured seconds", &o->duration_s);
  parser.AddDouble("--warmup", "S", "seconds of warm-up before measuring, not counted in the figures", &o->warmup_s);
  parser.AddChoice("--mode", {"async", "sync"},
                   "async: one thread, asynchronous calls; sync: --threads threads, one synchronous call at a time each",
                   &o->mode);
  parser.AddInt("--threads", "N", "calling threads in sync mode", &o->threads);
  parser.AddInt("--ratelimit", "CALLS/S",
                "calls per second, 0 = as fast as possible (async: call n at start + n/rate; sync: each thread "
                "paced at rate/threads)",
                &o->ratelimit);
  parser.AddInt("--contestants", "N", "contestants", &o->contestants);
  parser.AddInt("--maxvotes", "N", "votes allowed per phone number", &o->maxvotes);
  parser.AddDouble("--display-interval", "S", "seconds between progress lines", &o->display_interval_s);
  parser.AddString("--json", "FILE", "also write the result as one JSON object to FILE", &o->json);
  ParseOutcome outcome = parser.Parse(argc, argv);
  if (outcome.kind == ParseOutcome::Kind::kHelp) outcome.message = parser.Usage();
  if (outcome.kind != ParseOutcome::Kind::kRun) return outcome;
  if (std::string error = o->Check(); !error.empty()) return {ParseOutcome::Kind::kError, error};
  return outcome;
}

std::string VoterOptions::Check() const {
  const auto number = [](double v) { return Shortest(v); };
  if (servers.empty()) return "--servers needs host:port values";
  if (!(duration_s > 0)) return "--duration must be more than 0 seconds, got " + number(duration_s);
  if (!(warmup_s >= 0)) return "--warmup must be 0 or more seconds, got " + number(warmup_s);
  if (threads < 1) return "--threads must be at least 1, got " + std::to_string(threads);
  if (ratelimit < 0) return "--ratelimit must be 0 (none) or more calls/s, got " + std::to_string(ratelimit);
  if (contestants < 1 || contestants > kMaxContestants) {
    return "--contestants must be between 1 and " + std::to_string(kMaxContestants) + ", got " +
           std::to_string(contestants);
  }
  if (maxvotes < 1) return "--maxvotes must be at least 1, got " + std::to_string(maxvotes);
  if (!(display_interval_s > 0)) {
    return "--display-interval must be more than 0 seconds, got " + number(display_interval_s);
  }
  return "";
}

}  // namespace partita::bench::voter
