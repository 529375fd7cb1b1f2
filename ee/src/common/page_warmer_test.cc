// PageWarmer: pages are faulted in without changing their contents, and a
// cancelled range is left alone once Cancel returns.
#include "common/page_warmer.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace partita {
namespace {

// A private anonymous mapping of `bytes`, unmapped at the end of scope.
class Mapping {
 public:
  explicit Mapping(size_t bytes) : bytes_(bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  ~Mapping() {
    if (data_ != nullptr) munmap(data_, bytes_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  char* data() const { return data_; }
  // How many of its pages are resident.
  size_t ResidentPages() const {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> vec(bytes_ / page);
    if (mincore(data_, bytes_, vec.data()) != 0) return 0;
    size_t n = 0;
    for (unsigned char v : vec) n += v & 1;
    return n;
  }

 private:
  size_t bytes_;
  char* data_;
};

TEST(PageWarmerTest, FaultsInEveryPageAndKeepsTheContents) {
  PageWarmer& warmer = PageWarmer::Instance();
  constexpr size_t kBytes = size_t{4} << 20;
  Mapping m(kBytes);
  ASSERT_NE(m.data(), nullptr);
  std::memcpy(m.data() + 100, "kept", 4);
  const PageWarmer::Ticket ticket = warmer.Warm(m.data(), kBytes);
  if (!warmer.available()) GTEST_SKIP() << "this kernel cannot populate pages ahead";
  ASSERT_NE(ticket, 0u);
  warmer.Drain();
  EXPECT_EQ(m.ResidentPages(), kBytes / static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_EQ(std::memcmp(m.data() + 100, "kept", 4), 0);
  EXPECT_EQ(m.data()[kBytes - 1], 0);
  warmer.Cancel(ticket);  // finished: a no-op
}

TEST(PageWarmerTest, LeavesACancelledRangeAlone) {
  PageWarmer& warmer = PageWarmer::Instance();
  constexpr size_t kBytes = size_t{256} << 20;
  Mapping m(kBytes);
  ASSERT_NE(m.data(), nullptr);
  const PageWarmer::Ticket ticket = warmer.Warm(m.data(), kBytes);
  if (!warmer.available()) GTEST_SKIP() << "this kernel cannot populate pages ahead";
  warmer.Cancel(ticket);
  const size_t resident = m.ResidentPages();
  warmer.Drain();
  EXPECT_EQ(m.ResidentPages(), resident);
}

TEST(PageWarmerTest, AnEmptyRangeGetsNoTicket) { EXPECT_EQ(PageWarmer::Instance().Warm(nullptr, 0), 0u); }

}  // namespace
}  // namespace partita
