// Valid recipes and op-specific bad inputs: FusedBatchNorm, V2 and V3 and their gradient
// ops (each version the same cases; V3's gradient op alone takes reserve_space_3);
// BatchNormWithGlobalNormalization and its gradient op; _FusedBatchNormEx.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_batch_norm {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
constexpr Where kConstruction = Where::kConstruction;

// x [2, 2, 2, 3] NHWC with its [3] statistics inputs; `mean` and `variance` lengths vary.
std::string forward_op, backward_op;  // the version the cases below are added for

Recipe Forward(AttrMap attrs, Tensor x = F({2, 2, 2, 3}), Tensor scale = F({3}),
               Tensor mean = F({3})) {
  return {forward_op, {x, scale, F({3}), mean, F({3})}, std::move(attrs)};
}
Recipe Backward(AttrMap attrs, Tensor dy = F({2, 2, 2, 3}), Tensor x = F({2, 2, 2, 3}),
                Tensor rs1 = F({3})) {
  std::vector<Tensor> in = {dy, x, F({3}), rs1, F({3})};
  if (backward_op == "FusedBatchNormGradV3") in.push_back(F({}));
  return {backward_op, in, std::move(attrs)};
}

const AttrMap kInference{{"is_training", false}};

void AddVersionCases() {
  AddRecipe(Forward({}));
  Both("a rank-3 x for NHWC", Forward({}, F({2, 2, 3})), {"rank", "[2,2,3]"});
  Both("a scale of the wrong length", Forward({}, F({2, 2, 2, 3}), F({4})), {"scale", "[4]"});
  Both("a scale that is a matrix", Forward({}, F({2, 2, 2, 3}), F({3, 1})), {"scale"});
  Both("an inference mean of the wrong length",
       Forward(kInference, F({2, 2, 2, 3}), F({3}), F({2})), {"mean", "[2]"});
  Both("an NCHW x whose channels disagree with scale",
       Forward({{"data_format", std::string("NCHW")}}, F({2, 2, 2, 3})), {"scale", "[3]"});
  AddCase("an unknown data_format", Forward({{"data_format", std::string("NWHC")}}), kConstruction,
          kInvalid, {"NWHC"});
  AddCase("a negative epsilon", Forward({{"epsilon", -1.0f}}), kConstruction, kInvalid,
          {"epsilon"});
  AddCase("scale and x of different dtypes",
          {forward_op,
           {FromDoubles(DT_DOUBLE, {1, 1, 1, 2}, {1, 2}), F({2}), F({2}), F({2}), F({2})},
           {}},
          kConstruction, kInvalid, {forward_op == "FusedBatchNorm" ? "T" : "U"});

  AddRecipe(Backward({}));
  Both("y_backprop and x of different shapes", Backward({}, F({2, 2, 1, 3})),
       {"y_backprop", "[2,2,1,3]"});
  Both("a rank-2 x", Backward({}, F({8, 3}), F({8, 3})), {"rank"});
  Both("a reserve_space_1 of the wrong length",
       Backward({}, F({2, 2, 2, 3}), F({2, 2, 2, 3}), F({5})), {"reserve_space_1", "[5]"});
  Both("an inference reserve_space_1 of the wrong length",
       Backward(kInference, F({2, 2, 2, 3}), F({2, 2, 2, 3}), F({1})), {"reserve_space_1"});
  AddCase("an unknown data_format", Backward({{"data_format", std::string("CHWN")}}), kConstruction,
          kInvalid, {"CHWN"});
}

// BatchNormWithGlobalNormalization (t, m, v, beta, gamma) and its gradient (t, m, v, gamma,
// backprop): t 4-D, vectors one per channel.
void GlobalNormCases() {
  const AttrMap attrs{{"variance_epsilon", 0.001f}, {"scale_after_normalization", true}};
  const char* fwd = "BatchNormWithGlobalNormalization";
  const char* bwd = "BatchNormWithGlobalNormalizationGrad";
  AddRecipe({fwd, {F({1, 2, 2, 3}), F({3}), F({3}, {1, 2, 3}), F({3}), F({3})}, attrs});
  AddRecipe({bwd, {F({1, 2, 2, 3}), F({3}), F({3}, {1, 2, 3}), F({3}), F({1, 2, 2, 3})}, attrs});
  for (const char* op : {fwd, bwd}) {
    const bool grad = std::string(op) == bwd;
    auto in = [grad](Tensor t, Tensor m) {
      return std::vector<Tensor>{t, m, F({3}, {1, 2, 3}), F({3}), grad ? F({1, 2, 2, 3}) : F({3})};
    };
    Both("a 3-D t", {op, in(F({2, 2, 3}), F({3})), attrs}, {"4-dimensional", "[2,2,3]"});
    Both("a mean of 2 values for 3 channels", {op, in(F({1, 2, 2, 3}), F({2})), attrs},
         {"m ", "[2]"});
    Both("a matrix mean", {op, in(F({1, 2, 2, 3}), F({1, 3})), attrs}, {"m ", "[1,3]"});
    AddCase("a negative variance_epsilon",
            {op,
             in(F({1, 2, 2, 3}), F({3})),
             {{"variance_epsilon", -1.0f}, {"scale_after_normalization", true}}},
            kConstruction, kInvalid, {"variance_epsilon"});
  }
  Both("a backprop of another shape",
       {bwd, {F({1, 2, 2, 3}), F({3}), F({3}, {1, 2, 3}), F({3}), F({1, 2, 1, 3})}, attrs},
       {"backprop", "[1,2,1,3]"});
}

// _FusedBatchNormEx: V3's checks on x and the statistics, and its side input's and
// activation's.
void FusedBatchNormExCases() {
  const char* op = "_FusedBatchNormEx";
  const AttrMap relu{{"num_side_inputs", int64_t{1}}, {"activation_mode", std::string("Relu")}};
  auto with_side = [&](Tensor x, Tensor side, Tensor scale = F({3})) {
    return Recipe{op, {x, scale, F({3}), F({3}), F({3}), side}, relu};
  };
  AddRecipe(with_side(F({2, 2, 2, 3}), F({2, 2, 2, 3})));
  Both("a side input of another shape", with_side(F({2, 2, 2, 3}), F({2, 2, 1, 3})),
       {"side_input", "[2,2,1,3]"});
  Both("a rank-3 x and side input", with_side(F({2, 2, 3}), F({2, 2, 3})), {"rank", "[2,2,3]"});
  Both("a scale of the wrong length", with_side(F({2, 2, 2, 3}), F({2, 2, 2, 3}), F({4})),
       {"scale", "[4]"});
  AddCase("two side inputs",
          {op,
           {F({1, 1, 1, 3}), F({3}), F({3}), F({3}), F({3}), F({1, 1, 1, 3}), F({1, 1, 1, 3})},
           {{"num_side_inputs", int64_t{2}}}},
          kConstruction, kInvalid, {"at most 1 side input"});
  AddCase("an Elu activation",
          {op,
           {F({1, 1, 1, 3}), F({3}), F({3}), F({3}), F({3})},
           {{"activation_mode", std::string("Elu")}}},
          kConstruction, kInvalid, {"activation_mode", "Elu"});
  AddCase("a negative epsilon",
          {op, {F({1, 1, 1, 3}), F({3}), F({3}), F({3}), F({3})}, {{"epsilon", -1.0f}}},
          kConstruction, kInvalid, {"epsilon"});
}

const bool kCases = [] {
  for (const char* v : {"", "V2", "V3"}) {
    forward_op = std::string("FusedBatchNorm") + v;
    backward_op = std::string("FusedBatchNormGrad") + v;
    AddVersionCases();
  }
  GlobalNormCases();
  FusedBatchNormExCases();
  return true;
}();

}  // namespace bad_input_cases_batch_norm
}  // namespace
}  // namespace rill::testing
