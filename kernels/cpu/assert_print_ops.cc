// Assert, Print and Timestamp on the CPU. Both summarize their data tensors as TensorFlow's kernels
// do: each tensor's first `summarize` values (all of them when it is negative) in brackets,
// Assert's apart by a space, Print's side by side.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "rill/core/kernel.h"
#include "rill/core/status.h"

namespace rill {
namespace {

// "[v0 v1 v2...]<sep>[w0 w1]" for inputs `first` on.
std::string Summaries(const OpKernelContext& ctx, int first, int64_t summarize, const char* sep) {
  const int64_t n = summarize < 0 ? std::numeric_limits<int64_t>::max() : summarize;
  std::string out;
  for (int i = first; i < ctx.num_inputs(); ++i) {
    absl::StrAppend(&out, i > first ? sep : "", "[", ctx.input(i).SummarizeValue(n), "]");
  }
  return out;
}

class AssertOp : public OpKernel {
 public:
  explicit AssertOp(OpKernelConstruction& c)
      : OpKernel(c), summarize_(c.node().attr<int64_t>("summarize")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& cond = ctx.input(0);
    if (cond.dims() != 0) {
      return errors::InvalidArgument("In[0] should be a scalar: ", cond.shape().DebugString());
    }
    if (cond.scalar<bool>()()) return absl::OkStatus();
    return errors::InvalidArgument("assertion failed: ", Summaries(ctx, 1, summarize_, " "));
  }

 private:
  int64_t summarize_;
};

class PrintOp : public OpKernel {
 public:
  explicit PrintOp(OpKernelConstruction& c)
      : OpKernel(c),
        message_(c.node().attr<std::string>("message")),
        first_n_(c.node().attr<int64_t>("first_n")),
        summarize_(c.node().attr<int64_t>("summarize")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    ctx.set_output(0, ctx.input(0));
    // Concurrent runs each take a turn from the count, so no more than first_n print.
    if (first_n_ >= 0 && printed_.fetch_add(1, std::memory_order_relaxed) >= first_n_) {
      return absl::OkStatus();
    }
    const std::string line = absl::StrCat(message_, Summaries(ctx, 1, summarize_, ""), "\n");
    std::fwrite(line.data(), 1, line.size(), stderr);
    return absl::OkStatus();
  }

 private:
  const std::string message_;
  const int64_t first_n_;
  const int64_t summarize_;
  std::atomic<int64_t> printed_{0};
};

class TimestampOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* ts;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape(), &ts));
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    ts->scalar<double>()() = std::chrono::duration<double>(since_epoch).count();
    return absl::OkStatus();
  }
};

}  // namespace

RILL_REGISTER_KERNEL("Timestamp", DEVICE_CPU, "", DT_INVALID, TimestampOp);
RILL_REGISTER_KERNEL("Assert", DEVICE_CPU, "", DT_INVALID, AssertOp);
RILL_REGISTER_KERNEL("Print", DEVICE_CPU, "", DT_INVALID, PrintOp);

}  // namespace rill
