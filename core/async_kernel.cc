#include "rill/core/async_kernel.h"

#include <future>
#include <memory>
#include <vector>

namespace rill {

absl::Status AsyncOpKernel::Compute(OpKernelContext& ctx) {
  auto promise = std::make_shared<std::promise<absl::Status>>();
  std::future<absl::Status> result = promise->get_future();
  std::vector<Tensor> late(ctx.node().num_outputs());
  ComputeAsync(ctx, late.data(), [promise](absl::Status st) { promise->set_value(std::move(st)); });
  absl::Status st = result.get();
  for (size_t i = 0; i < late.size(); ++i) {
    if (late[i].IsInitialized()) ctx.set_output(static_cast<int>(i), std::move(late[i]));
  }
  return st;
}

}  // namespace rill
