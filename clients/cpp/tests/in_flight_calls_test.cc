// InFlightCalls against a std::map model: adds, takes, expiries and
// take-all in a seeded random order, with enough calls to grow the table
// and handles that share home slots.
#include "in_flight_calls.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace partita::client {
namespace {

using Clock = PendingCall::Clock;

PendingCall Call(uint64_t handle, Clock::time_point deadline) {
  PendingCall call;
  call.handle = handle;
  call.procedure = "P" + std::to_string(handle);
  call.deadline = deadline;
  return call;
}

TEST(InFlightCallsTest, TakesWhatWasAddedAndNothingElse) {
  InFlightCalls calls;
  const auto t = Clock::now();
  calls.Add(Call(7, t));
  calls.Add(Call(8, t));
  PendingCall out;
  EXPECT_FALSE(calls.Take(9, &out));
  ASSERT_TRUE(calls.Take(8, &out));
  EXPECT_EQ(out.procedure, "P8");
  EXPECT_FALSE(calls.Take(8, &out));
  EXPECT_EQ(calls.size(), 1u);
}

TEST(InFlightCallsTest, MatchesAMapThroughRandomAddsTakesAndExpiries) {
  std::mt19937_64 random(20261124);
  InFlightCalls calls;
  std::map<uint64_t, Clock::time_point> model;
  const auto t0 = Clock::now();
  uint64_t next = 1;
  for (int step = 0; step < 200000; ++step) {
    const int what = static_cast<int>(random() % 100);
    if (what < 55 || model.empty()) {
      // Consecutive handles, and now and then a far one (a resent call keeps an old handle).
      const uint64_t handle = random() % 10 == 0 ? (random() | 1) : next++;
      if (model.count(handle) != 0) continue;
      const auto deadline = t0 + std::chrono::milliseconds(random() % 1000);
      calls.Add(Call(handle, deadline));
      model[handle] = deadline;
    } else if (what < 97) {
      auto it = model.begin();
      std::advance(it, static_cast<long>(random() % model.size()));
      PendingCall out;
      ASSERT_TRUE(calls.Take(it->first, &out)) << "handle " << it->first << " at step " << step;
      ASSERT_EQ(out.handle, it->first);
      ASSERT_EQ(out.deadline, it->second);
      model.erase(it);
      ASSERT_FALSE(calls.Take(out.handle, &out));
    } else {
      const auto now = t0 + std::chrono::milliseconds(random() % 1000);
      std::vector<PendingCall> expired;
      calls.TakeExpired(now, &expired);
      size_t expected = 0;
      for (auto it = model.begin(); it != model.end();) {
        if (it->second <= now) {
          ++expected;
          it = model.erase(it);
        } else {
          ++it;
        }
      }
      ASSERT_EQ(expired.size(), expected) << "at step " << step;
      for (const PendingCall& call : expired) ASSERT_LE(call.deadline, now);
    }
    ASSERT_EQ(calls.size(), model.size());
  }
  std::vector<PendingCall> rest;
  calls.TakeAll(&rest);
  EXPECT_EQ(rest.size(), model.size());
  EXPECT_TRUE(calls.empty());
  for (const auto& [handle, deadline] : model) {
    PendingCall out;
    EXPECT_FALSE(calls.Take(handle, &out));
  }
}

}  // namespace
}  // namespace partita::client
