#include "exec/receive_executor.h"

#include <string>

#include "errors.pb.h"

namespace partita {

ReceiveExecutor::ReceiveExecutor(int32_t dependency_id, std::vector<ValueType> types)
    : Executor(Kind::kOther, static_cast<int>(types.size())),
      dependency_id_(dependency_id),
      types_(std::move(types)),
      row_(types_.size()) {}

Status ReceiveExecutor::CheckSchema(const ResultTableReader& table, int ordinal) const {
  const std::string which =
      "RECEIVE: dependency " + std::to_string(dependency_id_) + " table " + std::to_string(ordinal);
  if (table.column_count() != width()) {
    return Status(proto::ERROR_CODE_BAD_REQUEST, which + " has " + std::to_string(table.column_count()) +
                                                     " columns, the plan expects " + std::to_string(width()));
  }
  for (int c = 0; c < width(); ++c) {
    if (table.column_type(c) != types_[c]) {
      return Status(proto::ERROR_CODE_BAD_REQUEST, which + " column " + std::to_string(c) + " (" +
                                                       std::string(table.column_name(c)) + ") is " +
                                                       std::string(TypeName(table.column_type(c))) +
                                                       ", the plan expects " + std::string(TypeName(types_[c])));
    }
  }
  return Status::OK();
}

Status ReceiveExecutor::OpenImpl() {
  table_ = 0;
  next_row_ = 0;
  int found = 0;
  for (const ReceivedTable& t : *ctx_->received) {
    if (t.dependency_id != dependency_id_) continue;
    PARTITA_RETURN_IF_ERROR(CheckSchema(t.table, found));
    ++found;
  }
  if (found == 0) {
    return Status(proto::ERROR_CODE_BAD_REQUEST,
                  "RECEIVE: the batch has no table with dependency id " + std::to_string(dependency_id_));
  }
  return Status::OK();
}

Status ReceiveExecutor::NextImpl(const Value** row) {
  const std::vector<ReceivedTable>& tables = *ctx_->received;
  for (; table_ < tables.size(); ++table_, next_row_ = 0) {
    const ReceivedTable& t = tables[table_];
    if (t.dependency_id != dependency_id_ || next_row_ >= t.table.row_count()) continue;
    t.table.GetRow(next_row_++, row_.data());
    *row = row_.data();
    return Status::OK();
  }
  *row = nullptr;
  return Status::OK();
}

}  // namespace partita
