// SortExecutor: materializes the child's rows and returns them ordered by
// the sort keys (stable; each key's nulls_last says where NULLs go).
#ifndef PARTITA_EXEC_SORT_EXECUTOR_H_
#define PARTITA_EXEC_SORT_EXECUTOR_H_

#include "exec/executor.h"

namespace partita {

class SortExecutor final : public Executor {
 public:
  struct Key {
    std::unique_ptr<Expression> expression;
    bool descending = false;
    bool nulls_last = false;
  };
  SortExecutor(std::unique_ptr<Executor> child, std::vector<Key> keys);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  // Each stored row is width() values followed by the key values.
  std::vector<Key> keys_;
  std::vector<const Value*> rows_;
  size_t next_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_SORT_EXECUTOR_H_
