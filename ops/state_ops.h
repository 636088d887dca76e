// Variables: state that lives in a Session and keeps its value between runs.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

// A variable of a fixed dtype and (partial) shape, as TensorFlow's ops::Variable.
// Reading it before it is assigned is FailedPrecondition naming it.
class Variable : public OpWrapper {
 public:
  Variable(const Scope& scope, const PartialTensorShape& shape, DataType dtype);
  // A variable with an initial value (shape and dtype taken from it); the initializer
  // is registered with the graph so GlobalVariablesInitializer runs it.
  Variable(const Scope& scope, Input initial_value);
  Operation initializer;  // set by the second form
};

// A bool scalar: whether the variable `ref` holds a value yet.
class IsVariableInitialized : public OpWrapper {
 public:
  IsVariableInitialized(const Scope& scope, Input ref);
};

class Assign : public OpWrapper {
 public:
  struct Attrs {
    Attrs ValidateShape(bool x) {
      Attrs r = *this;
      r.validate_shape_ = x;
      return r;
    }
    bool validate_shape_ = true;
  };
  Assign(const Scope& scope, Input ref, Input value) : Assign(scope, ref, value, Attrs()) {}
  Assign(const Scope& scope, Input ref, Input value, const Attrs& attrs);
  static Attrs ValidateShape(bool x) { return Attrs().ValidateShape(x); }
};

class AssignAdd : public OpWrapper {
 public:
  AssignAdd(const Scope& scope, Input ref, Input value);
};

class AssignSub : public OpWrapper {
 public:
  AssignSub(const Scope& scope, Input ref, Input value);
};

// TensorFlow 1's variable scatters (tf.compat.v1.scatter_update and kin): the variable
// `ref`'s rows that indices (any shape) name are set to updates [indices..., ref[1:]...]
// (ScatterUpdate: the last of repeated indices wins) or combined with them in indices'
// order (Add, Sub, Mul, Div, Min, Max); ScatterNd*: the slices that index tuples [m..., K]
// name, updates [m..., ref[K:]...]. The variable changes in place (a value read from it
// before stays as it was); the output is the variable's new value. An index out of range,
// or an integer division by zero, is InvalidArgument and changes nothing.
#define RILL_DECLARE_VARIABLE_SCATTER(Name)                            \
  class Name : public OpWrapper {                                      \
   public:                                                             \
    Name(const Scope& scope, Input ref, Input indices, Input updates); \
  };
RILL_DECLARE_VARIABLE_SCATTER(ScatterUpdate)
RILL_DECLARE_VARIABLE_SCATTER(ScatterAdd)
RILL_DECLARE_VARIABLE_SCATTER(ScatterSub)
RILL_DECLARE_VARIABLE_SCATTER(ScatterMul)
RILL_DECLARE_VARIABLE_SCATTER(ScatterDiv)
RILL_DECLARE_VARIABLE_SCATTER(ScatterMin)
RILL_DECLARE_VARIABLE_SCATTER(ScatterMax)
RILL_DECLARE_VARIABLE_SCATTER(ScatterNdUpdate)
RILL_DECLARE_VARIABLE_SCATTER(ScatterNdAdd)
RILL_DECLARE_VARIABLE_SCATTER(ScatterNdSub)
#undef RILL_DECLARE_VARIABLE_SCATTER

// One op that runs the initializer of every variable created with an initial value so far.
Operation GlobalVariablesInitializer(const Scope& scope);

}  // namespace rill::ops
