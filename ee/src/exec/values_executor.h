// ValuesExecutor: literal rows (INSERT ... VALUES, SELECT without FROM),
// evaluated over the parameters only.
#ifndef PARTITA_EXEC_VALUES_EXECUTOR_H_
#define PARTITA_EXEC_VALUES_EXECUTOR_H_

#include "exec/executor.h"

namespace partita {

class ValuesExecutor final : public Executor {
 public:
  ValuesExecutor(int width, std::vector<std::vector<std::unique_ptr<Expression>>> rows);

 protected:
  Status OpenImpl() override {
    next_ = 0;
    return Status::OK();
  }
  Status NextImpl(const Value** row) override;

 private:
  std::vector<std::vector<std::unique_ptr<Expression>>> rows_;
  std::vector<Value> row_;
  size_t next_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_VALUES_EXECUTOR_H_
