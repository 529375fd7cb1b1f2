#include "index/table_index.h"

#include "errors.pb.h"

namespace partita {

Status TableIndex::DuplicateKeyError(const char* tuple) const {
  std::string key_text;
  for (int i = 0; i < key_.size(); ++i) {
    if (i > 0) key_text += ", ";
    key_text += key_.schema().column(key_.column(i)).name + "=" + key_.Get(tuple, i).ToString();
  }
  return Status(proto::ERROR_CODE_CONSTRAINT_VIOLATION,
                "unique constraint " + constraint_name_ + " violated: key (" + key_text + ") already exists");
}

}  // namespace partita
