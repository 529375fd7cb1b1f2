#include "verifier.h"

#include <algorithm>
#include <future>

#include "split_random.h"

namespace partita::bench::kv {
namespace {

std::string Describe(const std::vector<int64_t>& candidates) {
  if (candidates.empty()) return "(none recorded)";
  std::string s;
  for (size_t i = 0; i < candidates.size(); ++i) s += (i == 0 ? "" : " or ") + std::to_string(candidates[i]);
  return s;
}

}  // namespace

Verifier::Verifier(client::Client* client, const KeySpace* keys, const ValueFactory* values, const WriteLog* writes)
    : client_(client), keys_(keys), values_(values), writes_(writes) {}

std::vector<int> Verifier::Sample(int64_t sample_size, int64_t recent_since_ns, int64_t seed) const {
  std::vector<bool> chosen(static_cast<size_t>(keys_->count()), false);
  SplitRandom random(seed);
  const int64_t wanted = std::min<int64_t>(sample_size, keys_->count());
  for (int64_t n = 0; n < wanted;) {
    const auto key = static_cast<size_t>(random.NextInt(keys_->count()));
    if (!chosen[key]) {
      chosen[key] = true;
      ++n;
    }
  }
  std::vector<int> sample;
  for (int key = 0; key < keys_->count(); ++key) {
    if (chosen[static_cast<size_t>(key)] || writes_->LastAcknowledged(key) >= recent_since_ns) sample.push_back(key);
  }
  return sample;
}

Verifier::Result Verifier::Verify(int64_t sample_size, int64_t recent_since_ns, int64_t seed) {
  Result result;
  std::vector<std::pair<int, std::future<client::Result<client::Response>>>> answers;
  for (const int key : Sample(sample_size, recent_since_ns, seed)) {
    if (writes_->IsUncertain(key)) {
      ++result.unverifiable;
      continue;
    }
    answers.emplace_back(key, client_->CallFuture("Get", {keys_->Key(key)}));
  }
  for (auto& [key, answer] : answers) {
    ++result.checked;
    const std::string problem = CheckAnswer(key, answer.get());
    if (problem.empty()) continue;
    ++result.mismatches;
    if (result.examples.size() < kMaxExamples) result.examples.push_back(problem);
  }
  return result;
}

std::string Verifier::CheckAnswer(int key, const client::Result<client::Response>& answer) const {
  const std::string name = keys_->Key(key);
  if (!answer.ok()) return name + ": Get failed: " + answer.status().ToString();
  if (!answer->ok()) return name + ": Get answered " + answer->ToString();
  if (answer->results.empty()) return name + ": Get answered no table";
  const client::ResultTable& t = answer->results[0];
  const bool found = t.row_count() > 0;
  std::optional<std::string_view> value;
  if (found && t.column_count() > 0 && !t.IsNull(0, 0)) value = t.GetBytes(0, 0);
  return CheckValue(name, *values_, writes_->Candidates(key), found, value);
}

std::string Verifier::CheckValue(const std::string& key_name, const ValueFactory& values,
                                 const std::vector<int64_t>& candidates, bool found,
                                 std::optional<std::string_view> value) {
  if (candidates.empty()) return key_name + ": the driver recorded no acknowledged write of this key";
  if (!found) return key_name + ": no row, expected the value of write " + Describe(candidates);
  const int64_t sequence = value ? ValueFactory::SequenceOf(*value) : -1;
  for (const int64_t candidate : candidates) {
    if (value && candidate == sequence && values.IsValueOf(*value, candidate)) return "";
  }
  return key_name + ": holds " +
         (value ? std::to_string(value->size()) + " bytes of write " + std::to_string(sequence) : "NULL") +
         ", expected the value of write " + Describe(candidates);
}

}  // namespace partita::bench::kv
