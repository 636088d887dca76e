// Helpers shared by the tests: random tensors, a float64 view of any tensor, running a
// small graph with fed inputs, and the registry of ops that have a test case.
#pragma once

#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/rill.h"

namespace rill::testing {

// True in the ASan and TSan builds (clang's __has_feature; gcc's __SANITIZE_*__). Tests
// whose value there is memory and race checking, not breadth, run fewer rounds in them:
// CI runs both passes on two cores within its time budget.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RILL_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RILL_TEST_SANITIZED 1
#endif
#ifdef RILL_TEST_SANITIZED
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

// Uniform values in [lo, hi] (integers rounded), reproducible from `seed`.
Tensor RandomTensor(DataType dt, const TensorShape& shape, double lo, double hi, uint32_t seed);
// Float64 values 0, 0.05, 0.1, ... shuffled (reproducible from `seed`): far enough apart
// that a central difference never changes which element of a window is its max.
Tensor DistinctTensor(const TensorShape& shape, uint32_t seed);
// Every element as a double.
std::vector<double> ToDoubles(const Tensor& t);
// A tensor of `dt` from doubles (converted as static_cast would).
Tensor FromDoubles(DataType dt, const TensorShape& shape, const std::vector<double>& v);

// Feeds `inputs` to placeholders of their dtype (unknown shape), builds the op with
// `build`, runs it on a new Session and returns output 0 or the Status.
using BuildFn = std::function<Output(const Scope&, const std::vector<Output>&)>;
absl::StatusOr<Tensor> RunOp(const BuildFn& build, const std::vector<Tensor>& inputs);
// The same with Const inputs, so shape functions see every shape and value.
absl::StatusOr<Tensor> RunOpConst(const BuildFn& build, const std::vector<Tensor>& inputs);

// Expects equal dtype and shape, and values within `rtol` (relative, with an absolute floor
// of rtol for values near 0).
void ExpectTensorNear(const Tensor& got, DataType dt, const TensorShape& shape,
                      const std::vector<double>& want, double rtol);
double Tolerance(DataType dt);  // 1e-5 for float, 1e-12 for double, 0 for integers

// The ops of the plan `session` makes for `signature` (ViewPlan's nodes), one per node.
std::multiset<std::string> PlanOps(const Session& session, const CallableOptions& signature);

// Whether this process sees a GPU; the local devices without it (CPU-only Sessions).
bool HaveGpu();
DeviceSet CpuOnly();

// Ops with a test case; the completeness test checks the registry against this.
std::set<std::string>& TestedOps();
struct MarkTested {
  explicit MarkTested(std::initializer_list<const char*> ops) {
    for (const char* op : ops) TestedOps().insert(op);
  }
};

}  // namespace rill::testing
