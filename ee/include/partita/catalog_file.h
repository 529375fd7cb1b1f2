// CatalogFile: a compiled schema as `partita compile ddl.sql -o app.catalog`
// writes it — tables, indexes, materialized views, every planned statement,
// and the procedures with how each call is routed — read and checked before
// any engine is opened.
//
// File layout (docs/embedding.md, "The catalog file"), little-endian:
//   magic          16 bytes, "PARTITA CATALOG\n"
//   format_version u32, kCatalogFileFormatVersion for this release
//   payload_size   u64, bytes after this field
//   payload        a proto CatalogFile message (proto/catalog.proto)
// A reader refuses any other format version: a catalog is compiled by the
// release of Partita whose engine loads it.
//
// Thread model: an immutable value after Read/Parse; share it freely and
// open any number of engines from catalog_bytes().
#ifndef PARTITA_CATALOG_FILE_H_
#define PARTITA_CATALOG_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partita/status.h"
#include "partita/value_type.h"

namespace partita {

// The magic bytes that open a catalog file.
inline constexpr std::string_view kCatalogFileMagic{"PARTITA CATALOG\n", 16};
// The catalog file format this engine reads and `partita compile` of the
// same release writes.
inline constexpr uint32_t kCatalogFileFormatVersion = 1;
// Bytes of the header before the payload.
inline constexpr size_t kCatalogFileHeaderSize = 16 + 4 + 8;

// One table or materialized view of the catalog.
struct TableInfo {
  std::string name;
  std::vector<std::string> columns;
  // The partitioning column, or empty for a table replicated to every
  // partition. A view lives with its source table's rows.
  std::string partition_column;
  bool is_view = false;
  bool replicated() const { return partition_column.empty(); }
};

// Where a procedure's statement runs (numbered as proto Distribution).
enum class Distribution : uint8_t {
  kUnspecified = 0,
  // On the partition of the procedure's partitioning parameter.
  kSinglePartition = 1,
  // Reads only replicated tables: on any one partition.
  kAnyPartition = 2,
  // Each fragment on every partition, then the statement once on any
  // partition with the fragments' result tables as BatchOptions::dependencies.
  kEveryPartition = 3,
  // Writes a replicated table: on every partition.
  kReplicatedWrite = 4,
  // An INSERT of several rows of a partitioned table: each partition runs
  // it with only its own rows.
  kRoutedInsert = 5,
};

// A plan run on every partition before a kEveryPartition statement.
struct FragmentInfo {
  std::string name;  // for Engine::FindStatement
  int32_t dependency_id = 0;  // DependencyTable::dependency_id of its result
};

// One statement of a procedure.
struct StatementInfo {
  std::string name;  // for Engine::FindStatement
  Distribution distribution = Distribution::kUnspecified;
  std::vector<FragmentInfo> fragments;  // kEveryPartition only
};

// One procedure of the schema (proto Procedure documents each field).
struct ProcedureInfo {
  std::string name;
  // Its statements, in declaration order.
  std::vector<StatementInfo> statements;
  // A CREATE PROCEDURE ... AS <statement>: run statements[0] with the
  // call's parameters. Otherwise a Java class (class_name) whose logic an
  // embedding program writes itself around the statements.
  bool single_statement = false;
  std::string class_name;
  // The parameter (0-based) whose value picks the partition, or -1 for a
  // multi-partition procedure.
  int partition_parameter = -1;
  std::string partition_table;
  std::string partition_column;
  ValueType partition_type = ValueType::kInvalid;
  bool single_partition() const { return partition_parameter >= 0; }
};

class CatalogFile {
 public:
  // Reads and checks the catalog file at `path`. Returns NOT_FOUND if it
  // cannot be read, BAD_CATALOG naming the file and what is wrong otherwise
  // (not a catalog file, another format version, truncated, a malformed
  // payload, a procedure naming a missing statement).
  static Result<CatalogFile> Read(const std::string& path);
  // The same from the file's bytes; `source` names them in errors.
  static Result<CatalogFile> Parse(std::string_view bytes, std::string_view source);

  // The serialized catalog each partition's engine opens:
  // Engine::Open(file.catalog_bytes(), options) or
  // PartitionRunner::Start(file.catalog_bytes(), partitions).
  const std::string& catalog_bytes() const { return catalog_bytes_; }
  // The version of Partita that compiled it (may be empty).
  const std::string& compiler_version() const { return compiler_version_; }
  const std::vector<TableInfo>& tables() const { return tables_; }
  const std::vector<ProcedureInfo>& procedures() const { return procedures_; }
  // Names of every statement, in catalog order (a StatementId is a
  // position in this list).
  const std::vector<std::string>& statement_names() const { return statement_names_; }

  // The table or procedure called `name` (case-insensitive), or nullptr.
  // The pointer lives as long as this CatalogFile.
  const TableInfo* FindTable(std::string_view name) const;
  const ProcedureInfo* FindProcedure(std::string_view name) const;

 private:
  CatalogFile() = default;

  std::string catalog_bytes_;
  std::string compiler_version_;
  std::vector<TableInfo> tables_;
  std::vector<ProcedureInfo> procedures_;
  std::vector<std::string> statement_names_;
};

}  // namespace partita

#endif  // PARTITA_CATALOG_FILE_H_
