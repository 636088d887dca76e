// The graph-building API, named as in TensorFlow's C++ API: Operation, Output, Input
// (with nested initializer lists), InputList and Scope. Building never throws or aborts:
// an error is recorded in the scope's shared status (scope.status()), later ops built on a
// failed input are skipped, and Session::Run reports the first error.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "rill/core/graph.h"

namespace rill {

class Output;

class Operation {
 public:
  Operation() = default;
  explicit Operation(Node* n) : node_(n) {}
  Node* node() const { return node_; }
  std::string name() const { return node_ ? node_->name() : ""; }
  int num_outputs() const { return node_ ? node_->num_outputs() : 0; }
  DataType output_type(int i) const { return node_->output_type(i); }
  bool operator==(const Operation& o) const { return node_ == o.node_; }

 private:
  Node* node_ = nullptr;
};

class Output {
 public:
  Output() = default;
  Output(Node* n, int index = 0) : node_(n), index_(index) {}  // NOLINT
  Output(const Operation& op, int index) : node_(op.node()), index_(index) {}
  Node* node() const { return node_; }
  int index() const { return index_; }
  Operation op() const { return Operation(node_); }
  // DT_INVALID and an unknown shape for an index the node does not have.
  DataType type() const { return valid() ? node_->output_type(index_) : DT_INVALID; }
  // A reference into the node (or to an unknown shape), so dim_sizes() spans stay valid.
  const PartialTensorShape& shape() const {
    static const PartialTensorShape kUnknown;
    return valid() ? node_->output_shape(index_) : kUnknown;
  }
  // A node that has an output at this index.
  bool valid() const { return node_ != nullptr && node_->has_output(index_); }
  std::string name() const;  // "node:0"
  bool operator==(const Output& o) const { return node_ == o.node_ && index_ == o.index_; }

 private:
  Node* node_ = nullptr;
  int index_ = 0;
};

struct OutputHash {
  size_t operator()(const Output& o) const {
    return std::hash<const void*>()(o.node()) * 31 + static_cast<size_t>(o.index());
  }
};
using OutputList = std::vector<Output>;

namespace ops {
class OpWrapper;
}  // namespace ops
class GraphDef;

class Input {
 public:
  // A constant: a scalar, a Tensor, or nested initializer lists ({{1.f, 2.f}, {3.f, 4.f}}).
  // int literals become int32, float float, double double, bool bool, uint8_t uint8.
  // An empty {} is a float tensor of shape [0], as in TensorFlow ({{}} is [1, 0]).
  struct Initializer {
    Initializer() : tensor(DT_FLOAT, TensorShape({0})) {}
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    Initializer(const T& v) {  // NOLINT
      tensor = Tensor(static_cast<typename Canonical<T>::type>(v));
    }
    // A complex64 scalar: a constant no op takes (rill has no complex kernels), kept so
    // that a program mentioning one compiles and fails with a Status where it is used.
    Initializer(const complex64& v) : tensor(v) {}             // NOLINT
    Initializer(const Tensor& t);                              // NOLINT
    Initializer(const std::initializer_list<Initializer>& v);  // NOLINT
    // Values laid out in `shape` (row-major); InvalidArgument if the counts differ.
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    Initializer(const std::initializer_list<T>& v, const TensorShape& shape) {
      using C = typename Canonical<T>::type;
      std::vector<C> vals(v.begin(), v.end());
      FromValues(DataTypeToEnum<C>::value, vals.data(), vals.size(), shape);
    }
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    Initializer(const std::vector<T>& v, const TensorShape& shape) {
      using C = typename Canonical<T>::type;
      std::vector<C> vals(v.begin(), v.end());
      FromValues(DataTypeToEnum<C>::value, vals.data(), vals.size(), shape);
    }
    // `v` in every element of `shape`: Initializer(0.f, {2, 3}).
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    Initializer(const T& v, const TensorShape& shape) {
      using C = typename Canonical<T>::type;
      Fill(DataTypeToEnum<C>::value, shape);
      if (status.ok()) tensor.flat<C>().setConstant(static_cast<C>(v));
    }

    template <typename T>
    struct Canonical {
      using type = std::conditional_t<
          std::is_same_v<T, bool> || std::is_same_v<T, complex64>, T,
          std::conditional_t<
              std::is_floating_point_v<T>,
              std::conditional_t<std::is_same_v<T, float>, float, double>,
              std::conditional_t<
                  std::is_same_v<T, uint8_t>, uint8_t,
                  std::conditional_t<(sizeof(T) <= 4 && std::is_signed_v<T>), int32_t, int64_t>>>>;
    };

    Tensor tensor;
    absl::Status status;

   private:
    friend class Input;
    struct NoValue {};
    explicit Initializer(NoValue) {}  // no constant (an Input made from an Output)
    void FromValues(DataType dt, const void* data, size_t n, const TensorShape& shape);
    // A tensor of `shape` (values to be written), or the shape's or memory's error.
    void Fill(DataType dt, const TensorShape& shape);
  };

  Input(const Output& o) : output_(o) {}  // NOLINT
  // An op wrapper's (first) output. A constructor rather than the wrapper's conversion
  // operator, so that `{w}` for an Input parameter is not ambiguous between Input(Output)
  // and Input's copy (TensorFlow's ApplyGradientDescent(scope, {var}, lr, {grad})).
  Input(const ops::OpWrapper& op);                   // NOLINT; defined in op_builder.h
  Input(const Tensor& t) : Input(Initializer(t)) {}  // NOLINT
  Input(const Initializer& init) : init_(init), is_const_(true) {}  // NOLINT
  Input(const std::initializer_list<Initializer>& init)             // NOLINT
      : Input(Initializer(init)) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  Input(const T& v) : Input(Initializer(v)) {}  // NOLINT

  Node* node() const { return output_.node(); }
  int index() const { return output_.index(); }
  const Output& output() const { return output_; }
  bool is_constant() const { return is_const_; }
  const Tensor& tensor() const { return init_.tensor; }
  const absl::Status& status() const { return init_.status; }

 private:
  Output output_;
  Initializer init_{Initializer::NoValue{}};
  bool is_const_ = false;
};

class InputList {
 public:
  InputList(const std::initializer_list<Input>& v) : inputs_(v) {}  // NOLINT
  InputList(const OutputList& v) : inputs_(v.begin(), v.end()) {}   // NOLINT
  InputList(const std::vector<Input>& v) : inputs_(v) {}            // NOLINT
  const std::vector<Input>& inputs() const { return inputs_; }

 private:
  std::vector<Input> inputs_;
};

struct CompositeOpScopes;

class Scope {
 public:
  static Scope NewRootScope();

  // Names: "outer/inner/op". Sub-scope and op names are made unique as TensorFlow makes
  // them: "Add", "Add_1", ...; a name already given out or in the graph is never reused.
  Scope NewSubScope(const std::string& child_scope_name) const;
  // The name of the next op ("x"; "x_1" when "x" is taken, as in TensorFlow).
  Scope WithOpName(const std::string& op_name) const;
  Scope WithDevice(const std::string& device) const;
  Scope WithControlDependencies(absl::Span<const Operation> control_deps) const;
  Scope WithControlDependencies(const Output& control_dep) const;
  Scope WithNoControlDependencies() const;
  // Places the next ops with `op`, or with the op `op` is itself colocated with (the root
  // of a colocation chain), as TensorFlow's colocation groups do.
  Scope ColocateWith(const Operation& op) const;
  Scope ColocateWith(const Output& out) const { return ColocateWith(out.op()); }
  Scope ClearColocation() const;

  Graph* graph() const;
  std::shared_ptr<Graph> graph_as_shared_ptr() const;
  bool ok() const;
  absl::Status status() const;
  // Keeps the first error; later ones are dropped.
  void UpdateStatus(const absl::Status& s) const;
  // The graph as rill's graph text (TensorFlow's ToGraphDef; runtime/io/graph_def.h, which
  // defines it, has GraphDef); the scope's error when it has one.
  absl::Status ToGraphDef(GraphDef* out) const;

  // The name the next op of type `default_name` gets (the WithOpName name if set).
  std::string GetUniqueNameForOp(const std::string& default_name) const;
  // Scopes for a function that builds a composite op out of several ops (TensorFlow's
  // GetCompositeOpScopes): `child` names the inner ops "name/..."; `last` is a single-use
  // scope whose one op is named "name" itself (a second use is an InvalidArgument).
  // The name is this scope's WithOpName name if set, else `composite_op_name`.
  CompositeOpScopes GetCompositeOpScopes(const std::string& composite_op_name) const;
  const std::string& device() const { return device_; }
  // The name scope ops get ("outer/inner"; empty at the root).
  const std::string& name_prefix() const { return prefix_; }
  const std::vector<Operation>& control_deps() const { return control_deps_; }
  const std::string& colocate_with() const { return colocate_with_; }

 private:
  struct Shared;
  explicit Scope(std::shared_ptr<Shared> s);
  std::string UniqueName(const std::string& prefix_and_name) const;

  std::shared_ptr<Shared> shared_;
  std::string prefix_;
  std::string op_name_;
  std::string device_;
  std::vector<Operation> control_deps_;
  std::string colocate_with_;
  // A composite's `last` scope: the one name it gives, and whether it was given.
  std::string single_use_name_;
  std::shared_ptr<bool> single_use_taken_;
};

struct CompositeOpScopes {
  Scope child;  // for the composite's inner ops
  Scope last;   // for the op that gives the composite its output (single use)
};

}  // namespace rill
