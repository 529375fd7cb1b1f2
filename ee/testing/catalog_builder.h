// Test helpers: build proto catalogs and plans in a few lines. Test-only;
// never linked into production code.
#ifndef PARTITA_TESTING_CATALOG_BUILDER_H_
#define PARTITA_TESTING_CATALOG_BUILDER_H_

#include <initializer_list>
#include <string>
#include <vector>

#include "catalog.pb.h"
#include "partita/value.h"

namespace partita::testing {

proto::Expression Col(int index, ValueType type);
proto::Expression Param(int index, ValueType type);
proto::Expression ConstInt(int64_t v, ValueType type = ValueType::kBigInt);
proto::Expression ConstString(const std::string& s);
// A binary expression of `kind` with result `type`.
proto::Expression Binary(proto::ExpressionKind kind, proto::Expression a, proto::Expression b,
                         ValueType type = ValueType::kBoolean);

class CatalogBuilder {
 public:
  CatalogBuilder() { catalog_.set_format_version(1); }

  // Starts a table; later Column/Index calls apply to it.
  CatalogBuilder& Table(const std::string& name, int partition_column = -1);
  CatalogBuilder& Column(const std::string& name, ValueType type, int max_length = 0, bool nullable = true);
  CatalogBuilder& Index(const std::string& name, std::vector<int> columns, proto::IndexKind kind, bool unique,
                        bool primary_key = false);
  // A view on `source`: columns are group-by copies then aggregates; adds
  // the unique hash index on the group columns.
  struct ViewAggregate {
    proto::AggregateKind kind;
    int source_column;
    std::string name;
  };
  CatalogBuilder& View(const std::string& name, const std::string& source, std::vector<int> group_by,
                       std::vector<ViewAggregate> aggregates);
  CatalogBuilder& Statement(const std::string& name, proto::PlanNode plan, std::vector<ValueType> params);

  proto::Catalog& catalog() { return catalog_; }
  const proto::Table& table(const std::string& name) const;

  // Plans over this catalog's tables.
  proto::PlanNode SeqScan(const std::string& table) const;
  proto::PlanNode SeqScanWhere(const std::string& table, proto::Expression predicate) const;
  proto::PlanNode IndexLookup(const std::string& table, const std::string& index,
                              std::vector<proto::Expression> key) const;
  // Range on an ordered index; empty bound vectors = unbounded.
  proto::PlanNode IndexRange(const std::string& table, const std::string& index, std::vector<proto::Expression> lower,
                             bool lower_inclusive, std::vector<proto::Expression> upper, bool upper_inclusive,
                             bool backward = false) const;
  // INSERT INTO table VALUES (?, ?, ...): parameters in column order.
  proto::PlanNode InsertParams(const std::string& table, bool upsert = false) const;
  proto::PlanNode Delete(const std::string& table, proto::PlanNode scan) const;
  proto::PlanNode Update(const std::string& table, proto::PlanNode scan,
                         std::vector<std::pair<int, proto::Expression>> assignments) const;
  // Parameter types of `table`'s columns, in order.
  std::vector<ValueType> ColumnTypes(const std::string& table) const;

  std::string Serialize() const { return catalog_.SerializeAsString(); }

 private:
  proto::Catalog catalog_;
  proto::Table* current_ = nullptr;
};

// Wraps `child` in a projection of the given columns of its output.
proto::PlanNode Project(proto::PlanNode child, std::vector<int> columns);
proto::PlanNode DmlCountSchema(proto::PlanNode node);

// More constants: FLOAT, DECIMAL (exact text), VARBINARY, a typed NULL, and
// any Value (its type's constant form).
proto::Expression ConstFloat(double v);
proto::Expression ConstDecimal(const std::string& text);
proto::Expression ConstBytes(const std::string& bytes);
proto::Expression ConstNull(ValueType type);
proto::Expression ConstValue(const Value& v);
// An expression of `kind` over `children` with result `type`.
proto::Expression Op(proto::ExpressionKind kind, std::vector<proto::Expression> children, ValueType type);

// A plan node of `kind` over `children` producing columns (name, type).
using OutputColumns = std::vector<std::pair<std::string, ValueType>>;
proto::PlanNode Node(proto::PlanNodeKind kind, std::vector<proto::PlanNode> children, const OutputColumns& columns);
// VALUES with one row per inner vector.
proto::PlanNode ValuesNode(std::vector<std::vector<proto::Expression>> rows, const OutputColumns& columns);
// A projection of `columns` expressions (one per output column).
proto::PlanNode ProjectExprs(proto::PlanNode child, std::vector<proto::Expression> exprs, const OutputColumns& columns);

}  // namespace partita::testing

#endif  // PARTITA_TESTING_CATALOG_BUILDER_H_
