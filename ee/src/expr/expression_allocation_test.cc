// Checks that evaluating common expressions allocates nothing on the heap:
// this binary replaces the global operator new to count allocations.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "expr/expression.h"
#include "expr/expression_test_helpers.h"
#include "plan.pb.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// GCC sees malloc in operator new and free in operator delete after inlining
// and warns of a mismatch; the pair is consistent by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace partita {
namespace {

using namespace testing_expr;  // NOLINT: test vocabulary

constexpr auto kBool = pb::VALUE_TYPE_BOOLEAN;
constexpr auto kBig = pb::VALUE_TYPE_BIGINT;
constexpr auto kText = pb::VALUE_TYPE_VARCHAR;

// Returns the heap allocations of evaluating `e` 1000 times over `h`.
long AllocationsOfEval(Harness& h, const Expr& e) {
  Result<std::unique_ptr<Expression>> built = h.Build(e);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  if (!built.ok()) return -1;
  const EvalContext ctx = h.Context();
  const long before = g_allocations.load();
  for (int i = 0; i < 1000; ++i) {
    Value out;
    Status s = built.value()->Eval(ctx, &out);
    if (!s.ok()) return -2;
  }
  return g_allocations.load() - before;
}

TEST(ExpressionAllocationTest, HotPathsDoNotAllocate) {
  Harness h;
  h.row = {Value::BigInt(5), Value::Varchar("abcdef"), Value::Integer(7)};
  h.params = {Value::BigInt(3)};
  h.arena.Allocate(1);  // the arena's first block, reused afterwards
  const Expr sum = Node(pb::EXPRESSION_KIND_ADD, kBig, {Col(0, kBig), Param(0, kBig)});
  const Expr compare = Node(pb::EXPRESSION_KIND_GREATER, kBool, {sum, Col(2, pb::VALUE_TYPE_INTEGER)});
  const Expr like = Node(pb::EXPRESSION_KIND_LIKE, kBool, {Col(1, kText), Str("abc%")});
  const Expr general_like = Node(pb::EXPRESSION_KIND_LIKE, kBool, {Col(1, kText), Str("a_c%f")});
  const Expr in = Node(pb::EXPRESSION_KIND_IN_LIST, kBool, {Col(0, kBig), Int(1), Int(5), Null(kBig)});
  const Expr both = Node(pb::EXPRESSION_KIND_AND, kBool, {compare, like, in, general_like});
  const Expr decimal = Node(pb::EXPRESSION_KIND_MULTIPLY, pb::VALUE_TYPE_DECIMAL, {Col(0, kBig), Dec("1.5")});
  const Expr substring = Fn(pb::FUNCTION_SUBSTRING, kText, {Col(1, kText), Int(2), Int(3)});
  const Expr year = Fn(pb::FUNCTION_EXTRACT_YEAR, kBig, {Ts(0)});
  for (const Expr* e : {&sum, &compare, &like, &general_like, &in, &both, &decimal, &substring, &year}) {
    EXPECT_EQ(AllocationsOfEval(h, *e), 0) << e->DebugString();
  }
}

}  // namespace
}  // namespace partita
