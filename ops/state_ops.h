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

// One op that runs the initializer of every variable created with an initial value so far.
Operation GlobalVariablesInitializer(const Scope& scope);

}  // namespace rill::ops
