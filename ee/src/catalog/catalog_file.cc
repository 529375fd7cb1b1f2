// Reading and checking catalog files (partita/catalog_file.h).
#include "partita/catalog_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "catalog.pb.h"
#include "errors.pb.h"
#include "partita/version.h"

namespace partita {
namespace {

uint64_t ReadLittleEndian(std::string_view bytes, size_t offset, int size) {
  uint64_t v = 0;
  for (int i = size - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[offset + static_cast<size_t>(i)]);
  return v;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Status Bad(std::string_view source, const std::string& what) {
  return Status(proto::ERROR_CODE_BAD_CATALOG, std::string(source) + ": " + what);
}

// Checks the header; on success `*payload` is the CatalogFile message.
Status CheckHeader(std::string_view bytes, std::string_view source, std::string_view* payload) {
  const std::string rewrite = "; write it with `partita compile DDL -o FILE` of Partita " PARTITA_VERSION_STRING;
  if (bytes.size() < kCatalogFileMagic.size() || bytes.substr(0, kCatalogFileMagic.size()) != kCatalogFileMagic) {
    return Bad(source, "not a Partita catalog file (it does not start with \"PARTITA CATALOG\")" + rewrite);
  }
  if (bytes.size() < kCatalogFileHeaderSize) {
    return Bad(source, "truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                           std::to_string(kCatalogFileHeaderSize) + "-byte header");
  }
  const uint64_t version = ReadLittleEndian(bytes, kCatalogFileMagic.size(), 4);
  if (version != kCatalogFileFormatVersion) {
    return Bad(source, "catalog file format version " + std::to_string(version) + " is not supported: Partita " +
                           PARTITA_VERSION_STRING + " reads version " +
                           std::to_string(kCatalogFileFormatVersion) + " only" + rewrite);
  }
  const uint64_t payload_size = ReadLittleEndian(bytes, kCatalogFileMagic.size() + 4, 8);
  const uint64_t actual = bytes.size() - kCatalogFileHeaderSize;
  if (payload_size != actual) {
    return Bad(source, (actual < payload_size ? "truncated: the header announces " : "corrupt: the header announces ") +
                           std::to_string(payload_size) + " payload bytes, the file holds " + std::to_string(actual));
  }
  *payload = bytes.substr(kCatalogFileHeaderSize);
  return Status::OK();
}

Status CheckStatementExists(const std::vector<std::string>& names, const std::string& procedure,
                            const std::string& statement, std::string_view source) {
  if (std::find(names.begin(), names.end(), statement) != names.end()) return Status::OK();
  return Bad(source, "procedure " + procedure + " names statement " + statement + ", which the catalog lacks");
}

TableInfo ToTableInfo(const proto::Table& t) {
  TableInfo info;
  info.name = t.name();
  for (const proto::Column& c : t.columns()) info.columns.push_back(c.name());
  info.is_view = t.has_view();
  if (!info.is_view && t.partition_column() >= 0 && t.partition_column() < t.columns_size()) {
    info.partition_column = t.columns(t.partition_column()).name();
  }
  return info;
}

static_assert(static_cast<int>(Distribution::kRoutedInsert) == proto::DISTRIBUTION_ROUTED_INSERT &&
              static_cast<int>(Distribution::kReplicatedWrite) == proto::DISTRIBUTION_REPLICATED_WRITE &&
              static_cast<int>(Distribution::kEveryPartition) == proto::DISTRIBUTION_EVERY_PARTITION &&
              static_cast<int>(Distribution::kAnyPartition) == proto::DISTRIBUTION_ANY_PARTITION &&
              static_cast<int>(Distribution::kSinglePartition) == proto::DISTRIBUTION_SINGLE_PARTITION &&
              proto::Distribution_MAX == proto::DISTRIBUTION_ROUTED_INSERT,
              "catalog_file.h numbers Distribution as catalog.proto does");

StatementInfo ToStatementInfo(const proto::ProcedureStatement& s) {
  StatementInfo info;
  info.name = s.name();
  info.distribution = static_cast<Distribution>(s.distribution());
  for (const proto::Fragment& f : s.fragments()) info.fragments.push_back({f.name(), f.dependency_id()});
  return info;
}

ProcedureInfo ToProcedureInfo(const proto::Procedure& p) {
  ProcedureInfo info;
  info.name = p.name();
  for (const proto::ProcedureStatement& s : p.statements()) info.statements.push_back(ToStatementInfo(s));
  info.single_statement = p.single_statement();
  info.class_name = p.class_name();
  if (p.single_partition()) {
    info.partition_parameter = p.partition_parameter();
    info.partition_table = p.partition_table();
    info.partition_column = p.partition_column();
    info.partition_type = FromProto(p.partition_type());
  }
  return info;
}

}  // namespace

Result<CatalogFile> CatalogFile::Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(proto::ERROR_CODE_NOT_FOUND, "cannot read catalog file " + path + ": " + std::strerror(errno));
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return Status(proto::ERROR_CODE_NOT_FOUND, "cannot read catalog file " + path);
  return Parse(contents.str(), path);
}

Result<CatalogFile> CatalogFile::Parse(std::string_view bytes, std::string_view source) {
  std::string_view payload;
  PARTITA_RETURN_IF_ERROR(CheckHeader(bytes, source, &payload));
  proto::CatalogFile message;
  if (!message.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
    return Bad(source, "the payload is not a valid CatalogFile message (a damaged file?)");
  }
  if (!message.has_catalog()) return Bad(source, "the payload holds no catalog");
  CatalogFile file;
  file.compiler_version_ = message.compiler_version();
  for (const proto::Table& t : message.catalog().tables()) file.tables_.push_back(ToTableInfo(t));
  for (const proto::Statement& s : message.catalog().statements()) file.statement_names_.push_back(s.name());
  for (const proto::Procedure& p : message.procedures()) {
    for (const proto::ProcedureStatement& statement : p.statements()) {
      if (!proto::Distribution_IsValid(statement.distribution())) {
        return Bad(source, "statement " + statement.name() + " has an unknown distribution " +
                               std::to_string(statement.distribution()));
      }
      PARTITA_RETURN_IF_ERROR(CheckStatementExists(file.statement_names_, p.name(), statement.name(), source));
      for (const proto::Fragment& f : statement.fragments()) {
        PARTITA_RETURN_IF_ERROR(CheckStatementExists(file.statement_names_, p.name(), f.name(), source));
      }
    }
    if (p.single_statement() && p.statements_size() != 1) {
      return Bad(source, "single-statement procedure " + p.name() + " has " + std::to_string(p.statements_size()) +
                             " statements");
    }
    file.procedures_.push_back(ToProcedureInfo(p));
  }
  file.catalog_bytes_ = message.catalog().SerializeAsString();
  return file;
}

const TableInfo* CatalogFile::FindTable(std::string_view name) const {
  for (const TableInfo& t : tables_) {
    if (EqualsIgnoreCase(t.name, name)) return &t;
  }
  return nullptr;
}

const ProcedureInfo* CatalogFile::FindProcedure(std::string_view name) const {
  for (const ProcedureInfo& p : procedures_) {
    if (EqualsIgnoreCase(p.name, name)) return &p;
  }
  return nullptr;
}

const char* EngineVersion() { return PARTITA_VERSION_STRING; }

}  // namespace partita
