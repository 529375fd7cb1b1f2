// CatalogFile: reading what `partita compile` writes, and refusing what it
// did not (another format version, truncation, damage, other files).
#include "partita/catalog_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "catalog.pb.h"
#include "errors.pb.h"
#include "partita/engine.h"
#include "testing/catalog_builder.h"

namespace partita {
namespace {

// A catalog file's bytes: header, then `message` (as partita compile writes).
std::string FileBytes(const proto::CatalogFile& message, uint32_t version = kCatalogFileFormatVersion) {
  const std::string payload = message.SerializeAsString();
  std::string bytes(kCatalogFileMagic);
  for (int i = 0; i < 4; ++i) bytes += static_cast<char>((version >> (8 * i)) & 0xff);
  const uint64_t size = payload.size();
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>((size >> (8 * i)) & 0xff);
  return bytes + payload;
}

// Votes partitioned on phone, with AddVote (partitioned on parameter 1).
proto::CatalogFile VoterFile() {
  testing::CatalogBuilder c;
  c.Table("VOTES", 0).Column("PHONE", ValueType::kBigInt, 0, false).Column("CONTESTANT", ValueType::kInteger);
  c.Table("CONTESTANTS").Column("ID", ValueType::kInteger, 0, false);
  c.Statement("AddVote.SQL", c.InsertParams("VOTES"), {ValueType::kBigInt, ValueType::kInteger});
  proto::CatalogFile file;
  file.set_compiler_version("0.1.0");
  *file.mutable_catalog() = c.catalog();
  proto::Procedure* add = file.add_procedures();
  add->set_name("AddVote");
  proto::ProcedureStatement* statement = add->add_statements();
  statement->set_name("AddVote.SQL");
  statement->set_distribution(proto::DISTRIBUTION_SINGLE_PARTITION);
  add->set_single_statement(true);
  add->set_single_partition(true);
  add->set_partition_parameter(0);
  add->set_partition_table("VOTES");
  add->set_partition_column("PHONE");
  add->set_partition_type(proto::VALUE_TYPE_BIGINT);
  return file;
}

TEST(CatalogFileTest, ReadsTablesProceduresAndACatalogTheEngineOpens) {
  Result<CatalogFile> file = CatalogFile::Parse(FileBytes(VoterFile()), "voter.catalog");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->compiler_version(), "0.1.0");
  ASSERT_EQ(file->tables().size(), 2u);
  EXPECT_EQ(file->FindTable("votes")->partition_column, "PHONE");
  EXPECT_TRUE(file->FindTable("CONTESTANTS")->replicated());
  const ProcedureInfo* add = file->FindProcedure("addvote");
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->single_statement);
  EXPECT_EQ(add->partition_parameter, 0);
  EXPECT_EQ(add->partition_type, ValueType::kBigInt);
  EXPECT_EQ(file->FindProcedure("Nope"), nullptr);

  Result<std::unique_ptr<Engine>> engine = Engine::Open(file->catalog_bytes(), EngineOptions{});
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  EXPECT_EQ(add->statements[0].distribution, Distribution::kSinglePartition);
  Result<StatementId> id = engine.value()->FindStatement(add->statements[0].name);
  ASSERT_TRUE(id.ok());
  const Value params[] = {Value::BigInt(6175551234), Value::Integer(3)};
  const StatementCall call{id.value(), params};
  ResultSet results;
  ASSERT_TRUE(engine.value()->ExecuteBatch({&call, 1}, BatchOptions{}, &results).ok());
  EXPECT_EQ(ResultTableReader::Parse(results.table(0)).value().ScalarInt(), 1);
}

TEST(CatalogFileTest, RefusesAnotherFormatVersionNamingBoth) {
  for (const uint32_t version : {0u, 2u, 0xffffffffu}) {
    Result<CatalogFile> file = CatalogFile::Parse(FileBytes(VoterFile(), version), "old.catalog");
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.status().code(), error::kBadCatalog);
    EXPECT_NE(file.status().message().find("old.catalog: catalog file format version " + std::to_string(version) +
                                           " is not supported"),
              std::string::npos)
        << file.status().message();
    EXPECT_NE(file.status().message().find("reads version 1"), std::string::npos);
  }
}

TEST(CatalogFileTest, RefusesARawCatalogOrAnyOtherFile) {
  for (const std::string& bytes : {VoterFile().catalog().SerializeAsString(), std::string(), std::string("PARTITA")}) {
    Result<CatalogFile> file = CatalogFile::Parse(bytes, "x.pb");
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.status().code(), error::kBadCatalog);
    EXPECT_NE(file.status().message().find("x.pb: not a Partita catalog file"), std::string::npos)
        << file.status().message();
  }
}

TEST(CatalogFileTest, RefusesATruncatedFileAndTrailingBytes) {
  const std::string bytes = FileBytes(VoterFile());
  Result<CatalogFile> truncated = CatalogFile::Parse(bytes.substr(0, bytes.size() - 1), "t.catalog");
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("truncated"), std::string::npos) << truncated.status().message();
  Result<CatalogFile> header_only = CatalogFile::Parse(bytes.substr(0, 20), "t.catalog");
  ASSERT_FALSE(header_only.ok());
  EXPECT_NE(header_only.status().message().find("shorter than the 28-byte header"), std::string::npos);
  Result<CatalogFile> longer = CatalogFile::Parse(bytes + "x", "t.catalog");
  ASSERT_FALSE(longer.ok());
  EXPECT_NE(longer.status().message().find("corrupt"), std::string::npos) << longer.status().message();
}

TEST(CatalogFileTest, RefusesADamagedPayload) {
  std::string bytes = FileBytes(VoterFile());
  bytes[kCatalogFileHeaderSize] = '\xff';  // no valid field tag
  Result<CatalogFile> file = CatalogFile::Parse(bytes, "d.catalog");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), error::kBadCatalog);
  EXPECT_NE(file.status().message().find("not a valid CatalogFile message"), std::string::npos)
      << file.status().message();
}

TEST(CatalogFileTest, RefusesAProcedureNamingAMissingStatement) {
  proto::CatalogFile message = VoterFile();
  message.mutable_procedures(0)->mutable_statements(0)->set_name("AddVote.Gone");
  Result<CatalogFile> file = CatalogFile::Parse(FileBytes(message), "m.catalog");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find("procedure AddVote names statement AddVote.Gone"), std::string::npos)
      << file.status().message();
}

TEST(CatalogFileTest, AnEngineRefusesACatalogOfAnotherEngineFormat) {
  proto::CatalogFile message = VoterFile();
  message.mutable_catalog()->set_format_version(7);
  Result<CatalogFile> file = CatalogFile::Parse(FileBytes(message), "v.catalog");
  ASSERT_TRUE(file.ok());
  Result<std::unique_ptr<Engine>> engine = Engine::Open(file->catalog_bytes(), EngineOptions{});
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), error::kBadCatalog);
  EXPECT_NE(engine.status().message().find("format version 7"), std::string::npos) << engine.status().message();
}

TEST(CatalogFileTest, ReadsAFileAndNamesOneThatIsMissing) {
  const std::string path = ::testing::TempDir() + "/catalog_file_test.catalog";
  {
    std::ofstream out(path, std::ios::binary);
    out << FileBytes(VoterFile());
  }
  Result<CatalogFile> file = CatalogFile::Read(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->procedures().size(), 1u);
  std::remove(path.c_str());
  Result<CatalogFile> missing = CatalogFile::Read(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), error::kNotFound);
  EXPECT_NE(missing.status().message().find(path), std::string::npos);
}

}  // namespace
}  // namespace partita
