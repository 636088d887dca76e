// If, While and the function calls (PartitionedCall, StatefulPartitionedCall) on the host: each
// function is planned once per kernel (through the Session's FunctionRuntime, so its nodes are
// placed, optimized and run like any plan's) and then run per call. The predicate and the loop
// variables cross on the host.
#include <cstring>
#include <mutex>

#include "rill/core/function.h"
#include "rill/core/function_chain.h"
#include "rill/core/kernel.h"
#include "rill/core/status.h"

namespace rill {
namespace {

// TensorFlow's rule: a scalar is true when it is not zero (or false), any other tensor
// when it has elements.
absl::StatusOr<bool> Truth(const Node& node, const Tensor& t) {
  if (t.shape().dims() != 0) return t.NumElements() > 0;
  bool truth = false;
  const bool known = VisitDataType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    truth = t.scalar<T>()() != T(0);
  });
  if (!known) {
    return errors::InvalidArgument(node.DebugName(), ": a predicate of dtype ",
                                   DataTypeString(t.dtype()), " has no truth value");
  }
  return truth;
}

// A kernel that calls the functions held by its node's attrs `names`, instantiated on
// first use (the Session plans each once; later calls share the plan).
class FunctionCallingKernel : public OpKernel {
 public:
  FunctionCallingKernel(OpKernelConstruction& c, std::vector<std::string> names)
      : OpKernel(c), runtime_(c.options().functions), calls_(names.size()) {
    for (const std::string& n : names) functions_.push_back(c.node().attr<FunctionRef>(n));
  }
  bool IsExpensive() const override { return true; }

 protected:
  const Function& function(size_t which) const { return *functions_[which]; }
  // Another function to call (only from a constructor: Run reads the lists unlocked).
  size_t AddFunction(FunctionRef f) {
    functions_.push_back(std::move(f));
    calls_.emplace_back();
    return functions_.size() - 1;
  }

  absl::StatusOr<const FunctionCall*> Call(size_t which) {
    std::lock_guard<std::mutex> lock(mu_);
    if (calls_[which] == nullptr) {
      if (runtime_ == nullptr) {
        return errors::FailedPrecondition(node().DebugName(),
                                          ": functions run only inside a Session's plan");
      }
      absl::StatusOr<std::shared_ptr<const FunctionCall>> call =
          runtime_->Instantiate(functions_[which]);
      if (!call.ok()) return errors::Annotate(call.status(), node().DebugName() + ": ");
      calls_[which] = *std::move(call);
    }
    return calls_[which].get();
  }

  // Runs function `which` on the kernel's inputs from `first`, setting its outputs.
  absl::Status RunOnInputs(size_t which, OpKernelContext& ctx, int first) {
    std::vector<Tensor> args;
    for (int i = first; i < ctx.num_inputs(); ++i) args.push_back(ctx.input(i));
    std::vector<Tensor> rets;
    RILL_RETURN_IF_ERROR(Run(which, args, &rets));
    for (size_t i = 0; i < rets.size(); ++i) ctx.set_output(static_cast<int>(i), rets[i]);
    return absl::OkStatus();
  }

  // Runs function `which`; its errors are prefixed with this node.
  absl::Status Run(size_t which, const std::vector<Tensor>& args, std::vector<Tensor>* rets) {
    RILL_ASSIGN_OR_RETURN(const FunctionCall* call, Call(which));
    absl::Status s = call->Run(args, rets);
    if (!s.ok()) {
      return errors::Annotate(s, absl::StrCat(node().DebugName(), ", in ",
                                              FunctionDebugName(*functions_[which]), ": "));
    }
    return absl::OkStatus();
  }

 private:
  FunctionRuntime* runtime_;
  std::vector<FunctionRef> functions_;
  std::mutex mu_;
  std::vector<std::shared_ptr<const FunctionCall>> calls_;
};

class IfOp : public FunctionCallingKernel {
 public:
  explicit IfOp(OpKernelConstruction& c)
      : FunctionCallingKernel(c, {"then_branch", "else_branch"}) {}

  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(const bool pred, Truth(node(), ctx.input(0)));
    return RunOnInputs(pred ? 0 : 1, ctx, 1);
  }
};

// PartitionedCall and StatefulPartitionedCall: f(args...).
class CallOp : public FunctionCallingKernel {
 public:
  explicit CallOp(OpKernelConstruction& c) : FunctionCallingKernel(c, {"f"}) {}
  absl::Status Compute(OpKernelContext& ctx) override { return RunOnInputs(0, ctx, 0); }
};

// The values of one loop variable (before each iteration) or body value (after each), for
// _WhileRecord. A value that begins with the bytes of the value before it (a loop
// appending along axis 0, or one leaving the value as it was) extends that value's segment
// instead of starting one, so an accumulator costs its final size rather than the sum of
// its sizes.
class ValueLog {
 public:
  // `what` names the value in errors; `when` says whether it is logged before or after
  // each iteration.
  absl::Status Add(const Node& node, const std::string& what, const char* when, const Tensor& v) {
    if (!shapes_.empty() && v.dims() != shapes_[0].dims()) {
      return errors::InvalidArgument(node.DebugName(), ": ", what, " is ", shapes_[0].DebugString(),
                                     " ", when, " iteration 0 but ", v.shape().DebugString(), " ",
                                     when, " iteration ", shapes_.size(),
                                     "; gradients through While need values that keep their rank");
    }
    if (segments_.empty() || !Extends(segments_.back(), v)) {
      segments_.push_back(v);
    } else {
      segments_.back() = v;
    }
    segment_of_.push_back(static_cast<int64_t>(segments_.size()) - 1);
    shapes_.push_back(v.shape());
    return absl::OkStatus();
  }

  // The segments one after another into output `values`; per value its element offset
  // there and its shape into output `layout`: [values, 1 + rank]. `rank` is the
  // variable's (its initial value's) when there are no values.
  absl::Status Write(OpKernelContext& ctx, int values, int layout, int rank) const {
    std::vector<int64_t> start;
    int64_t total = 0;
    for (const Tensor& t : segments_) {
      start.push_back(total);
      total += t.NumElements();
    }
    Tensor* out = nullptr;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(values, TensorShape({total}), &out));
    char* dst = static_cast<char*>(out->data());
    for (const Tensor& t : segments_) {
      if (t.TotalBytes() > 0) std::memcpy(dst, t.data(), t.TotalBytes());
      dst += t.TotalBytes();
    }
    const int64_t n = static_cast<int64_t>(shapes_.size());
    if (n > 0) rank = shapes_[0].dims();
    RILL_RETURN_IF_ERROR(ctx.allocate_output(layout, TensorShape({n, 1 + rank}), &out));
    int64_t* row = out->base<int64_t>();
    for (int64_t i = 0; i < n; ++i, row += 1 + rank) {
      row[0] = start[segment_of_[i]];
      for (int d = 0; d < rank; ++d) row[1 + d] = shapes_[i].dim_size(d);
    }
    return absl::OkStatus();
  }

  int64_t size() const { return static_cast<int64_t>(shapes_.size()); }

 private:
  static bool Extends(const Tensor& before, const Tensor& v) {
    if (v.dtype() != before.dtype() || v.TotalBytes() < before.TotalBytes()) return false;
    // An empty value begins every value (and may have no buffer to compare).
    return before.TotalBytes() == 0 || v.data() == before.data() ||
           std::memcmp(v.data(), before.data(), before.TotalBytes()) == 0;
  }

  std::vector<Tensor> segments_;     // the latest value of each segment
  std::vector<int64_t> segment_of_;  // per value
  std::vector<TensorShape> shapes_;  // per value
};

// The condition runs once on the initial values; then each iteration is one run of the
// body chained with the condition (ChainFunctions), not two runs. _WhileRecord (for
// While's gradient) also logs the values of the variables its `record` attr names before
// each iteration and the values its body returns past the loop variables after each, and
// returns the count of iterations and the logs.
class WhileOp : public FunctionCallingKernel {
 public:
  explicit WhileOp(OpKernelConstruction& c) : FunctionCallingKernel(c, {"cond", "body"}) {
    // The op checks that the body returns what the condition takes, so this is not
    // expected to fail; if it did, the loop would call the two functions in turn.
    absl::StatusOr<FunctionRef> chained = ChainFunctions(function(1), function(0));
    if (chained.ok()) chained_ = AddFunction(*std::move(chained));
    if (c.node().type_string() == "_WhileRecord") {
      record_ = c.node().attr<std::vector<int64_t>>("record");
    }
  }

  absl::Status Compute(OpKernelContext& ctx) override {
    std::vector<Tensor> vars;
    for (int i = 0; i < ctx.num_inputs(); ++i) vars.push_back(ctx.input(i));
    const size_t num_vars = vars.size();
    // The loop variables, then (a _WhileRecord's) the values its body returns to be logged.
    const size_t body_rets = static_cast<size_t>(function(1).num_rets());
    std::vector<ValueLog> logs(record_.size() + body_rets - num_vars);
    std::vector<Tensor> pred, next;
    RILL_RETURN_IF_ERROR(Run(0, vars, &pred));
    int64_t iterations = 0;
    for (;; ++iterations) {
      RILL_ASSIGN_OR_RETURN(const bool go, Truth(node(), pred[0]));
      if (!go) break;
      for (size_t j = 0; j < record_.size(); ++j) {
        RILL_RETURN_IF_ERROR(logs[j].Add(node(), absl::StrCat("loop variable ", record_[j]),
                                         "before", vars[record_[j]]));
      }
      if (chained_ != 0) {
        RILL_RETURN_IF_ERROR(Run(chained_, vars, &next));
        pred.assign(next.begin() + static_cast<std::ptrdiff_t>(body_rets), next.end());
      } else {
        RILL_RETURN_IF_ERROR(Run(1, vars, &next));
        RILL_RETURN_IF_ERROR(
            Run(0, {next.begin(), next.begin() + static_cast<std::ptrdiff_t>(num_vars)}, &pred));
      }
      for (size_t k = num_vars; k < body_rets; ++k) {
        RILL_RETURN_IF_ERROR(logs[record_.size() + k - num_vars].Add(
            node(), absl::StrCat("logged value ", k - num_vars), "after", next[k]));
      }
      next.resize(num_vars);
      vars.swap(next);
    }
    for (size_t i = 0; i < vars.size(); ++i) ctx.set_output(static_cast<int>(i), vars[i]);
    if (node().type_string() != "_WhileRecord") return absl::OkStatus();
    return WriteLogs(ctx, iterations, logs);
  }

 private:
  // The count of iterations, then each log: the recorded variables', then the logged
  // values'.
  absl::Status WriteLogs(OpKernelContext& ctx, int64_t iterations,
                         const std::vector<ValueLog>& logs) const {
    const int n = ctx.num_inputs(), r = static_cast<int>(record_.size());
    const int num_logs = static_cast<int>(logs.size());
    ctx.set_output(n, Tensor(iterations));
    for (int j = 0; j < num_logs; ++j) {
      // With no iteration, the rank a log's layout has: the variable's or the value's.
      int rank = 0;
      if (j < r) {
        rank = ctx.input(static_cast<int>(record_[j])).dims();
      } else if (const PartialTensorShape& s = function(1).ret_shape(n + j - r);
                 !s.unknown_rank()) {
        rank = s.dims();
      }
      RILL_RETURN_IF_ERROR(logs[j].Write(ctx, n + 1 + j, n + 1 + num_logs + j, rank));
    }
    return absl::OkStatus();
  }

  size_t chained_ = 0;  // the chained function's index, or 0 (the condition's) when none
  std::vector<int64_t> record_;
};

// Row `index` of the layout says where value `index` lies in `values` and its shape. The
// log comes from a _WhileRecord, but the op is reachable by hand: every number is checked
// before it is used.
class LogReadOp : public OpKernel {
 public:
  explicit LogReadOp(OpKernelConstruction& c)
      : OpKernel(c), shape_(c.node().attr<PartialTensorShape>("shape")) {}

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& values = ctx.input(0);
    const Tensor& layout = ctx.input(1);
    const Tensor& index = ctx.input(2);
    if (values.dims() != 1 || layout.dims() != 2 || layout.dim_size(1) < 1 || index.dims() != 0) {
      return errors::InvalidArgument(node().DebugName(), ": values ", values.shape().DebugString(),
                                     ", layout ", layout.shape().DebugString(), " and index ",
                                     index.shape().DebugString(),
                                     " are not a vector, a [n, 1 + rank] matrix and a scalar");
    }
    const int64_t i = index.scalar<int64_t>()();
    if (i < 0 || i >= layout.dim_size(0)) {
      return errors::InvalidArgument(node().DebugName(), ": index ", i, " is outside the log's ",
                                     layout.dim_size(0), " values");
    }
    const int64_t* row = layout.base<int64_t>() + i * layout.dim_size(1);
    absl::StatusOr<TensorShape> shape =
        TensorShape::Build(absl::MakeConstSpan(row + 1, layout.dim_size(1) - 1));
    if (!shape.ok()) return errors::Annotate(shape.status(), node().DebugName() + ": ");
    const int64_t n = shape->num_elements();
    if (row[0] < 0 || row[0] > values.NumElements() || n > values.NumElements() - row[0]) {
      return errors::InvalidArgument(node().DebugName(), ": value ", i, " (", n, " elements from ",
                                     row[0], ") is outside the log's ", values.NumElements(),
                                     " elements");
    }
    if (!shape_.IsCompatibleWith(*shape)) {
      return errors::InvalidArgument(node().DebugName(), ": value ", i, " is ",
                                     shape->DebugString(), ", not ", shape_.DebugString());
    }
    Tensor* out = nullptr;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, *shape, &out));
    const size_t bytes = static_cast<size_t>(n) * DataTypeSize(values.dtype());
    if (bytes > 0) {
      std::memcpy(out->data(),
                  static_cast<const char*>(values.data()) +
                      static_cast<size_t>(row[0]) * DataTypeSize(values.dtype()),
                  bytes);
    }
    return absl::OkStatus();
  }

 private:
  PartialTensorShape shape_;
};

RILL_REGISTER_KERNEL("If", DEVICE_CPU, "", DT_INVALID, IfOp);
RILL_REGISTER_KERNEL("While", DEVICE_CPU, "", DT_INVALID, WhileOp);
RILL_REGISTER_KERNEL("PartitionedCall", DEVICE_CPU, "", DT_INVALID, CallOp);
RILL_REGISTER_KERNEL("StatefulPartitionedCall", DEVICE_CPU, "", DT_INVALID, CallOp);
RILL_REGISTER_KERNEL("_WhileRecord", DEVICE_CPU, "", DT_INVALID, WhileOp);
RILL_REGISTER_KERNEL("_LogRead", DEVICE_CPU, "", DT_INVALID, LogReadOp);

}  // namespace
}  // namespace rill
