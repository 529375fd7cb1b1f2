#include "json_object.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace partita::bench {
namespace {

TEST(JsonObjectTest, shouldKeepFieldOrderAndTypes) {
  JsonObject j;
  j.Add("driver", "cpp").Add("tps", 301234.5).Add("accepted", uint64_t{42}).Add("threads", 1).Add("consistent", true);
  EXPECT_EQ(j.ToString(),
            "{\n  \"driver\" : \"cpp\",\n  \"tps\" : 301234.5,\n  \"accepted\" : 42,\n  \"threads\" : 1,\n"
            "  \"consistent\" : true\n}\n");
}

TEST(JsonObjectTest, shouldEscapeStrings) {
  EXPECT_EQ(JsonObject::Quote("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
}

TEST(JsonObjectTest, shouldWriteNullForNumbersJsonCannotHold) {
  JsonObject j;
  j.Add("x", std::nan(""));
  EXPECT_EQ(j.ToString(), "{\n  \"x\" : null\n}\n");
}

TEST(JsonObjectTest, shouldWriteAFileAndSayWhyItCannot) {
  JsonObject j;
  j.Add("a", 1);
  const std::string path = ::testing::TempDir() + "/json_object_test.json";
  ASSERT_EQ(j.WriteFile(path), "");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), j.ToString());
  const std::string error = j.WriteFile("/nonexistent-dir/x.json");
  EXPECT_NE(error.find("cannot open /nonexistent-dir/x.json"), std::string::npos) << error;
}

}  // namespace
}  // namespace partita::bench
