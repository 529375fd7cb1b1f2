#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command; returns its standard output, and its exit status in `status`.
std::string RunShell(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[512];
  while (pipe != nullptr && fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  *status = pipe == nullptr ? -1 : pclose(pipe);
  return out;
}

class PowercutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("partita-powercut-" + std::to_string(getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "data");
    journal_ = root_ / "journal";
  }
  void TearDown() override { fs::remove_all(root_); }

  // Runs the writer on `file` under the shim; returns its output.
  std::string Write(const fs::path& file, const std::string& ops, const std::string& env = "",
                    int* status = nullptr) {
    int s;
    const std::string out = RunShell("exec 2>/dev/null; " + env + " PARTITA_POWERCUT_DIR=" + (root_ / "data").string() +
                                " PARTITA_POWERCUT_JOURNAL=" + journal_.string() + " LD_PRELOAD=" + POWERCUT_SHIM +
                                " " + POWERCUT_WRITER + " " + file.string() + " " + ops, &s);
    if (status != nullptr) *status = s;
    return out;
  }

  std::string Restore() {
    int status;
    const std::string out = RunShell(std::string(POWERCUT_TOOL) + " restore " + journal_.string(), &status);
    EXPECT_EQ(status, 0) << out;
    return out;
  }

  fs::path root_;
  fs::path journal_;
};

TEST_F(PowercutTest, KeepsSyncedBytesAndDropsWhatFollowedTheLastSync) {
  const fs::path file = root_ / "data" / "log";
  int status;
  Write(file, "w:aaaa s w:bbbb kill", "", &status);
  EXPECT_TRUE(WIFSIGNALED(status) || WEXITSTATUS(status) != 0);
  EXPECT_EQ(Read(file), "aaaabbbb");  // the kill alone keeps the page cache
  const std::string out = Restore();
  EXPECT_NE(out.find("1 unsynced write(s) dropped, size 4"), std::string::npos) << out;
  EXPECT_EQ(Read(file), "aaaa");
}

TEST_F(PowercutTest, UndoesOverwritesOfSyncedBytesNewestFirst) {
  const fs::path file = root_ / "data" / "log";
  Write(file, "w:abcdefgh s p:2:XX p:3:YYY w:ZZ kill");
  EXPECT_EQ(Read(file), "abXYYYghZZ");
  Restore();
  EXPECT_EQ(Read(file), "abcdefgh");
}

TEST_F(PowercutTest, EmptiesAFileThatWasNeverSynced) {
  const fs::path file = root_ / "data" / "fresh";
  Write(file, "w:lost w:again kill");
  Restore();
  EXPECT_TRUE(fs::exists(file));
  EXPECT_EQ(fs::file_size(file), 0u);
}

TEST_F(PowercutTest, KeepsAPreallocatedSegmentsSyncedRecordsAndItsSize) {
  const fs::path file = root_ / "data" / "segment";
  Write(file, "t:4096 s p:0:rec1 s p:4:rec2 kill");
  Restore();
  const std::string after = Read(file);
  ASSERT_EQ(after.size(), 4096u);
  EXPECT_EQ(after.substr(0, 8), std::string("rec1\0\0\0\0", 8));
}

TEST_F(PowercutTest, LeavesFilesOutsideTheWatchedDirectoryAlone) {
  const fs::path file = root_ / "elsewhere";
  Write(file, "w:kept kill");
  Restore();
  EXPECT_EQ(Read(file), "kept");
}

TEST_F(PowercutTest, FailsSyncsWithEioAfterTheAllowedNumberAndTheirWritesAreLost) {
  const fs::path file = root_ / "data" / "log";
  const std::string out = Write(file, "w:one s w:two s w:three s kill", "PARTITA_POWERCUT_SYNC_EIO_AFTER=1");
  EXPECT_EQ(out, "sync failed: Input/output error\nsync failed: Input/output error\n");
  Restore();
  EXPECT_EQ(Read(file), "one");
}

TEST_F(PowercutTest, PassesCallsThroughWithoutItsEnvironment) {
  const fs::path file = root_ / "data" / "log";
  int status;
  RunShell(std::string("LD_PRELOAD=") + POWERCUT_SHIM + " " + POWERCUT_WRITER + " " + file.string() + " w:plain s",
      &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(Read(file), "plain");
  EXPECT_FALSE(fs::exists(journal_));
}

TEST_F(PowercutTest, IgnoresATornLastRecordItsWriteNeverRan) {
  const fs::path file = root_ / "data" / "log";
  Write(file, "w:aaaa s w:bbbb kill");
  fs::resize_file(journal_, fs::file_size(journal_) - 2);  // killed while appending the last record
  int status;
  const std::string out = RunShell(std::string(POWERCUT_TOOL) + " restore " + journal_.string() + " 2>&1", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("torn last record at offset"), std::string::npos) << out;
}

TEST_F(PowercutTest, RefusesAMalformedJournalNamingTheOffset) {
  const fs::path file = root_ / "data" / "log";
  Write(file, "w:aaaa s w:bbbb kill");
  {
    std::fstream journal(journal_, std::ios::in | std::ios::out | std::ios::binary);
    journal.put('X');  // the first record's kind: neither an undo nor a sync record
  }
  int status;
  const std::string out = RunShell(std::string(POWERCUT_TOOL) + " restore " + journal_.string() + " 2>&1", &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("is malformed at offset 0"), std::string::npos) << out;
}

}  // namespace
