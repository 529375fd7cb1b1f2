// TopologyFollower: keeps the client's routes on a cluster's current
// partition leaders after a failover (docs/cluster.md), and sends calls
// answered NOT_LEADER again at the new leaders.
//
//  - Every answer names the topology version its host knows. A version newer
//    than the one the router routes by makes the follower read
//    `@SystemCatalog PARTITIONS` once (once per version, on any connection
//    with room; a failed read lets the next newer answer try again, and the
//    calls waiting for it keep waiting) and route by its LEADER_HOST_ID
//    column; a leader host no connection reaches is connected to (its
//    LEADER_ADDRESS, or the address a login's topology gave).
//  - A call answered NOT_LEADER was not run, so it is sent again, at most
//    kMaxResends times; then its caller gets the NOT_LEADER answer. If the
//    answering host knows a newer topology, the call waits for that read. If
//    not (the leader's connection is down and the cluster has not failed
//    over yet, or the call went round-robin before the leader's connection
//    was up), it is sent again at once when its leader's connection is up,
//    else it waits until the client follows a newer topology or connects to
//    its leader, at most
//    `not_leader_wait` and never past its call timeout (then its caller
//    gets the NOT_LEADER answer).
//  - A routed call answered NOT_LEADER by a host whose topology is older
//    than the one the router routes by (that host has not followed the map
//    yet; hosts follow it some milliseconds apart, and the client may hear
//    of it first from another host) goes to its leader again at the next
//    tick, up to kMaxBehindWaits times and never past its call timeout
//    (then its caller gets the NOT_LEADER answer); these do not count
//    against kMaxResends.
//  - On a cluster, a single-partition call whose outcome is unknown (its
//    connection lost while it was in flight, or answered OUTCOME_UNKNOWN)
//    is sent again with the same session and handle (OutcomeUnknown); its
//    NOT_LEADER answers then keep it waiting until its deadline, not
//    kMaxResends. A call that timed out is not sent again.
//  - A waiting call holds no connection's room; a resend that finds no room
//    waits for the next tick (every kTick) rather than fail.
//
// Ownership: one per Client; holds the calls waiting to be sent again.
// Thread model: thread-safe; the hooks run on the calling thread (an I/O
// thread, or the ticker on the I/O context). mu_ guards the waiting calls
// and the timer's arming; no hook runs under it.
#ifndef PARTITA_CLIENT_SRC_TOPOLOGY_FOLLOWER_H_
#define PARTITA_CLIENT_SRC_TOPOLOGY_FOLLOWER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "asio.h"
#include "call_tracker.h"
#include "partita/client/response.h"
#include "partita/client/result.h"
#include "pending_call.h"
#include "router.h"

namespace partita::client {

class TopologyFollower final {
 public:
  static constexpr uint32_t kMaxResends = 2;
  // Waits (one tick each) for a host behind the client's topology, at most, per call: about 2.5 s.
  static constexpr uint32_t kMaxBehindWaits = 125;
  static constexpr std::chrono::milliseconds kTick{20};
  static constexpr std::chrono::milliseconds kUnknownFirstWait{50};
  static constexpr std::chrono::milliseconds kUnknownMaxWait{1000};

  struct Hooks {
    // Calls @SystemCatalog PARTITIONS on a connection with room; the
    // callback gets its outcome.
    std::function<void(std::function<void(Result<Response>)>)> read_partitions;
    // Sends `call` again on the connection the router chooses, or finishes it
    // with why it could not be sent. Returns false, leaving the call
    // untouched, only when the chosen connection has no room.
    std::function<bool(PendingCall& call)> resend;
    // Connects to these hosts ("address:port") in the background.
    std::function<void(std::vector<std::string>)> connect_hosts;
  };

  // REQUIRES: `router` and `tracker` outlive the follower.
  TopologyFollower(boost::asio::io_context& io, Router* router, CallTracker* tracker,
                   std::chrono::milliseconds not_leader_wait, Hooks hooks);
  TopologyFollower(const TopologyFollower&) = delete;
  TopologyFollower& operator=(const TopologyFollower&) = delete;

  // An answer (or a login) named topology `version`. Any thread.
  void VersionSeen(uint64_t version);
  // `call` was answered NOT_LEADER (`answer`) by a host knowing topology
  // `version`. Returns true iff it took the call (moved from it) to send it
  // again; false: deliver `answer`. Any thread.
  bool NotLeader(PendingCall& call, uint64_t version, Response& answer);
  // `call`'s outcome became unknown for `reason` (its connection was lost in
  // flight, or OUTCOME_UNKNOWN). On a cluster, a call routed to a partition
  // is taken (moved from) and sent again with its handle, to its partition's
  // leader, after kUnknownFirstWait doubling up to kUnknownMaxWait or as soon
  // as a newer topology is followed, until it is answered or its deadline
  // passes (then it ends with an OUTCOME_UNKNOWN answer): the servers run a
  // call of a session at most once. Returns false, leaving the call
  // untouched, for any other call or once closed. Any thread.
  bool OutcomeUnknown(PendingCall& call, const std::string& reason);
  // A connection logged in (its topology may be newer, and its host may
  // lead a waiting call's partition): sends again the calls whose topology
  // came or whose leader's connection is up now.
  void LoggedIn() { Wake(router_->topology_version(), /*or_leader_up=*/true); }
  // Finishes every waiting call with kClosed; later NotLeader calls return
  // false. Idempotent.
  void Close();

  // Reads a @SystemCatalog PARTITIONS table into `leaders` (index:
  // partition) and `version` (its TOPOLOGY_VERSION), and the leader
  // addresses it names (index: partition; empty when NULL). Returns an
  // error naming what is wrong, or empty: columns missing, a partition id
  // out of range or twice, a partition missing, a negative id.
  static std::string ParsePartitions(const ResultTable& table, std::vector<uint32_t>* leaders, uint64_t* version,
                                     std::vector<std::string>* addresses);

 private:
  struct Waiting {
    PendingCall call;
    Response answer;                 // the NOT_LEADER answer, delivered if the wait ends unresolved
    uint64_t until_version;          // sent again once the router routes by this version or newer
    PendingCall::Clock::time_point wake_at;  // sent again at this time whatever the version
  };

  void PartitionsRead(uint64_t asked, const Result<Response>& result);
  // Parks `call` until the router routes by `until_version`, at most the wait.
  void Park(PendingCall& call, Response& answer, uint64_t until_version);
  // Sends again every waiting call whose version came, and with
  // `or_leader_up` every one whose leader's connection is up.
  void Wake(uint64_t version, bool or_leader_up = false);
  // Sends again (or ends) `ready`; those that find no room wait for the next tick.
  void SendAgain(std::vector<Waiting> ready);
  // REQUIRES: mu_ held. Arms the ticker unless armed.
  void ArmLocked();
  void Tick();

  boost::asio::io_context& io_;
  Router* const router_;
  CallTracker* const tracker_;
  const std::chrono::milliseconds not_leader_wait_;
  const Hooks hooks_;
  std::atomic<uint64_t> reading_version_{0};  // the topology version whose leaders are being read

  std::mutex mu_;
  std::vector<Waiting> waiting_;  // guarded by mu_
  bool armed_ = false;            // guarded by mu_
  bool closed_ = false;           // guarded by mu_
  boost::asio::steady_timer ticker_;  // armed under mu_; its handler runs on the I/O context
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_TOPOLOGY_FOLLOWER_H_
