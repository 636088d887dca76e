// Debugging ops with TensorFlow's C++ names:
// - CheckNumerics: a tensor passed through unchanged, or an InvalidArgument "<message> :
//   Tensor had NaN values" (Inf, Inf and NaN) when it holds any.
// - Assert: nothing when `condition` (a scalar bool) is true, else InvalidArgument
//   "assertion failed: [values of data[0]] [values of data[1]] ...", each tensor's first
//   `summarize` values (all of them when negative). Run it as a target, or make the nodes
//   it guards wait on it (a control edge), as tf.debugging's asserts do.
// - Print: `input` passed through, and on each of the first `first_n` runs (every run when
//   negative) a line to stderr: `message`, then each data tensor's first `summarize` values
//   in brackets.
// - Timestamp: the seconds since the epoch when it runs, a float64 scalar (tf.timestamp).
// Assert, Print and Timestamp are stateful (never folded or merged away) and run on the CPU.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class CheckNumerics : public OpWrapper {
 public:
  CheckNumerics(const Scope& scope, Input tensor, const std::string& message);
};

class Assert {
 public:
  struct Attrs {
    Attrs Summarize(int64_t x) const {
      Attrs r = *this;
      r.summarize_ = x;
      return r;
    }
    int64_t summarize_ = 3;
  };
  static Attrs Summarize(int64_t x) { return Attrs().Summarize(x); }
  Assert(const Scope& scope, Input condition, InputList data)
      : Assert(scope, condition, data, Attrs()) {}
  Assert(const Scope& scope, Input condition, InputList data, const Attrs& attrs);
  operator Operation() const { return operation; }
  Operation operation;
};

class Print : public OpWrapper {
 public:
  struct Attrs {
    Attrs Message(std::string x) const {
      Attrs r = *this;
      r.message_ = std::move(x);
      return r;
    }
    Attrs FirstN(int64_t x) const {
      Attrs r = *this;
      r.first_n_ = x;
      return r;
    }
    Attrs Summarize(int64_t x) const {
      Attrs r = *this;
      r.summarize_ = x;
      return r;
    }
    std::string message_;
    int64_t first_n_ = -1;
    int64_t summarize_ = 3;
  };
  static Attrs Message(std::string x) { return Attrs().Message(std::move(x)); }
  static Attrs FirstN(int64_t x) { return Attrs().FirstN(x); }
  static Attrs Summarize(int64_t x) { return Attrs().Summarize(x); }
  Print(const Scope& scope, Input input, InputList data) : Print(scope, input, data, Attrs()) {}
  Print(const Scope& scope, Input input, InputList data, const Attrs& attrs);
};

class Timestamp : public OpWrapper {
 public:
  explicit Timestamp(const Scope& scope);
};

}  // namespace rill::ops
