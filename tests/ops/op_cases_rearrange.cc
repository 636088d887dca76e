// Op cases (support/op_tester.h) of the rearranging ops: Roll, ReverseSequence, MirrorPad
// and MirrorPadGrad, SpaceToDepth, DepthToSpace, SpaceToBatchND, BatchToSpaceND and the
// diagonal ops. Data movement, so every device is held to the CPU exactly; the copies
// planned per run are many small ones here (a roll over three dims, a band per row).
#include "absl/strings/str_cat.h"
#include "rill/ops/rearrange_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace op_cases_rearrange {

OpCase Exact(std::string name, BuildFn build, std::vector<Tensor> inputs) {
  return {std::move(name), std::move(build), std::move(inputs), 0, false};
}

Tensor Ints(DataType dt, std::vector<int64_t> shape, std::vector<double> v) {
  return FromDoubles(dt, TensorShape(shape), v);
}

void Movers(DataType dt, std::vector<OpCase>* c) {
  const std::string t = absl::StrCat(" ", DataTypeString(dt));
  const Tensor x = RandomTensor(dt, {6, 5, 4}, 0, 9, 70);
  c->push_back(
      Exact(absl::StrCat("Roll", t),
            [](const Scope& s, const auto& in) { return ops::Roll(s, in[0], in[1], in[2]); },
            {x, Ints(DT_INT32, {3}, {2, -1, 7}), Ints(DT_INT32, {3}, {0, 1, -1})}));
  c->push_back(Exact(absl::StrCat("ReverseSequence", t),
                     [](const Scope& s, const auto& in) {
                       return ops::ReverseSequence(s, in[0], in[1], 0,
                                                   ops::ReverseSequence::BatchDim(2));
                     },
                     {x, Ints(DT_INT64, {4}, {6, 0, 3, 1})}));
  for (const std::string mode : {"REFLECT", "SYMMETRIC"}) {
    c->push_back(Exact(
        absl::StrCat("MirrorPad ", mode, t),
        [mode](const Scope& s, const auto& in) { return ops::MirrorPad(s, in[0], in[1], mode); },
        {x, Ints(DT_INT32, {3, 2}, {2, 3, 0, 4, 1, 1})}));
  }
  const Tensor image = RandomTensor(dt, {2, 6, 4, 3}, 0, 9, 71);
  c->push_back(Exact(absl::StrCat("SpaceToDepth", t),
                     [](const Scope& s, const auto& in) { return ops::SpaceToDepth(s, in[0], 2); },
                     {image}));
  c->push_back(Exact(absl::StrCat("DepthToSpace NCHW", t),
                     [](const Scope& s, const auto& in) {
                       return ops::DepthToSpace(s, in[0], 2, ops::DepthToSpace::DataFormat("NCHW"));
                     },
                     {RandomTensor(dt, {2, 8, 3, 2}, 0, 9, 72)}));
  c->push_back(Exact(
      absl::StrCat("SpaceToBatchND", t),
      [](const Scope& s, const auto& in) { return ops::SpaceToBatchND(s, in[0], in[1], in[2]); },
      {image, Ints(DT_INT32, {2}, {3, 2}), Ints(DT_INT32, {2, 2}, {2, 1, 1, 1})}));
  c->push_back(Exact(
      absl::StrCat("BatchToSpaceND", t),
      [](const Scope& s, const auto& in) { return ops::BatchToSpaceND(s, in[0], in[1], in[2]); },
      {RandomTensor(dt, {12, 3, 2, 2}, 0, 9, 73), Ints(DT_INT64, {2}, {2, 3}),
       Ints(DT_INT64, {2, 2}, {1, 0, 2, 1})}));
}

void Diagonals(DataType dt, std::vector<OpCase>* c) {
  const std::string t = absl::StrCat(" ", DataTypeString(dt));
  const Tensor m = RandomTensor(dt, {3, 5, 4}, 0, 9, 74);
  c->push_back(Exact(absl::StrCat("Diag", t),
                     [](const Scope& s, const auto& in) { return ops::Diag(s, in[0]); },
                     {RandomTensor(dt, {3, 2}, 0, 9, 75)}));
  c->push_back(Exact(absl::StrCat("DiagPart", t),
                     [](const Scope& s, const auto& in) { return ops::DiagPart(s, in[0]); },
                     {RandomTensor(dt, {3, 2, 3, 2}, 0, 9, 76)}));
  c->push_back(Exact(absl::StrCat("MatrixDiag", t),
                     [](const Scope& s, const auto& in) { return ops::MatrixDiag(s, in[0]); },
                     {RandomTensor(dt, {3, 4}, 0, 9, 77)}));
  c->push_back(Exact(absl::StrCat("MatrixDiagPart", t),
                     [](const Scope& s, const auto& in) { return ops::MatrixDiagPart(s, in[0]); },
                     {m}));
  c->push_back(
      Exact(absl::StrCat("MatrixSetDiag", t),
            [](const Scope& s, const auto& in) { return ops::MatrixSetDiag(s, in[0], in[1]); },
            {m, RandomTensor(dt, {3, 4}, 0, 9, 78)}));
  c->push_back(Exact(
      absl::StrCat("MatrixBandPart", t),
      [](const Scope& s, const auto& in) { return ops::MatrixBandPart(s, in[0], in[1], in[2]); },
      {m, Ints(DT_INT64, {}, {1}), Ints(DT_INT64, {}, {2})}));
}

std::vector<OpCase> Rearrange() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_UINT8, DT_BOOL}) {
    Movers(dt, &c);
    Diagonals(dt, &c);
  }
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
    c.push_back({absl::StrCat("MirrorPadGrad ", DataTypeString(dt)),
                 [](const Scope& s, const auto& in) {
                   return ops::internal::MirrorPadGrad(s, in[0], in[1], "REFLECT");
                 },
                 {RandomTensor(dt, {7, 6}, 0, 9, 79), Ints(DT_INT32, {2, 2}, {2, 1, 0, 2})},
                 dt == DT_FLOAT ? 1e-6 : 0,
                 false});
  }
  return c;
}

}  // namespace op_cases_rearrange
}  // namespace

RILL_OP_CASES(rearrange, op_cases_rearrange::Rearrange);

}  // namespace rill::testing
