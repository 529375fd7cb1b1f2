// The C++ client against a real server: `scripts/partita start` with the
// Voter schema on two sites (loopback, ephemeral port), then Initialize,
// Votes routed across the sites, and Results checked against the votes the
// server accepted. Skipped, saying why, when the Java server or the Voter
// procedures are not built (host-java/server/target/classpath.txt,
// bench/voter/target/classes). PARTITA_ROOT overrides the source tree used.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "partita/client/client.h"

extern char** environ;

namespace partita::client {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

fs::path Root() {
  const char* root = std::getenv("PARTITA_ROOT");
  return root != nullptr && *root != '\0' ? fs::path(root) : fs::path(PARTITA_SOURCE_DIR);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A `partita start` process; the destructor always stops it (SIGTERM, then
// SIGKILL after 40 s) and removes its log.
class ServerProcess {
 public:
  explicit ServerProcess(const fs::path& root, const std::vector<std::string>& extra = {})
      : log_(fs::temp_directory_path() / ("partita-cpp-it-" + std::to_string(getpid()) + ".log")) {
    const std::string script = (root / "scripts/partita").string();
    std::vector<std::string> args = {script, "start", "--schema", (root / "bench/voter/ddl.sql").string(),
                                     "--classes", (root / "bench/voter/target/classes").string(), "--sites", "2",
                                     "--port", "0", "--http-port", "-1", "--bind", "127.0.0.1"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    if (posix_spawn(&pid_, script.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }

  ~ServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      if (!WaitForExit(40s)) {
        kill(pid_, SIGKILL);
        WaitForExit(10s);
      }
    }
    std::error_code ignored;
    fs::remove(log_, ignored);
  }

  // The client address from the ready line ("partita: ready: client port H:P, ..."), or "" if the
  // process ended or printed nothing within `timeout`.
  std::string AwaitReady(std::chrono::seconds timeout) {
    const std::string marker = "partita: ready: client port ";
    for (auto end = std::chrono::steady_clock::now() + timeout; std::chrono::steady_clock::now() < end;) {
      const std::string out = ReadFile(log_);
      if (const size_t at = out.find(marker); at != std::string::npos) {
        const size_t start = at + marker.size();
        const size_t stop = out.find_first_of(", \n", start);
        if (stop != std::string::npos) return out.substr(start, stop - start);
      }
      if (pid_ <= 0 || waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return "";
      }
      std::this_thread::sleep_for(50ms);
    }
    return "";
  }

  std::string output() const { return ReadFile(log_); }

 private:
  bool WaitForExit(std::chrono::seconds timeout) {
    for (auto end = std::chrono::steady_clock::now() + timeout; std::chrono::steady_clock::now() < end;) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  fs::path log_;
  pid_t pid_ = -1;
};

// Writes user `user` with `roles` and `password` into `file` with `partita passwd`; true iff it succeeded.
bool Passwd(const fs::path& root, const fs::path& file, const std::string& user, const std::string& roles,
            const std::string& password) {
  const std::string command = (root / "scripts/partita").string() + " passwd --iterations 4096 --users " +
                              file.string() + " --roles " + roles + " " + user + " > /dev/null";
  FILE* p = popen(command.c_str(), "w");
  if (p == nullptr) return false;
  fputs((password + "\n").c_str(), p);
  return pclose(p) == 0;
}

TEST(CppClientIntegrationTest, LogsInWithScramToASecuredServer) {
  const fs::path root = Root();
  for (const char* needed : {"host-java/server/target/classpath.txt", "bench/voter/target/classes"}) {
    if (!fs::exists(root / needed)) GTEST_SKIP() << "needs a built server: " << (root / needed) << " is missing";
  }
  const fs::path users = fs::temp_directory_path() / ("partita-cpp-users-" + std::to_string(getpid()));
  ASSERT_TRUE(Passwd(root, users, "admin", "administrator", "cpp-secret"));
  ASSERT_TRUE(Passwd(root, users, "alice", "user", "alice-secret"));
  ServerProcess server(root, {"--users", users.string()});
  const std::string address = server.AwaitReady(120s);
  std::error_code ignored;
  fs::remove(users, ignored);
  ASSERT_FALSE(address.empty()) << "the server did not become ready:\n" << server.output();

  ClientConfig config;
  config.reconnect = false;
  config.user = "admin";
  config.password = "cpp-secret";
  Client admin(config);
  ASSERT_TRUE(admin.Connect(address).ok());
  const Result<Response> ping = admin.Call("@Ping", {});
  ASSERT_TRUE(ping.ok() && ping->ok()) << (ping.ok() ? ping->ToString() : ping.status().ToString());

  config.user = "alice";
  config.password = "alice-secret";
  Client alice(config);
  ASSERT_TRUE(alice.Connect(address).ok());
  const Result<Response> shutdown = alice.Call("@Shutdown", {});
  ASSERT_TRUE(shutdown.ok());
  EXPECT_EQ(shutdown->error_name, "PERMISSION_DENIED") << shutdown->ToString();

  config.password = "wrong";
  Client wrong(config);
  const Status refused = wrong.Connect(address);
  EXPECT_EQ(refused.code(), Status::Code::kLoginRefused) << refused.ToString();
  EXPECT_NE(refused.message().find("AUTHENTICATION_FAILED"), std::string::npos) << refused.ToString();

  ClientConfig anonymous;
  anonymous.reconnect = false;
  Client nobody(anonymous);
  const Status required = nobody.Connect(address);
  EXPECT_NE(required.message().find("AUTHENTICATION_REQUIRED"), std::string::npos) << required.ToString();
}

TEST(CppClientIntegrationTest, SpeaksTlsToAServerItTrusts) {
  const fs::path root = Root();
  for (const char* needed : {"host-java/server/target/classpath.txt", "bench/voter/target/classes"}) {
    if (!fs::exists(root / needed)) GTEST_SKIP() << "needs a built server: " << (root / needed) << " is missing";
  }
  const fs::path dir = fs::temp_directory_path() / ("partita-cpp-tls-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string store = (dir / "server.p12").string();
  const std::string pem = (dir / "server.pem").string();
  const std::string keytool = "keytool -keystore " + store + " -storepass cpp-store ";
  ASSERT_EQ(std::system((keytool + "-genkeypair -alias server -keyalg EC -groupname secp256r1 -validity 2 "
                         "-dname CN=localhost -ext SAN=dns:localhost -storetype PKCS12 > /dev/null 2>&1").c_str()), 0);
  ASSERT_EQ(std::system((keytool + "-exportcert -rfc -alias server -file " + pem + " > /dev/null 2>&1").c_str()), 0);
  ServerProcess server(root, {"--tls-keystore", store, "--tls-keystore-password", "cpp-store"});
  const std::string address = server.AwaitReady(120s);
  ASSERT_FALSE(address.empty()) << "the server did not become ready:\n" << server.output();
  const std::string by_name = "localhost:" + address.substr(address.rfind(':') + 1);

  ClientConfig config;
  config.reconnect = false;
  config.connect_timeout = 10s;
  config.tls = true;
  config.tls_ca_file = pem;
  Client trusting(config);
  ASSERT_TRUE(trusting.Connect(by_name).ok());
  const Result<Response> ping = trusting.Call("@Ping", {});
  EXPECT_TRUE(ping.ok() && ping->ok());

  Client by_address(config);  // the certificate names localhost, not 127.0.0.1
  EXPECT_NE(by_address.Connect(address).message().find("TLS handshake failed"), std::string::npos);

  config.tls_ca_file.clear();  // the system's authorities do not know this certificate
  Client untrusting(config);
  const Status refused = untrusting.Connect(by_name);
  EXPECT_NE(refused.message().find("TLS handshake failed"), std::string::npos) << refused.ToString();

  ClientConfig plain;
  plain.reconnect = false;
  plain.connect_timeout = 5s;
  Client plaintext(plain);
  EXPECT_FALSE(plaintext.Connect(by_name).ok());
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

TEST(CppClientIntegrationTest, PresentsAClientCertificateWhenTheServerRequiresOne) {
  const fs::path root = Root();
  for (const char* needed : {"host-java/server/target/classpath.txt", "bench/voter/target/classes"}) {
    if (!fs::exists(root / needed)) GTEST_SKIP() << "needs a built server: " << (root / needed) << " is missing";
  }
  const fs::path dir = fs::temp_directory_path() / ("partita-cpp-mtls-" + std::to_string(getpid()));
  const std::string certs = (root / "scripts/cluster-certs").string();
  // One authority signs the server (127.0.0.1) and the client (127.0.0.2); another signs a stranger.
  ASSERT_EQ(std::system((certs + " " + (dir / "ours").string() + " 127.0.0.1 127.0.0.2 > /dev/null").c_str()), 0);
  ASSERT_EQ(std::system((certs + " " + (dir / "other").string() + " 127.0.0.2 > /dev/null").c_str()), 0);
  const fs::path ours = dir / "ours";
  ServerProcess server(root, {"--tls-cert", (ours / "host-127.0.0.1.crt").string(), "--tls-key",
                              (ours / "host-127.0.0.1.key").string(), "--tls-client-ca", (ours / "ca.crt").string()});
  const std::string address = server.AwaitReady(120s);
  ASSERT_FALSE(address.empty()) << "the server did not become ready:\n" << server.output();

  ClientConfig config;
  config.reconnect = false;
  config.connect_timeout = 10s;
  config.tls = true;
  config.tls_ca_file = (ours / "ca.crt").string();
  config.tls_cert_file = (ours / "host-127.0.0.2.crt").string();
  config.tls_key_file = (ours / "host-127.0.0.2.key").string();
  Client holder(config);
  ASSERT_TRUE(holder.Connect(address).ok());
  const Result<Response> ping = holder.Call("@Ping", {});
  EXPECT_TRUE(ping.ok() && ping->ok());

  ClientConfig without = config;
  without.tls_cert_file.clear();
  without.tls_key_file.clear();
  Client anonymous(without);
  EXPECT_FALSE(anonymous.Connect(address).ok()) << "the server requires a client certificate";

  ClientConfig stranger = config;
  stranger.tls_cert_file = (dir / "other" / "host-127.0.0.2.crt").string();
  stranger.tls_key_file = (dir / "other" / "host-127.0.0.2.key").string();
  Client strange(stranger);
  EXPECT_FALSE(strange.Connect(address).ok()) << "another authority's certificate is refused";

  ClientConfig mismatched = config;
  mismatched.tls_key_file = (dir / "other" / "host-127.0.0.2.key").string();
  Client wrong_key(mismatched);
  const Status key = wrong_key.Connect(address);
  EXPECT_NE(key.message().find("cannot use the client key"), std::string::npos) << key.ToString();

  ClientConfig half = config;
  half.tls_key_file.clear();
  Client only_certificate(half);
  const Status alone = only_certificate.Connect(address);
  EXPECT_NE(alone.message().find("go together"), std::string::npos) << alone.ToString();
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

TEST(CppClientIntegrationTest, VotesThroughARealServerAndResultsAgree) {
  const fs::path root = Root();
  for (const char* needed : {"host-java/server/target/classpath.txt", "bench/voter/target/classes"}) {
    if (!fs::exists(root / needed)) {
      GTEST_SKIP() << "needs a built server: " << (root / needed) << " is missing (run scripts/build, "
                   << "or set PARTITA_ROOT to a built source tree)";
    }
  }
  ServerProcess server(root);
  const std::string address = server.AwaitReady(120s);
  ASSERT_FALSE(address.empty()) << "the server did not become ready:\n" << server.output();

  ClientConfig config;
  config.client_name = "cpp-integration-test";
  config.call_timeout = 30s;
  Client client(config);
  ASSERT_TRUE(client.Connect(address).ok());
  const Result<Response> init = client.Call("Initialize", {6, "Alice,Bob,Carol,Dan,Eve,Frank"});
  ASSERT_TRUE(init.ok() && init->ok()) << (init.ok() ? init->ToString() : init.status().ToString());
  EXPECT_EQ(init->results[0].GetInt64(0, 0), 6);

  // 100 phones, 3 votes each for valid contestants (limit 2), plus some for a contestant that does not exist.
  constexpr int kPhones = 100;
  std::mutex mu;
  std::map<int64_t, int64_t> accepted_by_contestant;
  int64_t outcomes[3] = {0, 0, 0};
  int64_t failed = 0;
  for (int round = 0; round < 4; ++round) {
    for (int64_t p = 0; p < kPhones; ++p) {
      const int contestant = round == 3 ? 99 : static_cast<int>(1 + (p + round) % 6);
      client.CallAsync("Vote", {2125550000LL + p, contestant, 2}, [&, contestant](Result<Response> r) {
        std::lock_guard<std::mutex> lock(mu);
        if (!r.ok() || !r->ok()) {
          ++failed;
          return;
        }
        const int64_t code = r->results[0].GetInt64(0, 0);
        if (code >= 0 && code <= 2) ++outcomes[code];
        if (code == 0) ++accepted_by_contestant[contestant];
      });
    }
  }
  client.Drain();
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(outcomes[0], 2 * kPhones);
  EXPECT_EQ(outcomes[1], kPhones);
  EXPECT_EQ(outcomes[2], kPhones);

  const Result<Response> results = client.Call("Results", {});
  ASSERT_TRUE(results.ok() && results->ok()) << (results.ok() ? results->ToString() : results.status().ToString());
  const ResultTable& standings = results->results[0];
  std::map<int64_t, int64_t> reported;
  for (size_t r = 0; r < standings.row_count(); ++r) {
    reported[standings.GetInt64(r, standings.ColumnIndex("contestant_number"))] =
        standings.GetInt64(r, standings.ColumnIndex("total_votes"));
  }
  EXPECT_EQ(reported, accepted_by_contestant);

  // The server stops a statement at the time limit the client asks for, and refuses a limit over one hour.
  // The four-way cross join of area_code_state (a few hundred rows) would run for hours.
  ClientConfig limited = config;
  limited.query_timeout = 500ms;
  Client limited_client(limited);
  ASSERT_TRUE(limited_client.Connect(address).ok());
  const std::string forever =
      "SELECT COUNT(*) FROM area_code_state a, area_code_state b, area_code_state c, area_code_state d "
      "WHERE a.area_code + b.area_code + c.area_code + d.area_code < 0";
  const Result<Response> stopped = limited_client.Call("@AdHoc", {forever});
  ASSERT_TRUE(stopped.ok()) << stopped.status().ToString();
  EXPECT_EQ(stopped->error_name, "TRANSACTION_TIMEOUT") << stopped->ToString();
  EXPECT_NE(stopped->message.find("past its time limit of 0.500 s"), std::string::npos) << stopped->message;
  ClientConfig oversized = config;
  oversized.query_timeout = std::chrono::hours(1) + 1ms;
  Client oversized_client(oversized);
  ASSERT_TRUE(oversized_client.Connect(address).ok());
  const Result<Response> refused = oversized_client.Call("@AdHoc", {"SELECT COUNT(*) FROM contestants"});
  ASSERT_TRUE(refused.ok()) << refused.status().ToString();
  EXPECT_EQ(refused->error_name, "BAD_PARAMETER") << refused->ToString();

  const Result<Response> unknown = client.Call("NoSuchProcedure", {});
  ASSERT_TRUE(unknown.ok()) << unknown.status().ToString() << "\n" << server.output();
  EXPECT_EQ(unknown->status, ResponseStatus::kRejected);
  EXPECT_EQ(client.Statistics().successes, 2u + 4 * kPhones);
}

}  // namespace
}  // namespace partita::client
