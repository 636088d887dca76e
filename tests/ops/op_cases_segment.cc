// Op cases (support/op_tester.h) of the segment reductions: every op in every dtype it
// takes, on ids with gaps, repeats and (unsorted) dropped rows. Both devices add each
// segment's rows in the same order, so integers are held to the CPU exactly and floats to
// float64.
#include <algorithm>

#include "rill/ops/segment_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace op_cases_segment {

using Build = std::function<Output(const Scope&, const std::vector<Output>&)>;

Tensor SortedIds(int64_t n, int hi, uint32_t seed) {
  Tensor t = RandomTensor(DT_INT64, {n}, 0, hi, seed);
  std::sort(t.base<int64_t>(), t.base<int64_t>() + n);
  return t;
}

OpCase Case(const std::string& name, DataType dt, Build build, std::vector<Tensor> in) {
  const bool floating = dt == DT_FLOAT || dt == DT_DOUBLE;
  return {name + " " + DataTypeString(dt), std::move(build), std::move(in), 1e-5, floating};
}

void Sorted(DataType dt, std::vector<OpCase>* c) {
  // Values near 1 keep the products in range; integers 0..3 wrap alike on both devices.
  const bool floating = dt == DT_FLOAT || dt == DT_DOUBLE;
  const Tensor data = RandomTensor(dt, {60, 7}, floating ? 0.5 : 0, floating ? 1.5 : 3, 80);
  const Tensor ids = SortedIds(60, 15, 81);
  c->push_back(Case("SegmentSum", dt,
                    [](const Scope& s, const auto& in) { return ops::SegmentSum(s, in[0], in[1]); },
                    {data, ids}));
  c->push_back(
      Case("SegmentMean", dt,
           [](const Scope& s, const auto& in) { return ops::SegmentMean(s, in[0], in[1]); },
           {data, ids}));
  c->push_back(
      Case("SegmentProd", dt,
           [](const Scope& s, const auto& in) { return ops::SegmentProd(s, in[0], in[1]); },
           {data, ids}));
  c->push_back(Case("SegmentMax", dt,
                    [](const Scope& s, const auto& in) { return ops::SegmentMax(s, in[0], in[1]); },
                    {data, ids}));
  c->push_back(Case("SegmentMin", dt,
                    [](const Scope& s, const auto& in) { return ops::SegmentMin(s, in[0], in[1]); },
                    {data, ids}));
  const Tensor any = RandomTensor(DT_INT32, {60}, -2, 17, 82);
  c->push_back(Case("UnsortedSegmentProd", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::UnsortedSegmentProd(s, in[0], in[1], ops::Const(s, 18));
                    },
                    {data, any}));
  c->push_back(Case("UnsortedSegmentMax", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::UnsortedSegmentMax(s, in[0], in[1], ops::Const(s, 18));
                    },
                    {data, any}));
  c->push_back(Case("UnsortedSegmentMin", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::UnsortedSegmentMin(s, in[0], in[1], ops::Const(s, 18));
                    },
                    {data, any}));
}

void Sparse(DataType dt, std::vector<OpCase>* c) {
  const Tensor data = RandomTensor(dt, {30, 9}, 0, 9, 83);
  const Tensor indices = RandomTensor(DT_INT32, {70}, 0, 29, 84), ids = SortedIds(70, 20, 85);
  c->push_back(Case(
      "SparseSegmentSum", dt,
      [](const Scope& s, const auto& in) { return ops::SparseSegmentSum(s, in[0], in[1], in[2]); },
      {data, indices, ids}));
  c->push_back(Case("SparseSegmentSumWithNumSegments", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentSumWithNumSegments(s, in[0], in[1], in[2],
                                                                  ops::Const(s, 25));
                    },
                    {data, indices, ids}));
  if (dt != DT_FLOAT && dt != DT_DOUBLE) return;
  c->push_back(Case(
      "SparseSegmentMean", dt,
      [](const Scope& s, const auto& in) { return ops::SparseSegmentMean(s, in[0], in[1], in[2]); },
      {data, indices, ids}));
  c->push_back(Case("SparseSegmentMeanWithNumSegments", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentMeanWithNumSegments(s, in[0], in[1], in[2],
                                                                   ops::Const(s, 25));
                    },
                    {data, indices, ids}));
  c->push_back(Case("SparseSegmentSqrtN", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentSqrtN(s, in[0], in[1], in[2]);
                    },
                    {data, indices, ids}));
  c->push_back(Case("SparseSegmentSqrtNWithNumSegments", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentSqrtNWithNumSegments(s, in[0], in[1], in[2],
                                                                    ops::Const(s, 25));
                    },
                    {data, indices, ids}));
  // The gradients: grad rows (unsorted ids) weighted into 40 output rows.
  const Tensor grad = RandomTensor(dt, {21, 9}, -1, 1, 86);
  const Tensor from = RandomTensor(DT_INT64, {70}, 0, 20, 87);
  const Tensor into = RandomTensor(DT_INT32, {70}, 0, 39, 88);
  c->push_back(Case("SparseSegmentSumGrad", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentSumGrad(s, in[0], in[1], in[2], ops::Const(s, 40));
                    },
                    {grad, into, from}));
  c->push_back(Case("SparseSegmentMeanGrad", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentMeanGrad(s, in[0], in[1], in[2], ops::Const(s, 40));
                    },
                    {grad, into, from}));
  c->push_back(Case("SparseSegmentSqrtNGrad", dt,
                    [](const Scope& s, const auto& in) {
                      return ops::SparseSegmentSqrtNGrad(s, in[0], in[1], in[2], ops::Const(s, 40));
                    },
                    {grad, into, from}));
}

std::vector<OpCase> Segments() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    Sorted(dt, &c);
    Sparse(dt, &c);
  }
  return c;
}

}  // namespace op_cases_segment
}  // namespace

RILL_OP_CASES(segment, op_cases_segment::Segments);

}  // namespace rill::testing
