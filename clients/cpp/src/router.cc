#include "router.h"

#include <algorithm>
#include <cmath>

#include "client.pb.h"
#include "connection.h"
#include "partita/client/partition_hash.h"
#include "partita/client/result_table.h"

namespace partita::client {
namespace {
constexpr uint32_t kMaxHostId = 4096;  // higher host ids are not indexed (round-robin)
constexpr double kTwo63 = 9223372036854775808.0;

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool IsIntegerType(uint32_t type) {
  return type >= static_cast<uint32_t>(ValueType::kTinyInt) && type <= static_cast<uint32_t>(ValueType::kBigInt);
}

int BucketOfHash(uint64_t hash) { return static_cast<int>(PartitionHash::Bucket(hash)); }
}  // namespace

size_t Router::NoCaseHash::operator()(std::string_view s) const {
  size_t h = 0;
  for (char c : s) h = h * 31 + static_cast<unsigned char>(Lower(c));
  return h;
}

bool Router::NoCaseEqual::operator()(std::string_view a, std::string_view b) const {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) { return Lower(x) == Lower(y); });
}

Router::Router() : snapshot_(std::make_shared<const Snapshot>()) {}

std::shared_ptr<const Router::Snapshot> Router::Current() const {
  std::lock_guard<std::mutex> lock(snapshot_mu_);
  return snapshot_;
}

int Router::BucketOf(const Param& value, uint32_t type) {
  const Param::Value& v = value.value();
  if (std::holds_alternative<std::monostate>(v)) return kNullValue;
  if (IsIntegerType(type) || type == static_cast<uint32_t>(ValueType::kTimestamp)) {
    if (const auto* i = std::get_if<int64_t>(&v)) return BucketOfHash(PartitionHash::HashInt64(*i));
    if (const auto* t = std::get_if<Param::TimestampMicros>(&v)) return BucketOfHash(PartitionHash::HashInt64(t->micros));
    if (const auto* d = std::get_if<double>(&v); d && *d == std::rint(*d) && std::abs(*d) < kTwo63) {
      return BucketOfHash(PartitionHash::HashInt64(static_cast<int64_t>(*d)));
    }
    return kUnroutable;
  }
  if (type == static_cast<uint32_t>(ValueType::kVarchar)) {
    const auto* s = std::get_if<std::string>(&v);
    return s ? BucketOfHash(PartitionHash::HashBytes(*s)) : kUnroutable;
  }
  if (type == static_cast<uint32_t>(ValueType::kVarbinary)) {
    const auto* b = std::get_if<Param::Binary>(&v);
    return b ? BucketOfHash(PartitionHash::HashBytes(b->bytes)) : kUnroutable;
  }
  return kUnroutable;
}

int Router::PartitionOf(const Param& value, uint32_t type, uint32_t count) {
  if (count == 0) return -1;
  const int bucket = BucketOf(value, type);
  if (bucket == kNullValue) return 0;
  return bucket == kUnroutable ? -1 : static_cast<int>(static_cast<uint32_t>(bucket) % count);
}

std::vector<uint32_t> Router::BucketTable(const Topology& topology) {
  const uint32_t count = topology.partition_count();
  std::vector<uint32_t> table;
  if (count == 0) return table;
  if (topology.bucket_partitions_size() == 0) {
    table.resize(PartitionHash::kBuckets);
    for (uint32_t b = 0; b < PartitionHash::kBuckets; ++b) table[b] = b % count;
    return table;
  }
  if (static_cast<uint32_t>(topology.bucket_partitions_size()) != PartitionHash::kBuckets) return table;
  for (const uint32_t partition : topology.bucket_partitions()) {
    if (partition >= count) return {};
  }
  table.assign(topology.bucket_partitions().begin(), topology.bucket_partitions().end());
  return table;
}

int Router::PartitionOfCall(const Snapshot& s, std::string_view procedure, const std::vector<Param>& params) const {
  if (s.leaders.empty() || s.buckets.empty() || procedure.empty() || procedure.front() == '@') return -1;
  const auto it = s.routes.find(procedure);
  if (it == s.routes.end() || !it->second.single_partition || it->second.parameter >= params.size()) return -1;
  const int bucket = BucketOf(params[it->second.parameter], it->second.type);
  if (bucket == kNullValue) return 0;
  return bucket == kUnroutable ? -1 : static_cast<int>(s.buckets[static_cast<size_t>(bucket)]);
}

Router::Choice Router::Choose(std::string_view procedure, const std::vector<Param>& params) {
  const std::shared_ptr<const Snapshot> s = Current();
  if (s->up.empty()) return {};
  const int partition = PartitionOfCall(*s, procedure, params);
  const uint32_t routed = static_cast<uint32_t>(partition + 1);
  if (partition >= 0) {
    const uint32_t leader = s->leaders[partition];
    if (leader < s->by_host.size() && s->by_host[leader] && s->by_host[leader]->up()) {
      return {s->by_host[leader], routed, true};
    }
  }
  const uint64_t next = round_robin_.fetch_add(1, std::memory_order_relaxed);
  return {s->up[next % s->up.size()], routed, false};
}

int Router::PartitionOf(std::string_view procedure, const std::vector<Param>& params) const {
  return PartitionOfCall(*Current(), procedure, params);
}

bool Router::IsMultiPartitionProcedure(std::string_view procedure) const {
  if (procedure.empty() || procedure.front() == '@') return false;
  const std::shared_ptr<const Snapshot> s = Current();
  const auto it = s->routes.find(procedure);
  return it != s->routes.end() && !it->second.single_partition;
}

void Router::Add(std::shared_ptr<Connection> connection) {
  std::lock_guard<std::mutex> lock(mu_);
  all_.push_back(std::move(connection));
}

void Router::Remove(const Connection* connection) {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(all_, [connection](const auto& c) { return c.get() == connection; });
  PublishLocked(std::make_shared<Snapshot>(*Current()));
}

void Router::LoggedIn(const LoginResponse& login) {
  std::lock_guard<std::mutex> lock(mu_);
  auto next = std::make_shared<Snapshot>(*Current());
  const Topology& topology = login.topology();
  const bool hash_known = login.hash().algorithm() == PartitionHash::kAlgorithm &&
                          login.hash().bucket_bits() == PartitionHash::kBucketBits;
  const uint32_t count = topology.partition_count();
  for (const Host& host : topology.hosts()) {
    next->host_addresses[host.host_id()] = host.address() + ":" + std::to_string(host.client_port());
  }
  const bool older = topology.topology_version() < next->topology_version && next->leaders.size() == count;
  if (!older) {  // an older topology (a host not yet following a failover) keeps the newer leaders
    next->topology_version = topology.topology_version();
    next->leaders.clear();
    next->buckets.clear();
    if (hash_known && count > 0 && static_cast<uint32_t>(topology.partition_leaders_size()) == count) {
      next->leaders.assign(topology.partition_leaders().begin(), topology.partition_leaders().end());
      next->buckets = BucketTable(topology);
    }
  }
  if (login.catalog_version() >= next->catalog_version) {
    next->catalog_version = login.catalog_version();
    next->routes.clear();
    for (const ProcedureRouting& p : login.procedures()) {
      next->routes[p.name()] = Route{p.single_partition(), p.partition_parameter(), p.partition_type()};
    }
  }
  PublishLocked(std::move(next));
}

uint64_t Router::catalog_version() const { return Current()->catalog_version; }

bool Router::FollowLeaders(std::vector<uint32_t> leaders, uint64_t version) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::shared_ptr<const Snapshot> current = Current();
  if (version <= current->topology_version || leaders.size() != current->leaders.size()) return false;
  auto next = std::make_shared<Snapshot>(*current);
  next->leaders = std::move(leaders);
  next->topology_version = version;
  // A leader whose connection waits out its reconnection backoff (a host that came back and was handed
  // partitions again) is dialled now.
  for (const auto& c : all_) {
    const int32_t host = c->host_id();
    if (!c->up() && host >= 0 &&
        std::find(next->leaders.begin(), next->leaders.end(), static_cast<uint32_t>(host)) != next->leaders.end()) {
      c->ReconnectNow();
    }
  }
  PublishLocked(std::move(next));
  return true;
}

std::string Router::HostAddress(uint32_t host_id) const {
  const std::shared_ptr<const Snapshot> s = Current();
  const auto it = s->host_addresses.find(host_id);
  return it == s->host_addresses.end() ? std::string() : it->second;
}

size_t Router::HostCount() const { return Current()->host_addresses.size(); }

bool Router::UpdateRoutes(uint64_t version, const ResultTable& procedures) {
  const int name = procedures.ColumnIndex("PROCEDURE_NAME");
  const int single = procedures.ColumnIndex("SINGLE_PARTITION");
  const int parameter = procedures.ColumnIndex("PARTITION_PARAMETER");
  const int type = procedures.ColumnIndex("PARTITION_TYPE");
  if (name < 0 || single < 0 || parameter < 0 || type < 0) return false;
  std::lock_guard<std::mutex> lock(mu_);
  auto next = std::make_shared<Snapshot>(*Current());
  if (version <= next->catalog_version) return true;
  next->catalog_version = version;
  next->routes.clear();
  for (size_t r = 0; r < procedures.row_count(); ++r) {
    const int64_t partition_parameter = procedures.GetInt64(r, parameter);
    next->routes[std::string(procedures.GetString(r, name))] =
        Route{procedures.GetInt64(r, single) != 0, static_cast<uint32_t>(std::max<int64_t>(partition_parameter, 0)),
              static_cast<uint32_t>(procedures.GetInt64(r, type))};
  }
  PublishLocked(std::move(next));
  return true;
}

void Router::Rebuild() {
  std::lock_guard<std::mutex> lock(mu_);
  PublishLocked(std::make_shared<Snapshot>(*Current()));
}

void Router::PublishLocked(std::shared_ptr<Snapshot> next) {
  next->up.clear();
  next->by_host.clear();
  for (const auto& c : all_) {
    if (!c->up()) continue;
    next->up.push_back(c);
    const int32_t host = c->host_id();
    if (host >= 0 && static_cast<uint32_t>(host) < kMaxHostId) {
      if (next->by_host.size() <= static_cast<size_t>(host)) next->by_host.resize(host + 1);
      next->by_host[host] = c;
    }
  }
  const uint64_t topology_version = next->topology_version;
  std::shared_ptr<const Snapshot> old;
  {
    std::lock_guard<std::mutex> lock(snapshot_mu_);
    old = std::exchange(snapshot_, std::move(next));
  }  // `old` is released outside the lock
  topology_version_.store(topology_version, std::memory_order_release);
}

bool Router::ConnectedToHost(uint32_t host_id) const {
  const std::shared_ptr<const Snapshot> s = Current();
  return host_id < s->by_host.size() && s->by_host[host_id] != nullptr;
}

std::vector<std::string> Router::ConnectedServers() const {
  std::vector<std::string> names;
  const std::shared_ptr<const Snapshot> s = Current();  // held for the loop
  for (const auto& c : s->up) names.push_back(c->address());
  return names;
}

}  // namespace partita::client
