// Votes in the Voter benchmark's schema (bench/voter) with the C++ client.
//
//   scripts/partita start --schema bench/voter/ddl.sql --classes bench/voter/target/classes
//   build/clients/cpp/voter_example 127.0.0.1:21212 10000
//
// Loads the contestants, casts one vote synchronously and N asynchronously,
// then prints the outcomes, the standings and the client's latency.
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <random>

#include "partita/client/client.h"

using partita::client::Client;
using partita::client::ClientConfig;
using partita::client::Response;
using partita::client::Result;

int main(int argc, char** argv) {
  const std::string server = argc > 1 ? argv[1] : "127.0.0.1:21212";
  const int votes = argc > 2 ? std::atoi(argv[2]) : 10'000;

  ClientConfig config;
  config.client_name = "voter-example";
  Client client(config);
  if (partita::client::Status s = client.Connect(server); !s.ok()) {
    std::cerr << "cannot connect to " << server << ": " << s.ToString() << "\n";
    return 1;
  }

  Result<Response> init = client.Call("Initialize", {6, "Edwina Burnam,Tabatha Gehling,Kelly Clauss,"
                                                        "Jessie Alloway,Alana Bregman,Jessie Eichman"});
  if (!init.ok() || !init->ok()) {
    std::cerr << "Initialize failed: " << (init.ok() ? init->ToString() : init.status().ToString()) << "\n";
    return 1;
  }

  // Vote(phone, contestant, maxVotes) answers 0 accepted, 1 invalid contestant, 2 over the limit.
  Result<Response> first = client.Call("Vote", {6175551234LL, 3, 2});
  if (first.ok() && first->ok()) std::cout << "first vote: " << first->results[0].GetInt64(0, 0) << "\n";

  std::atomic<int> outcomes[3] = {0, 0, 0};
  std::atomic<int> failed{0};
  std::mt19937_64 random(42);
  for (int i = 0; i < votes; ++i) {
    const int64_t phone = 2125550000LL + static_cast<int64_t>(random() % 10'000'000);
    const int contestant = 1 + static_cast<int>(random() % 6);
    client.CallAsync("Vote", {phone, contestant, 2}, [&](Result<Response> r) {
      if (!r.ok() || !r->ok()) {
        failed.fetch_add(1);
        return;
      }
      const int64_t code = r->results[0].GetInt64(0, 0);
      if (code >= 0 && code < 3) outcomes[code].fetch_add(1);
    });
  }
  client.Drain();
  std::cout << "accepted " << outcomes[0] << ", invalid contestant " << outcomes[1] << ", over the limit "
            << outcomes[2] << ", failed " << failed << "\n";

  Result<Response> results = client.Call("Results", {});
  if (results.ok() && results->ok()) {
    const auto& t = results->results[0];
    for (size_t r = 0; r < t.row_count(); ++r) {
      std::cout << "  " << t.GetString(r, 0) << " (#" << t.GetInt64(r, 1) << "): " << t.GetInt64(r, 2) << "\n";
    }
  }
  const partita::client::ClientStatistics stats = client.Statistics();
  std::cout << stats.calls << " calls; latency p50 " << stats.p50_us << " us, p99 " << stats.p99_us
            << " us, max " << stats.max_us << " us\n";
  return failed == 0 ? 0 : 1;
}
