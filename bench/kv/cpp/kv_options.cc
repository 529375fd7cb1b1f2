#include "kv_options.h"

#include "key_space.h"
#include "text_format.h"
#include "value_factory.h"

namespace partita::bench::kv {

ParseOutcome KvOptions::Parse(int argc, const char* const* argv, KvOptions* o) {
  OptionParser parser("kv_driver",
                      "Key-value workload driver: Get/Put of binary values by key against Partita servers running "
                      "bench/kv/ddl.sql.\nExit code: 0 = consistent, 1 = a key did not hold the last value written "
                      "or the run failed, 2 = bad options.");
  parser.AddList("--servers", "HOST:PORT[,...]", "servers to connect to", &o->servers);
  parser.AddDouble("--duration", "SECONDS", "measured time", &o->duration_s);
  parser.AddDouble("--warmup", "SECONDS", "load before measuring", &o->warmup_s);
  parser.AddChoice("--mode", {"async", "sync"},
                   "async: one thread, calls in flight up to the client's bound; sync: --threads threads, one call "
                   "each at a time",
                   &o->mode);
  parser.AddInt("--threads", "N", "threads in sync mode", &o->threads);
  parser.AddInt("--ratelimit", "OPS/S",
                "operations per second; 0 = as fast as possible. Async: call n goes at start + n/rate and its "
                "latency counts from then; sync: the client's rate limit",
                &o->ratelimit);
  parser.AddDouble("--display-interval", "SECONDS", "seconds between progress lines", &o->display_interval_s);
  parser.AddString("--json", "FILE", "also write the result as JSON to FILE", &o->json);
  parser.AddInt("--preload", "N", "keys written before the run; operations choose among them", &o->preload);
  parser.AddDouble("--get-ratio", "R", "share of Gets, the rest are Puts", &o->get_ratio);
  parser.AddInt("--key-size", "CHARS", "key width: \"k\" and zero-padded digits, at most 32", &o->key_size);
  parser.AddInt("--value-size", "BYTES", "value size, 8 to 1048576", &o->value_size);
  parser.AddChoice("--keys", {"uniform", "zipf"}, "key choice: uniform, or zipf with exponent 0.99", &o->keys);
  parser.AddInt("--verify-sample", "N", "random keys verified at the end, besides every key written in the last second",
                &o->verify_sample);
  parser.AddInt("--seed", "N", "random seed of keys, operations and values", &o->seed);
  parser.AddChoice("--partition-pauses", {"off", "report"},
                   "report: print each partition's longest pause between successful operations and when it ended "
                   "(a failover as the driver sees it)",
                   &o->partition_pauses);
  ParseOutcome outcome = parser.Parse(argc, argv);
  if (outcome.kind == ParseOutcome::Kind::kHelp) outcome.message = parser.Usage();
  if (outcome.kind != ParseOutcome::Kind::kRun) return outcome;
  if (std::string error = o->Check(); !error.empty()) return {ParseOutcome::Kind::kError, error};
  return outcome;
}

std::string KvOptions::Check() const {
  if (servers.empty()) return "--servers needs at least one host:port";
  if (!(duration_s > 0)) return "--duration must be positive, got " + Shortest(duration_s);
  if (!(warmup_s >= 0)) return "--warmup must not be negative, got " + Shortest(warmup_s);
  if (threads < 1) return "--threads must be at least 1, got " + std::to_string(threads);
  if (ratelimit < 0) return "--ratelimit must be 0 (none) or positive, got " + std::to_string(ratelimit);
  if (!(display_interval_s > 0)) return "--display-interval must be positive, got " + Shortest(display_interval_s);
  if (!(get_ratio >= 0 && get_ratio <= 1)) return "--get-ratio must be between 0 and 1, got " + Shortest(get_ratio);
  if (verify_sample < 0) return "--verify-sample must not be negative, got " + std::to_string(verify_sample);
  if (std::string error = KeySpace::Check(preload, key_size); !error.empty()) return error;
  return ValueFactory::Check(value_size);
}

}  // namespace partita::bench::kv
