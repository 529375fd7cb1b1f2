// CompiledStatement: a catalog statement ready to run — its executor tree,
// declared parameter types and encoded result header, and, for the shapes
// that have one, the dedicated path chosen at compile time that runs in
// place of the tree (a point lookup, a one-row insert of parameters).
// Thread model: partition-confined (executors keep per-execution state).
#ifndef PARTITA_CATALOG_COMPILED_STATEMENT_H_
#define PARTITA_CATALOG_COMPILED_STATEMENT_H_

#include <memory>
#include <string>
#include <vector>

#include "exec/executor.h"
#include "exec/parameter_insert.h"
#include "exec/point_lookup.h"
#include "exec/result_writer.h"

namespace partita {

struct CompiledStatement {
  std::string name;
  std::vector<ValueType> parameter_types;
  std::unique_ptr<Executor> root;
  // At most one is set; it runs instead of `root` (same results).
  std::unique_ptr<PointLookup> point_lookup;
  std::unique_ptr<ParameterInsert> parameter_insert;
  ResultHeader result_header;
  bool read_only = false;
};

}  // namespace partita

#endif  // PARTITA_CATALOG_COMPILED_STATEMENT_H_
