#include "topology_follower.h"

#include <algorithm>
#include <iostream>
#include <unordered_set>

namespace partita::client {
namespace {

bool IsInteger(ValueType type) {
  return static_cast<uint32_t>(type) >= static_cast<uint32_t>(ValueType::kTinyInt) &&
         static_cast<uint32_t>(type) <= static_cast<uint32_t>(ValueType::kBigInt);
}

}  // namespace

TopologyFollower::TopologyFollower(boost::asio::io_context& io, Router* router, CallTracker* tracker,
                                   std::chrono::milliseconds not_leader_wait, Hooks hooks)
    : io_(io),
      router_(router),
      tracker_(tracker),
      not_leader_wait_(not_leader_wait),
      hooks_(std::move(hooks)),
      ticker_(io) {}

void TopologyFollower::VersionSeen(uint64_t version) {
  if (version <= router_->topology_version()) return;
  uint64_t reading = reading_version_.load();
  do {
    if (version <= reading) return;
  } while (!reading_version_.compare_exchange_weak(reading, version));
  // Posted, not called: this runs while a connection is delivering an answer.
  boost::asio::post(io_, [this, version] {
    hooks_.read_partitions([this, version](Result<Response> r) { PartitionsRead(version, r); });
  });
}

void TopologyFollower::PartitionsRead(uint64_t asked, const Result<Response>& result) {
  std::vector<uint32_t> leaders;
  std::vector<std::string> addresses;
  uint64_t version = 0;
  std::string error;
  if (!result.ok()) {
    error = result.status().ToString();
  } else if (!result->ok() || result->results.empty()) {
    error = result->ToString();
  } else {
    error = ParsePartitions(result->results[0], &leaders, &version, &addresses);
  }
  if (error.empty()) {
    router_->FollowLeaders(leaders, version);
  } else {
    std::cerr << "partita client: keeping the partition leaders of topology " << router_->topology_version()
              << ": @SystemCatalog PARTITIONS: " << error << "\n";
  }
  if (router_->topology_version() < asked) {
    // Not followed (a failed read, or a host answering with an older map): the next newer answer tries again.
    uint64_t expected = asked;
    reading_version_.compare_exchange_strong(expected, router_->topology_version());
  }
  std::vector<std::string> unknown;
  std::unordered_set<uint32_t> seen;
  for (size_t p = 0; p < leaders.size(); ++p) {
    if (!seen.insert(leaders[p]).second || router_->ConnectedToHost(leaders[p])) continue;
    std::string address = addresses[p].empty() ? router_->HostAddress(leaders[p]) : addresses[p];
    if (!address.empty()) unknown.push_back(std::move(address));
  }
  if (!unknown.empty() && hooks_.connect_hosts) hooks_.connect_hosts(std::move(unknown));
  // After a failed read the calls keep waiting: for the read the next newer answer starts, or their wait's end.
  if (error.empty()) Wake(std::max(asked, router_->topology_version()));
}

bool TopologyFollower::OutcomeUnknown(PendingCall& call, const std::string& reason) {
  if (call.unknown_reason.empty()) {
    if (router_->HostCount() < 2) return false;
    // Procedures the servers de-duplicate: routed single-partition calls and multi-partition procedures.
    if (router_->PartitionOf(call.procedure, call.params) < 0 && !router_->IsMultiPartitionProcedure(call.procedure)) {
      return false;
    }
    call.unknown_reason = reason;
  }
  const auto now = PendingCall::Clock::now();
  const auto wait = std::min<std::chrono::milliseconds>(
      kUnknownMaxWait, kUnknownFirstWait * (1u << std::min<uint32_t>(call.unknown_resends, 5)));
  ++call.unknown_resends;
  Response answer = OutcomeUnknownAnswer(call);
  const auto wake_at = std::min<PendingCall::Clock::time_point>(now + wait, call.deadline);
  const uint64_t until_version = router_->topology_version() + 1;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return false;
    waiting_.push_back(Waiting{std::move(call), std::move(answer), until_version, wake_at});
    ArmLocked();
  }
  return true;
}

bool TopologyFollower::NotLeader(PendingCall& call, uint64_t version, Response& answer) {
  if (!call.unknown_reason.empty()) {
    // Not run there; the first sending may have run: keep looking for the leader until the deadline.
    if (version > router_->topology_version()) VersionSeen(version);
    return OutcomeUnknown(call, call.unknown_reason);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return false;
  }
  const uint64_t routed_by = router_->topology_version();
  if (version < routed_by && call.behind_waits < kMaxBehindWaits &&
      router_->PartitionOf(call.procedure, call.params) >= 0) {
    // The host has not followed the topology this client routes by yet (hosts follow a new map some milliseconds
    // apart): it will, so the call goes to the leader again at the next tick, not counted against kMaxResends.
    ++call.behind_waits;
    Park(call, answer, 0);
    return true;
  }
  if (call.not_leader_resends >= kMaxResends) return false;
  ++call.not_leader_resends;
  if (version > routed_by) {
    VersionSeen(version);
    Park(call, answer, version);
    return true;
  }
  // The answering host knows no newer map than ours: the leader's connection was not up when the call was sent.
  if (router_->Choose(call.procedure, call.params).to_leader) {
    if (!hooks_.resend(call)) Park(call, answer, 0);  // no room: the next tick sends it
    return true;
  }
  Park(call, answer, routed_by + 1);
  return true;
}

void TopologyFollower::Park(PendingCall& call, Response& answer, uint64_t until_version) {
  const auto now = PendingCall::Clock::now();  // only for a call answered NOT_LEADER
  const auto wake_at = until_version == 0 ? now : std::min(now + not_leader_wait_, call.deadline);
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (closed_) {  // closed since NotLeader looked
      lock.unlock();
      tracker_->Finish(call, std::move(answer));
      return;
    }
    waiting_.push_back(Waiting{std::move(call), std::move(answer), until_version, wake_at});
    ArmLocked();
  }
  // A read that completed while this call was on its way here would not wake it: look now.
  Wake(router_->topology_version());
}

void TopologyFollower::Wake(uint64_t version, bool or_leader_up) {
  std::vector<Waiting> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return;
    for (size_t i = 0; i < waiting_.size();) {
      const Waiting& w = waiting_[i];
      const bool due = w.until_version != 0 && (w.until_version <= version ||
                                                (or_leader_up && router_->Choose(w.call.procedure, w.call.params).to_leader));
      if (due) {
        ready.push_back(std::move(waiting_[i]));
        waiting_[i] = std::move(waiting_.back());
        waiting_.pop_back();
      } else {
        ++i;
      }
    }
  }
  SendAgain(std::move(ready));
}

void TopologyFollower::SendAgain(std::vector<Waiting> ready) {
  const auto now = ready.empty() ? PendingCall::Clock::time_point{} : PendingCall::Clock::now();
  std::vector<Waiting> no_room;
  for (Waiting& w : ready) {
    if (w.call.deadline <= now) {
      tracker_->Finish(w.call, std::move(w.answer));  // not run, and out of time
    } else if (!hooks_.resend(w.call)) {
      w.until_version = 0;
      w.wake_at = now;
      no_room.push_back(std::move(w));
    }
  }
  if (no_room.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  for (Waiting& w : no_room) {
    if (closed_ && !w.call.unknown_reason.empty()) {
      tracker_->Finish(w.call, std::move(w.answer));  // OUTCOME_UNKNOWN: an earlier sending may have run
    } else if (closed_) {
      tracker_->Finish(w.call, Status(Status::Code::kClosed, "the client was closed; the call to " +
                                                                 w.call.procedure + " was not sent"));
    } else {
      waiting_.push_back(std::move(w));
    }
  }
  if (!closed_) ArmLocked();
}

void TopologyFollower::ArmLocked() {
  if (armed_ || closed_ || waiting_.empty()) return;
  armed_ = true;
  ticker_.expires_after(kTick);
  ticker_.async_wait([this](boost::system::error_code ec) {
    if (!ec) Tick();
  });
}

void TopologyFollower::Tick() {
  const auto now = PendingCall::Clock::now();
  std::vector<Waiting> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = false;
    if (closed_) return;
    for (size_t i = 0; i < waiting_.size();) {
      if (waiting_[i].wake_at <= now) {
        ready.push_back(std::move(waiting_[i]));
        waiting_[i] = std::move(waiting_.back());
        waiting_.pop_back();
      } else {
        ++i;
      }
    }
    ArmLocked();
  }
  SendAgain(std::move(ready));
}

void TopologyFollower::Close() {
  std::vector<Waiting> waiting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    waiting.swap(waiting_);
  }
  for (Waiting& w : waiting) {
    if (!w.call.unknown_reason.empty()) {
      tracker_->Finish(w.call, std::move(w.answer));  // OUTCOME_UNKNOWN: an earlier sending may have run
      continue;
    }
    tracker_->Finish(w.call, Status(Status::Code::kClosed, "the client was closed; the call to " + w.call.procedure +
                                                               " (answered NOT_LEADER) was not sent again"));
  }
}

std::string TopologyFollower::ParsePartitions(const ResultTable& table, std::vector<uint32_t>* leaders,
                                              uint64_t* version, std::vector<std::string>* addresses) {
  const int id = table.ColumnIndex("PARTITION_ID");
  const int leader = table.ColumnIndex("LEADER_HOST_ID");
  const int address = table.ColumnIndex("LEADER_ADDRESS");
  const int topology = table.ColumnIndex("TOPOLOGY_VERSION");
  if (id < 0 || leader < 0 || topology < 0) {
    return "the table lacks PARTITION_ID, LEADER_HOST_ID or TOPOLOGY_VERSION";
  }
  if (!IsInteger(table.column_type(id)) || !IsInteger(table.column_type(leader)) ||
      !IsInteger(table.column_type(topology)) || (address >= 0 && table.column_type(address) != ValueType::kVarchar)) {
    return "a column of the table has an unexpected type";
  }
  const size_t count = table.row_count();
  leaders->assign(count, 0);
  addresses->assign(count, std::string());
  std::vector<bool> filled(count, false);
  *version = 0;
  for (size_t r = 0; r < count; ++r) {
    if (table.IsNull(r, id) || table.IsNull(r, leader) || table.IsNull(r, topology)) {
      return "row " + std::to_string(r) + " has a NULL partition, leader or version";
    }
    const int64_t p = table.GetInt64(r, id);
    const int64_t host = table.GetInt64(r, leader);
    if (p < 0 || static_cast<uint64_t>(p) >= count || filled[p]) {
      return "row " + std::to_string(r) + " names partition " + std::to_string(p) + " in a table of " +
             std::to_string(count) + " (out of range or twice)";
    }
    if (host < 0 || host > UINT32_MAX) return "row " + std::to_string(r) + " names leader host " + std::to_string(host);
    filled[p] = true;
    (*leaders)[p] = static_cast<uint32_t>(host);
    if (address >= 0 && !table.IsNull(r, address)) (*addresses)[p] = std::string(table.GetString(r, address));
    *version = std::max<uint64_t>(*version, static_cast<uint64_t>(std::max<int64_t>(table.GetInt64(r, topology), 0)));
  }
  return std::string();
}

}  // namespace partita::client
