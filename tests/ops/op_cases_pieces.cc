// Op cases (support/op_tester.h) of Tile, ReverseV2, Reverse, Pack, Unpack, Split, SplitV, Range,
// Select, SelectV2 and Where: data movement and indices, so every device is held to the CPU
// exactly.
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace op_cases_pieces {

Output Ints(const Scope& s, std::vector<int32_t> v) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.base<int32_t>()[i] = v[i];
  return ops::Const(s, t);
}

OpCase Exact(std::string name, BuildFn build, std::vector<Tensor> inputs) {
  return {std::move(name), std::move(build), std::move(inputs), 0, false};
}

std::vector<OpCase> Pieces() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_BOOL, DT_UINT8}) {
    const std::string t = DataTypeString(dt);
    const Tensor x = RandomTensor(dt, {7, 1, 5}, 0, 9, 50);
    c.push_back(Exact("Tile " + t,
                      [](const Scope& s, const auto& in) {
                        return ops::Tile(s, in[0], Ints(s, {2, 3, 1}));
                      },
                      {x}));
    c.push_back(Exact("Reverse " + t,
                      [](const Scope& s, const auto& in) {
                        return ops::Reverse(s, in[0], Ints(s, {0, -1}));
                      },
                      {x}));
    c.push_back(Exact("Reverse (dims) " + t,
                      [](const Scope& s, const auto& in) {
                        return Output(
                            ops::internal::NodeBuilder(s, "Reverse")
                                .Input(in[0])
                                .Input(ops::Const(s, FromDoubles(DT_BOOL, {3}, {1, 0, 1})))
                                .Finalize()
                                .node());
                      },
                      {x}));
    c.push_back(Exact("Pack " + t,
                      [](const Scope& s, const auto& in) {
                        return ops::Stack(s, {in[0], in[1], in[0]}, ops::Stack::Axis(2));
                      },
                      {x, RandomTensor(dt, {7, 1, 5}, 0, 9, 51)}));
    c.push_back(Exact("Unpack " + t,
                      [](const Scope& s, const auto& in) {
                        ops::Unstack p(s, in[0], 5, ops::Unstack::Axis(-1));
                        return ops::Concat(s, {p[3], p[0]}, 0);
                      },
                      {x}));
    c.push_back(Exact(
        "Split " + t,
        [](const Scope& s, const auto& in) { return ops::Split(s, ops::Const(s, 0), in[0], 7)[4]; },
        {x}));
    c.push_back(Exact("SplitV " + t,
                      [](const Scope& s, const auto& in) {
                        ops::SplitV p(s, in[0], Ints(s, {2, -1}), ops::Const(s, 2), 2);
                        return ops::Concat(s, {p[1], p[0]}, 2);
                      },
                      {x}));
    const Tensor cond = RandomTensor(DT_BOOL, {7, 1, 5}, 0, 1, 52);
    c.push_back(
        Exact("Select " + t,
              [](const Scope& s, const auto& in) { return ops::Select(s, in[0], in[1], in[2]); },
              {cond, x, RandomTensor(dt, {7, 1, 5}, 0, 9, 53)}));
    c.push_back(
        Exact("SelectV2 " + t,
              [](const Scope& s, const auto& in) { return ops::SelectV2(s, in[0], in[1], in[2]); },
              {RandomTensor(DT_BOOL, {4, 1}, 0, 1, 54), RandomTensor(dt, {9}, 0, 9, 55),
               RandomTensor(dt, {}, 0, 9, 56)}));
  }
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_UINT8, DT_BOOL}) {
    const Tensor params = RandomTensor(dt, {6, 40, 3}, 0, 9, 60);
    c.push_back(Exact("Gather " + DataTypeString(dt),
                      [](const Scope& s, const auto& in) { return ops::Gather(s, in[0], in[1]); },
                      {params, RandomTensor(DT_INT64, {5, 7}, 0, 5, 61)}));
    c.push_back(Exact("GatherV2 " + DataTypeString(dt),
                      [](const Scope& s, const auto& in) {
                        return ops::GatherV2(s, in[0], in[1], ops::Const(s, 1),
                                             ops::GatherV2::BatchDims(1));
                      },
                      {params, RandomTensor(DT_INT32, {6, 9}, 0, 39, 62)}));
    c.push_back(Exact("GatherNd " + DataTypeString(dt),
                      [](const Scope& s, const auto& in) { return ops::GatherNd(s, in[0], in[1]); },
                      {params, RandomTensor(DT_INT64, {5, 4, 2}, 0, 2, 68)}));
  }
  // Integer sums are exact in any order; float ones are compared within rounding (the GPU
  // adds atomically, in no fixed order). About 25 of the 300 rows go to each segment, |x| <
  // 9: another order of float additions moves a sum by up to about 25 * 2^-24 * 225 = 3.4e-4
  // (1.2e-5 seen on an H200, 2026-11-28, on a sum of 1.1); double sums by 2^-29 of that.
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
    c.push_back(
        {"UnsortedSegmentSum " + DataTypeString(dt),
         [](const Scope& s, const auto& in) {
           return ops::UnsortedSegmentSum(s, in[0], in[1], ops::Const(s, 11));
         },
         {RandomTensor(dt, {300, 17}, -9, 9, 63), RandomTensor(DT_INT32, {300}, -2, 10, 64)},
         dt == DT_INT64   ? 0
         : dt == DT_FLOAT ? 3.4e-4
                          : 1e-12,
         false});
    c.push_back({"ScatterNd " + DataTypeString(dt),
                 [](const Scope& s, const auto& in) {
                   return ops::ScatterNd(s, in[0], in[1], Ints(s, {6, 5, 3}));
                 },
                 {RandomTensor(DT_INT32, {40, 2}, 0, 4, 69), RandomTensor(dt, {40, 3}, -9, 9, 70)},
                 dt == DT_INT64 ? 0 : 1e-5,
                 false});
  }
  c.push_back(Exact("Where", [](const Scope& s, const auto& in) { return ops::Where(s, in[0]); },
                    {RandomTensor(DT_BOOL, {6, 3, 4}, 0, 1, 57)}));
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    c.push_back(
        Exact("Range " + DataTypeString(dt),
              [](const Scope& s, const auto& in) { return ops::Range(s, in[0], in[1], in[2]); },
              {FromDoubles(dt, {}, {-7}), FromDoubles(dt, {}, {2000}), FromDoubles(dt, {}, {3})}));
  }
  return c;
}

}  // namespace op_cases_pieces
}  // namespace

RILL_OP_CASES(pieces, op_cases_pieces::Pieces);

}  // namespace rill::testing
