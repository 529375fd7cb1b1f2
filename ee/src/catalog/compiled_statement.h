// CompiledStatement: a catalog statement ready to run — its executor tree,
// declared parameter types and encoded result header.
// Thread model: partition-confined (executors keep per-execution state).
#ifndef PARTITA_CATALOG_COMPILED_STATEMENT_H_
#define PARTITA_CATALOG_COMPILED_STATEMENT_H_

#include <memory>
#include <string>
#include <vector>

#include "exec/executor.h"
#include "exec/result_writer.h"

namespace partita {

struct CompiledStatement {
  std::string name;
  std::vector<ValueType> parameter_types;
  std::unique_ptr<Executor> root;
  ResultHeader result_header;
  bool read_only = false;
};

}  // namespace partita

#endif  // PARTITA_CATALOG_COMPILED_STATEMENT_H_
