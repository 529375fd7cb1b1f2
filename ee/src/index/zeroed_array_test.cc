// ZeroedArray: arrays read as zeros at every size; a large one is mapped on a
// huge-page boundary and marked for huge pages, its pages warm in without
// losing what was written, and moving or releasing it leaves nothing behind.
#include "index/zeroed_array.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace partita {
namespace {

struct Cell {
  uint64_t a;
  uint64_t b;
};

// The VmFlags line of /proc/self/smaps for the mapping that holds `address`,
// or "" when none does.
std::string VmFlagsOf(const void* address) {
  const auto target = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= target && target < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// Whether the kernel gives huge pages to mappings that ask (THP "always" or "madvise").
bool HugePagesOnRequest() {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text;
  std::getline(setting, text);
  return text.find("[always]") != std::string::npos || text.find("[madvise]") != std::string::npos;
}

TEST(ZeroedArrayTest, SmallMappedAndHugeArraysAllStartAsZeros) {
  for (size_t bytes : {size_t{4096}, ZeroedArray<Cell>::kMapBytes, ZeroedArray<Cell>::kHugeBytes * 3}) {
    ZeroedArray<Cell> cells(bytes / sizeof(Cell));
    ASSERT_EQ(cells.size(), bytes / sizeof(Cell));
    for (size_t i = 0; i < cells.size(); i += 97) {
      EXPECT_EQ(cells[i].a, 0u) << bytes << " bytes, cell " << i;
      EXPECT_EQ(cells[i].b, 0u) << bytes << " bytes, cell " << i;
    }
    cells[cells.size() - 1].b = 7;
    EXPECT_EQ(cells[cells.size() - 1].b, 7u);
  }
}

TEST(ZeroedArrayTest, AHugeArrayIsMappedOnAHugePageBoundaryAndAsksForHugePages) {
  ZeroedArray<Cell> cells(ZeroedArray<Cell>::kHugeBytes * 2 / sizeof(Cell));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(cells.begin()) % ZeroedArray<Cell>::kHugeBytes, 0u);
  const std::string flags = VmFlagsOf(cells.begin());
  ASSERT_FALSE(flags.empty()) << "no mapping holds the array";
  if (!HugePagesOnRequest()) GTEST_SKIP() << "transparent huge pages are off on this kernel";
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  // A mapping of one megabyte stays with ordinary pages.
  ZeroedArray<Cell> small(ZeroedArray<Cell>::kMapBytes / sizeof(Cell));
  EXPECT_EQ(VmFlagsOf(small.begin()).find(" hg"), std::string::npos);
}

TEST(ZeroedArrayTest, WarmingAHugeArrayKeepsWhatWasWritten) {
  ZeroedArray<Cell> cells(ZeroedArray<Cell>::kHugeBytes * 2 / sizeof(Cell));
  cells[3].a = 11;
  cells[cells.size() / 2].b = 22;
  cells.Warm();
  PageWarmer::Instance().Drain();
  EXPECT_EQ(cells[3].a, 11u);
  EXPECT_EQ(cells[cells.size() / 2].b, 22u);
  EXPECT_EQ(cells[cells.size() - 1].a, 0u);
}

TEST(ZeroedArrayTest, MovingAndReleasingUnmapsTheWholeMapping) {
  ZeroedArray<Cell> cells(ZeroedArray<Cell>::kHugeBytes / sizeof(Cell) + 1);  // rounds up to two huge pages
  Cell* const data = cells.begin();
  ZeroedArray<Cell> moved(std::move(cells));
  EXPECT_TRUE(cells.empty());
  EXPECT_EQ(moved.begin(), data);
  moved = ZeroedArray<Cell>();
  EXPECT_TRUE(VmFlagsOf(data).empty()) << "the first huge page is still mapped";
  EXPECT_TRUE(VmFlagsOf(reinterpret_cast<char*>(data) + 2 * ZeroedArray<Cell>::kHugeBytes - 1).empty())
      << "the end of the rounded-up second huge page is still mapped";
}

}  // namespace
}  // namespace partita
