// ProjectionExecutor: one computed row per child row.
#ifndef PARTITA_EXEC_PROJECTION_EXECUTOR_H_
#define PARTITA_EXEC_PROJECTION_EXECUTOR_H_

#include "exec/executor.h"

namespace partita {

class ProjectionExecutor final : public Executor {
 public:
  ProjectionExecutor(std::unique_ptr<Executor> child, std::vector<std::unique_ptr<Expression>> columns);

 protected:
  Status OpenImpl() override { return child(0)->Open(ctx_); }
  Status NextImpl(const Value** row) override;

 private:
  std::vector<std::unique_ptr<Expression>> columns_;
  std::vector<Value> row_;
};

}  // namespace partita

#endif  // PARTITA_EXEC_PROJECTION_EXECUTOR_H_
