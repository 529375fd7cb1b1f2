// Router: chooses the connection for each call. A single-partition
// procedure's call goes to the connection of the host leading the partition
// its partitioning parameter hashes to (docs/partition-hash.md); every other
// call, and any call whose partition or leader connection is unknown, goes
// round-robin to a connection that is up. Routing is an optimisation: the
// server always computes the partition itself.
//
// Ownership: holds shared references to the client's connections.
// Thread model: Choose() reads an immutable snapshot, holding snapshot_mu_
// only to copy its pointer; updates (logins, newer partition leaders,
// connections going up or down) are serialized by mu_ and publish a new
// snapshot. topology_version() is a lock-free read (every answer asks it).
#ifndef PARTITA_CLIENT_SRC_ROUTER_H_
#define PARTITA_CLIENT_SRC_ROUTER_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "partita/client/param.h"

#include "partita/client/result_table.h"

namespace partita::client {

class Connection;
class LoginResponse;
class Topology;

class Router final {
 public:
  struct Choice {
    std::shared_ptr<Connection> connection;  // null when no connection is up
    uint32_t routed_partition_plus_one = 0;  // 0 = not routed
    bool to_leader = false;                  // the connection reaches the partition's leader
  };

  Router();

  Choice Choose(std::string_view procedure, const std::vector<Param>& params);

  // The bucket of a value of column type number `type`, kNullValue for NULL
  // (which always routes to partition 0), or kUnroutable when the client
  // cannot compute it (the server will).
  static int BucketOf(const Param& value, uint32_t type);
  static constexpr int kUnroutable = -1;
  static constexpr int kNullValue = -2;

  // The partition (of `count`) a value routes to with the default bucket
  // table (bucket mod count), or -1 when the client cannot compute it.
  static int PartitionOf(const Param& value, uint32_t type, uint32_t count);

  // The topology's bucket -> partition table (docs/partition-hash.md):
  // bucket mod partition_count when the server sent none, empty when an
  // entry names no partition of the topology or the count is 0 (then calls
  // are not routed; the server routes them).
  static std::vector<uint32_t> BucketTable(const Topology& topology);

  // The partition a call would be routed to, or -1 when it is not routed
  // (multi-partition or system procedure, unknown route or value).
  int PartitionOf(std::string_view procedure, const std::vector<Param>& params) const;
  // True when `procedure` is a multi-partition procedure of the routes this
  // client knows (not a system procedure): the servers run such a call of a
  // session at most once, so it may be sent again (docs/cluster.md,
  // "Client de-duplication").
  bool IsMultiPartitionProcedure(std::string_view procedure) const;

  void Add(std::shared_ptr<Connection> connection);
  void Remove(const Connection* connection);
  // A connection logged in: its topology and routes become the client's,
  // except that leaders of an older topology than the one routed by (a host
  // that has not followed a failover yet) do not replace newer ones.
  void LoggedIn(const LoginResponse& login);
  // The version of the topology calls are routed by (0 before any login).
  uint64_t topology_version() const { return topology_version_.load(std::memory_order_acquire); }
  // Routes by `leaders` (index: partition; value: leader host id) of
  // topology `version` from now on. Returns true iff they were taken: the
  // version is newer than the one routed by and names as many partitions
  // (a failover moves leaders; the bucket table stays). A leader whose
  // connection is down waiting out its reconnection backoff is dialled at
  // once (Connection::ReconnectNow).
  bool FollowLeaders(std::vector<uint32_t> leaders, uint64_t version);
  // The client address ("host:port") a login's topology gave for
  // `host_id`, or empty when no login named it.
  std::string HostAddress(uint32_t host_id) const;
  // How many hosts the logins' topologies named (1 for a single server).
  size_t HostCount() const;
  // The catalog version the routes belong to.
  uint64_t catalog_version() const;
  // Replaces the routes with those of a @SystemCatalog PROCEDURES table
  // (PROCEDURE_NAME, SINGLE_PARTITION, PARTITION_PARAMETER, PARTITION_TYPE)
  // read at catalog `version`, unless newer routes are already in place.
  // Returns false, changing nothing, when the table lacks those columns.
  bool UpdateRoutes(uint64_t version, const ResultTable& procedures);
  // Recomputes which connections are up and which host each reaches.
  void Rebuild();
  std::vector<std::string> ConnectedServers() const;
  // Whether a connection that is up reaches host `host_id`.
  bool ConnectedToHost(uint32_t host_id) const;

 private:
  struct Route {
    bool single_partition = false;
    uint32_t parameter = 0;
    uint32_t type = 0;
  };
  // Procedure names match ignoring ASCII case.
  struct NoCaseHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const;
  };
  struct NoCaseEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const;
  };
  struct Snapshot {
    std::vector<std::shared_ptr<Connection>> up;
    std::vector<std::shared_ptr<Connection>> by_host;  // index: host id
    std::vector<uint32_t> leaders;                     // index: partition; empty = cannot route
    std::vector<uint32_t> buckets;                     // index: bucket; value: partition
    std::unordered_map<std::string, Route, NoCaseHash, NoCaseEqual> routes;
    uint64_t catalog_version = 0;
    uint64_t topology_version = 0;
    std::unordered_map<uint32_t, std::string> host_addresses;  // host id -> "address:port", from logins
  };

  int PartitionOfCall(const Snapshot& s, std::string_view procedure, const std::vector<Param>& params) const;
  std::shared_ptr<const Snapshot> Current() const;
  // REQUIRES: mu_ held. Publishes `next` with the connections recomputed.
  void PublishLocked(std::shared_ptr<Snapshot> next);

  std::mutex mu_;
  std::vector<std::shared_ptr<Connection>> all_;  // guarded by mu_
  mutable std::mutex snapshot_mu_;
  std::shared_ptr<const Snapshot> snapshot_;  // guarded by snapshot_mu_
  std::atomic<uint64_t> round_robin_{0};
  std::atomic<uint64_t> topology_version_{0};  // the published snapshot's topology_version
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_ROUTER_H_
