// Shape-changing ops against references computed here, for every dtype, with empty
// tensors, and bad inputs (wrong rank, mismatched dims, out-of-range axes, negative or
// overflowing dims) as Status at construction and at run time.
#include "test_util.h"

namespace rill::testing {
namespace {
namespace array_ops_test {

MarkTested tested({"Reshape", "Transpose", "ConcatV2", "Slice", "ExpandDims", "Squeeze", "Shape",
                   "Fill", "ZerosLike", "OnesLike", "OneHot", "NoOp", "EnsureShape"});

const std::vector<DataType> kAll = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL};

Tensor Ints(std::vector<int64_t> v) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.base<int32_t>()[i] = static_cast<int32_t>(v[i]);
  return t;
}

// Both ways: with constant inputs (shape functions see values) and fed (kernels check).
void ExpectBothFail(const BuildFn& f, const std::vector<Tensor>& in, absl::string_view needle) {
  auto a = RunOpConst(f, in);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << a.status();
  EXPECT_NE(std::string(a.status().message()).find(std::string(needle)), std::string::npos)
      << a.status();
  auto b = RunOp(f, in);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument) << b.status();
}

TEST(ArrayOps, ReshapeInfersMinusOneForEveryDtype) {
  for (DataType dt : kAll) {
    Tensor x = RandomTensor(dt, {2, 3, 4}, 0, 9, 1);
    auto f = [](const Scope& s, const auto& in) { return ops::Reshape(s, in[0], in[1]); };
    for (auto* run : {&RunOp, &RunOpConst}) {
      auto got = (*run)(f, {x, Ints({4, -1})});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {4, 6}, ToDoubles(x), 0);
    }
  }
  auto empty = RunOp([](const Scope& s, const auto& in) { return ops::Reshape(s, in[0], in[1]); },
                     {Tensor(DT_FLOAT, TensorShape({0, 3})), Ints({3, 0})});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), TensorShape({3, 0}));
}

TEST(ArrayOps, ReshapeBadInputs) {
  auto f = [](const Scope& s, const auto& in) { return ops::Reshape(s, in[0], in[1]); };
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  ExpectBothFail(f, {x, Ints({4, 2})}, "6 elements");
  ExpectBothFail(f, {x, Ints({-1, -1})}, "only one");
  ExpectBothFail(f, {x, Ints({-2, 3})}, "negative");
  ExpectBothFail(f, {x, Ints({1 << 30, 1 << 30, 1 << 30})}, "");
  Tensor m(DT_INT32, TensorShape({1, 2}));
  ExpectBothFail(f, {x, m}, "vector");
  ExpectBothFail(f, {x, Tensor(1.0f)}, "");
}

TEST(ArrayOps, TransposePermutesEveryDtype) {
  for (DataType dt : kAll) {
    Tensor x = RandomTensor(dt, {2, 3, 4}, 0, 9, 2);
    auto v = ToDoubles(x);
    std::vector<double> want;
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) want.push_back(v[(i * 3 + j) * 4 + k]);
    auto got = RunOp([](const Scope& s, const auto& in) { return ops::Transpose(s, in[0], in[1]); },
                     {x, Ints({2, 0, 1})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {4, 2, 3}, want, 0);
  }
  auto f = [](const Scope& s, const auto& in) { return ops::Transpose(s, in[0], in[1]); };
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  ExpectBothFail(f, {x, Ints({0, 0})}, "permutation");
  ExpectBothFail(f, {x, Ints({0, 1, 2})}, "rank");
  ExpectBothFail(f, {x, Ints({0, 5})}, "permutation");
  ExpectBothFail(f, {x, Ints({-1, 0})}, "permutation");
  ExpectBothFail(f, {x, Tensor(DT_INT32, TensorShape({1, 2}))}, "vector");
}

TEST(ArrayOps, ConcatAlongEachAxis) {
  for (DataType dt : kAll) {
    Tensor a = RandomTensor(dt, {2, 3}, 0, 9, 3), b = RandomTensor(dt, {2, 1}, 0, 9, 4);
    auto va = ToDoubles(a), vb = ToDoubles(b);
    std::vector<double> want = {va[0], va[1], va[2], vb[0], va[3], va[4], va[5], vb[1]};
    for (int axis : {1, -1}) {
      auto got = RunOp(
          [&](const Scope& s, const auto& in) {
            return ops::Concat(s, {in[0], in[1]}, axis);
          },
          {a, b});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {2, 4}, want, 0);
    }
    auto rows = RunOp(
        [&](const Scope& s, const auto& in) {
          return ops::Concat(s, {in[0], in[0], in[1]}, 0);
        },
        {a, Tensor(dt, TensorShape({0, 3}))});
    ASSERT_TRUE(rows.ok()) << rows.status();
    std::vector<double> twice = va;
    twice.insert(twice.end(), va.begin(), va.end());
    ExpectTensorNear(*rows, dt, {4, 3}, twice, 0);
  }
  auto f = [](const Scope& s, const auto& in) { return ops::Concat(s, {in[0], in[1]}, in[2]); };
  Tensor a(DT_FLOAT, TensorShape({2, 3})), b(DT_FLOAT, TensorShape({3, 3}));
  ExpectBothFail(f, {a, b, Tensor(int32_t{1})}, "dimension 0");
  ExpectBothFail(f, {a, a, Tensor(int32_t{2})}, "out of range");
  ExpectBothFail(f, {a, Tensor(DT_FLOAT, TensorShape({3})), Tensor(int32_t{0})}, "rank");
  ExpectBothFail(f, {Tensor(1.0f), Tensor(1.0f), Tensor(int32_t{0})}, "scalar");
}

TEST(ArrayOps, SliceAndItsBounds) {
  for (DataType dt : kAll) {
    Tensor x = RandomTensor(dt, {3, 4}, 0, 9, 5);
    auto v = ToDoubles(x);
    auto got =
        RunOp([](const Scope& s, const auto& in) { return ops::Slice(s, in[0], in[1], in[2]); },
              {x, Ints({1, 1}), Ints({2, -1})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {v[5], v[6], v[7], v[9], v[10], v[11]}, 0);
  }
  auto f = [](const Scope& s, const auto& in) { return ops::Slice(s, in[0], in[1], in[2]); };
  Tensor x(DT_FLOAT, TensorShape({3, 4}));
  ExpectBothFail(f, {x, Ints({2, 0}), Ints({2, 1})}, "exceeds");
  ExpectBothFail(f, {x, Ints({-1, 0}), Ints({1, 1})}, "out of range");
  ExpectBothFail(f, {x, Ints({0}), Ints({1})}, "one entry per dimension");
  ExpectBothFail(f, {x, Ints({0, 0}), Ints({1, -3})}, "invalid");
  ExpectBothFail(f, {x, Ints({4, 0}), Ints({0, 1})}, "out of range");
}

TEST(ArrayOps, ExpandDimsSqueezeAndShape) {
  Tensor x = RandomTensor(DT_INT64, {2, 3}, 0, 9, 6);
  auto e = RunOp([](const Scope& s, const auto& in) { return ops::ExpandDims(s, in[0], -1); }, {x});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->shape(), TensorShape({2, 3, 1}));
  ExpectTensorNear(*e, DT_INT64, {2, 3, 1}, ToDoubles(x), 0);
  auto sq = RunOp([](const Scope& s, const auto& in) { return ops::Squeeze(s, in[0]); },
                  {Tensor(DT_BOOL, TensorShape({1, 2, 1}))});
  ASSERT_TRUE(sq.ok());
  EXPECT_EQ(sq->shape(), TensorShape({2}));
  auto sq1 = RunOp([](const Scope& s,
                      const auto& in) { return ops::Squeeze(s, in[0], ops::Squeeze::Axis({0})); },
                   {Tensor(DT_FLOAT, TensorShape({1, 2, 1}))});
  ASSERT_TRUE(sq1.ok());
  EXPECT_EQ(sq1->shape(), TensorShape({2, 1}));
  // Negative axes count from the end: ExpandDims's of the output's rank, Squeeze's of the
  // input's.
  auto e3 =
      RunOp([](const Scope& s, const auto& in) { return ops::ExpandDims(s, in[0], -3); }, {x});
  ASSERT_TRUE(e3.ok()) << e3.status();
  EXPECT_EQ(e3->shape(), TensorShape({1, 2, 3}));
  auto sqn = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::Squeeze(s, in[0], ops::Squeeze::Axis({-1, -3}));
      },
      {Tensor(DT_FLOAT, TensorShape({1, 2, 1}))});
  ASSERT_TRUE(sqn.ok()) << sqn.status();
  EXPECT_EQ(sqn->shape(), TensorShape({2}));
  ExpectBothFail([](const Scope& s, const auto& in) { return ops::ExpandDims(s, in[0], -4); }, {x},
                 "out of range");
  auto sh = RunOp([](const Scope& s, const auto& in) { return ops::Shape(s, in[0]); },
                  {Tensor(DT_UINT8, TensorShape({4, 0, 2}))});
  ASSERT_TRUE(sh.ok());
  ExpectTensorNear(*sh, DT_INT32, {3}, {4, 0, 2}, 0);
  auto sh64 =
      RunOp([](const Scope& s,
               const auto& in) { return ops::Shape(s, in[0], ops::Shape::OutType(DT_INT64)); },
            {Tensor(DT_UINT8, TensorShape({5}))});
  ASSERT_TRUE(sh64.ok());
  ExpectTensorNear(*sh64, DT_INT64, {1}, {5}, 0);

  ExpectBothFail([](const Scope& s, const auto& in) { return ops::ExpandDims(s, in[0], 3); }, {x},
                 "out of range");
  ExpectBothFail([](const Scope& s,
                    const auto& in) { return ops::Squeeze(s, in[0], ops::Squeeze::Axis({1})); },
                 {x}, "cannot squeeze");
  ExpectBothFail([](const Scope& s,
                    const auto& in) { return ops::Squeeze(s, in[0], ops::Squeeze::Axis({5})); },
                 {x}, "out of range");
  ExpectBothFail([](const Scope& s, const auto& in) { return ops::ExpandDims(s, in[0], in[1]); },
                 {Tensor(DT_FLOAT, TensorShape({1, 1, 1, 1, 1, 1, 1, 1})), Tensor(int32_t{0})},
                 "rank");
}

TEST(ArrayOps, FillZerosLikeOnesLike) {
  for (DataType dt : kAll) {
    SCOPED_TRACE(DataTypeString(dt));
    Tensor v = FromDoubles(dt, {}, {1});
    auto f = RunOp([](const Scope& s, const auto& in) { return ops::Fill(s, in[0], in[1]); },
                   {Ints({2, 3}), v});
    ASSERT_TRUE(f.ok()) << f.status();
    ExpectTensorNear(*f, dt, {2, 3}, std::vector<double>(6, 1), 0);
    Tensor x = RandomTensor(dt, {4}, 0, 9, 7);
    auto z = RunOp([](const Scope& s, const auto& in) { return ops::ZerosLike(s, in[0]); }, {x});
    ASSERT_TRUE(z.ok());
    ExpectTensorNear(*z, dt, {4}, {0, 0, 0, 0}, 0);
    auto o = RunOp([](const Scope& s, const auto& in) { return ops::OnesLike(s, in[0]); }, {x});
    ASSERT_TRUE(o.ok());
    ExpectTensorNear(*o, dt, {4}, {1, 1, 1, 1}, 0);
  }
  auto f = [](const Scope& s, const auto& in) { return ops::Fill(s, in[0], in[1]); };
  ExpectBothFail(f, {Ints({2, -3}), Tensor(1.0f)}, "negative");
  ExpectBothFail(f, {Ints({int64_t{1} << 30, 1 << 30, 1 << 30}), Tensor(1.0f)}, "int64");
  ExpectBothFail(f, {Ints({2}), Tensor(DT_FLOAT, TensorShape({2}))}, "scalar");
  ExpectBothFail(f, {Tensor(DT_INT32, TensorShape({1, 1})), Tensor(1.0f)}, "vector");
}

TEST(ArrayOps, OneHotOnEveryAxis) {
  Tensor idx(DT_INT64, TensorShape({3}));
  idx.vec<int64_t>().setValues({0, 2, 5});  // 5 is out of range: a row of off_value
  auto f = [](int axis) {
    return [axis](const Scope& s, const auto& in) {
      return ops::OneHot(s, in[0], 3, 1.0f, 0.0f, ops::OneHot::Axis(axis));
    };
  };
  auto last = RunOp(f(-1), {idx});
  ASSERT_TRUE(last.ok()) << last.status();
  ExpectTensorNear(*last, DT_FLOAT, {3, 3}, {1, 0, 0, 0, 0, 1, 0, 0, 0}, 0);
  auto first = RunOp(f(0), {idx});
  ASSERT_TRUE(first.ok());
  ExpectTensorNear(*first, DT_FLOAT, {3, 3}, {1, 0, 0, 0, 0, 0, 0, 1, 0}, 0);
  for (DataType dt : kAll) {
    Tensor on = FromDoubles(dt, {}, {1}), off = FromDoubles(dt, {}, {0});
    Tensor i8 = FromDoubles(DT_UINT8, {2}, {1, 0});
    auto got =
        RunOp([](const Scope& s, const auto& in) { return ops::OneHot(s, in[0], 2, in[1], in[2]); },
              {i8, on, off});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 2}, {0, 1, 1, 0}, 0);
  }
  ExpectBothFail(f(3), {idx}, "axis");
  ExpectBothFail(
      [](const Scope& s, const auto& in) { return ops::OneHot(s, in[0], -4, 1.0f, 0.0f); }, {idx},
      "depth");
  ExpectBothFail(
      [](const Scope& s, const auto& in) { return ops::OneHot(s, in[0], in[1], 1.0f, 0.0f); },
      {idx, Ints({2})}, "scalar");
}

// EnsureShape gives the graph dims a computed reshape hid, and checks them when it runs.
TEST(EnsureShape, MergesTheStaticShapeAndChecksTheValue) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_INT32, ops::Placeholder::Shape({-1, 3}));
  auto y = ops::EnsureShape(root, x, PartialTensorShape({2, -1}));
  EXPECT_EQ(Output(y).shape(), PartialTensorShape({2, 3}));
  Session session(root);
  std::vector<Tensor> out;
  const Tensor v = FromDoubles(DT_INT32, TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(session.Run({{x, v}}, {y}, &out).ok());
  ExpectTensorNear(out[0], DT_INT32, TensorShape({2, 3}), {1, 2, 3, 4, 5, 6}, 0);
  absl::Status s =
      session.Run({{x, FromDoubles(DT_INT32, TensorShape({1, 3}), {1, 2, 3})}}, {y}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("[1,3] does not fit the shape [2,?]"), std::string::npos)
      << s;
  ops::EnsureShape(root, x, PartialTensorShape({2, 4}));
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace array_ops_test
}  // namespace
}  // namespace rill::testing
