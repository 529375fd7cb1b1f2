#include "consistency.h"

#include <gtest/gtest.h>

namespace partita::bench::voter {
namespace {

Standings Make(std::vector<Standings::Entry> entries, int64_t rows) {
  Standings s;
  s.entries = std::move(entries);
  s.vote_rows = rows;
  return s;
}

TEST(ConsistencyTest, shouldAgreeWhenTheDatabaseGainedExactlyTheAcceptedVotes) {
  Outcomes warm(2), measured(2);
  warm.RecordAnswer(1, Outcomes::kAccepted);
  measured.RecordAnswer(1, Outcomes::kAccepted);
  measured.RecordAnswer(2, Outcomes::kAccepted);
  measured.RecordAnswer(3, Outcomes::kInvalidContestant);
  measured.RecordAnswer(2, Outcomes::kOverVoteLimit);
  const Standings before = Make({{1, "A", 10}, {2, "B", 5}}, 15);
  const Standings after = Make({{1, "A", 12}, {2, "B", 6}}, 18);
  const Consistency c = Consistency::Check(before, after, {&warm, &measured});
  EXPECT_TRUE(c.consistent);
  ASSERT_EQ(c.lines.size(), 3u);  // contestants 1 and 2, the total; not the invalid number 3
  EXPECT_NE(c.lines[0].find("contestant 1"), std::string::npos) << c.lines[0];
  EXPECT_EQ(c.lines[2].find("<-- differs"), std::string::npos) << c.lines[2];
}

TEST(ConsistencyTest, shouldFlagAContestantWhoseViewDisagrees) {
  Outcomes measured(2);
  measured.RecordAnswer(1, Outcomes::kAccepted);
  const Consistency c = Consistency::Check(Make({}, 0), Make({{1, "A", 2}}, 1), {&measured});
  EXPECT_FALSE(c.consistent);
  EXPECT_NE(c.lines[0].find("<-- differs"), std::string::npos) << c.lines[0];
}

TEST(ConsistencyTest, shouldFlagMissingRowsOfVotes) {
  Outcomes measured(1);
  measured.RecordAnswer(1, Outcomes::kAccepted);
  const Consistency c = Consistency::Check(Make({}, 0), Make({{1, "A", 1}}, 0), {&measured});
  EXPECT_FALSE(c.consistent);
  EXPECT_NE(c.lines.back().find("COUNT(*) FROM votes"), std::string::npos);
  EXPECT_NE(c.lines.back().find("<-- differs"), std::string::npos);
}

TEST(ConsistencyTest, shouldCountAnUnknownAnswerCodeAsFailed) {
  Outcomes o(2);
  o.RecordAnswer(1, 7);
  o.RecordAnswer(1, -1);
  EXPECT_EQ(o.failed(), 2u);
  EXPECT_EQ(o.Answered(), 0u);
  EXPECT_EQ(o.MaxContestant(), 3);
}

}  // namespace
}  // namespace partita::bench::voter
