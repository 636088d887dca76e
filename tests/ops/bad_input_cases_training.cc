// Bad-input cases of the adaptive optimizer updates (ApplyAdagrad ... ApplyAdaMax): each op's
// inputs are its refs (variable and slots), its scalars, then the gradient.
#include "bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_training {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

struct Layout {
  const char* op;
  int refs, scalars;
};

// refs of [2, 3], scalars 0.5, the gradient; one input replaced by `swap` at `at`.
std::vector<Tensor> Inputs(const Layout& l, int at = -1, const Tensor& swap = Tensor()) {
  std::vector<Tensor> in;
  for (int i = 0; i < l.refs; ++i) in.push_back(F({2, 3}));
  for (int i = 0; i < l.scalars; ++i) in.push_back(F({}, {0.5f}));
  in.push_back(F({2, 3}));
  if (at >= 0) in[at] = swap;
  return in;
}

void AdaptiveUpdateCases() {
  const Layout layouts[] = {{"ApplyAdagrad", 2, 1},  {"ApplyAdagradV2", 2, 2},
                            {"ApplyRMSProp", 3, 4},  {"ApplyCenteredRMSProp", 4, 4},
                            {"ApplyAdadelta", 3, 3}, {"ApplyAdaMax", 3, 5}};
  for (const Layout& l : layouts) {
    const int grad = l.refs + l.scalars;
    AddRecipe({l.op, Inputs(l)});
    Both("a gradient of another shape", {l.op, Inputs(l, grad, F({3, 2}))}, {"[3,2]"});
    AddCase("a slot of another shape", {l.op, Inputs(l, l.refs - 1, F({3, 2}))}, kConstruction,
            kInvalid, {"[3,2]"});
    Both("a learning rate that is not a scalar", {l.op, Inputs(l, l.refs, F({2}))}, {"[2]"});
    Both("a last scalar that is not a scalar", {l.op, Inputs(l, grad - 1, F({1, 1}))}, {"[1,1]"});
    AddCase("an int32 gradient", {l.op, Inputs(l, grad, I({2, 3}))}, kConstruction, kInvalid,
            {"int32"});
  }
  AddCase("update_slots that is not a bool",
          {"ApplyAdagrad", Inputs(layouts[0]), {{"update_slots", int64_t{1}}}}, kConstruction,
          kInvalid, {"update_slots"});
}

const bool kRegistered = [] {
  AdaptiveUpdateCases();
  return true;
}();

}  // namespace bad_input_cases_training
}  // namespace
}  // namespace rill::testing
