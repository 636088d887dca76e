// TensorFlow's narrow and unsigned integer dtypes (int8, int16, uint16, uint32, uint64): Cast
// saturates from floats and wraps between integers, arithmetic wraps in the element's width,
// integer division truncates (Div, TruncateMod) or floors (FloorDiv, FloorMod) and refuses a
// zero divisor, reductions and bitwise ops keep the type, and values go through graph
// text, checkpoints and the placer (no GPU kernel: the host runs them).
#include <cstdio>
#include <functional>
#include <limits>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace integer_types_test {

template <typename T>
std::vector<T> Values(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DataTypeToEnum<T>::value);
  const T* p = t.base<T>();
  return std::vector<T>(p, p + t.NumElements());
}

template <typename T>
Tensor Vec(std::vector<T> v) {
  return test::AsTensor<T>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

// One op of two typed inputs, fed.
template <typename T, typename Op>
absl::StatusOr<Tensor> Binary(std::vector<T> a, std::vector<T> b) {
  return RunOp([](const Scope& s, const std::vector<Output>& in) { return Op(s, in[0], in[1]); },
               {Vec(a), Vec(b)});
}

template <typename To, typename From>
std::vector<To> CastOf(std::vector<From> v) {
  absl::StatusOr<Tensor> t = RunOp(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::Cast(s, in[0], DataTypeToEnum<To>::value));
      },
      {Vec(v)});
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? Values<To>(*t) : std::vector<To>{};
}

TEST(IntegerTypes, NamesSizesAndKinds) {
  const std::vector<std::tuple<DataType, const char*, int>> types = {{DT_INT8, "int8", 1},
                                                                     {DT_INT16, "int16", 2},
                                                                     {DT_UINT16, "uint16", 2},
                                                                     {DT_UINT32, "uint32", 4},
                                                                     {DT_UINT64, "uint64", 8}};
  for (const auto& [dt, name, size] : types) {
    EXPECT_EQ(DataTypeString(dt), name);
    EXPECT_EQ(DataTypeFromString(name), dt);
    EXPECT_EQ(DataTypeSize(dt), size);
    EXPECT_TRUE(DataTypeIsInteger(dt));
    EXPECT_FALSE(DataTypeIsFloating(dt));
  }
  // TensorFlow's enum values, so a DataType read from a TensorFlow file means the same.
  EXPECT_EQ(static_cast<int>(DT_INT16), 5);
  EXPECT_EQ(static_cast<int>(DT_INT8), 6);
  EXPECT_EQ(static_cast<int>(DT_UINT16), 17);
  EXPECT_EQ(static_cast<int>(DT_UINT32), 22);
  EXPECT_EQ(static_cast<int>(DT_UINT64), 23);
  EXPECT_EQ(Vec<int8_t>({-128, 5}).DebugString(),
            "Tensor<type: int8 shape: [2] values: -128 5>");  // numbers, not characters
}

TEST(IntegerTypes, CastSaturatesFromFloatsAndWrapsBetweenIntegers) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(CastOf<int8_t>(std::vector<float>{300.7f, -1e9f, nan, -3.9f, 127.2f}),
            (std::vector<int8_t>{127, -128, 0, -3, 127}));
  EXPECT_EQ(CastOf<uint16_t>(std::vector<float>{-1.f, 70000.f, 2.5f}),
            (std::vector<uint16_t>{0, 65535, 2}));
  EXPECT_EQ(CastOf<uint64_t>(std::vector<int64_t>{-1, 7}),
            (std::vector<uint64_t>{std::numeric_limits<uint64_t>::max(), 7}));
  EXPECT_EQ(CastOf<int64_t>(std::vector<uint64_t>{std::numeric_limits<uint64_t>::max()}),
            (std::vector<int64_t>{-1}));
  EXPECT_EQ(CastOf<int8_t>(std::vector<int16_t>{300, -129}), (std::vector<int8_t>{44, 127}));
  EXPECT_EQ(CastOf<double>(std::vector<uint32_t>{4294967295u}),
            (std::vector<double>{4294967295.0}));
  EXPECT_EQ(CastOf<bool>(std::vector<uint16_t>{0, 256}), (std::vector<bool>{false, true}));
}

TEST(IntegerTypes, ArithmeticWrapsInTheElementsWidth) {
  EXPECT_EQ(Values<int8_t>(*Binary<int8_t, ops::Add>({100, -100}, {100, -100})),
            (std::vector<int8_t>{-56, 56}));
  EXPECT_EQ(Values<uint16_t>(*Binary<uint16_t, ops::Sub>({0, 9}, {1, 4})),
            (std::vector<uint16_t>{65535, 5}));
  EXPECT_EQ(Values<int16_t>(*Binary<int16_t, ops::Mul>({300, -2}, {300, 3})),
            (std::vector<int16_t>{24464, -6}));
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(Values<uint64_t>(*Binary<uint64_t, ops::AddV2>({top, top - 1}, {1, 1})),
            (std::vector<uint64_t>{0, top}));
  EXPECT_EQ(Values<uint32_t>(*Binary<uint32_t, ops::Maximum>({4000000000u, 1}, {2, 3})),
            (std::vector<uint32_t>{4000000000u, 3}));
  EXPECT_EQ(Values<bool>(*Binary<uint64_t, ops::Less>({top - 1, 0}, {top, 0})),
            (std::vector<bool>{true, false}));
}

TEST(IntegerTypes, DivisionTruncatesOrFloorsAndRefusesZero) {
  EXPECT_EQ(Values<int8_t>(*Binary<int8_t, ops::Div>({-7, 7, -128}, {2, -2, -1})),
            (std::vector<int8_t>{-3, -3, -128}));
  EXPECT_EQ(Values<int8_t>(*Binary<int8_t, ops::FloorDiv>({-7, 7}, {2, -2})),
            (std::vector<int8_t>{-4, -4}));
  EXPECT_EQ(Values<int16_t>(*Binary<int16_t, ops::FloorMod>({-7, 7}, {2, -2})),
            (std::vector<int16_t>{1, -1}));
  EXPECT_EQ(Values<int16_t>(*Binary<int16_t, ops::TruncateMod>({-7, 7}, {2, -2})),
            (std::vector<int16_t>{-1, 1}));
  EXPECT_EQ(Values<uint32_t>(*Binary<uint32_t, ops::FloorMod>({4000000001u}, {10})),
            (std::vector<uint32_t>{1}));
  absl::StatusOr<Tensor> zero = Binary<uint64_t, ops::Div>({1, 2}, {1, 0});
  EXPECT_TRUE(absl::IsInvalidArgument(zero.status())) << zero.status();
  EXPECT_TRUE(absl::StrContains(zero.status().message(), "division by zero")) << zero.status();
}

TEST(IntegerTypes, ReductionsAndBitwiseOpsKeepTheType) {
  absl::StatusOr<Tensor> sum = RunOp(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::Sum(s, in[0], ops::Const(s, 0)));
      },
      {Vec<int8_t>({100, 100, 1})});
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(Values<int8_t>(*sum), (std::vector<int8_t>{-55}));  // 201 wraps, as TensorFlow's
  const uint64_t big = (uint64_t{1} << 63) + 1;
  absl::StatusOr<Tensor> max = RunOp(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::Max(s, in[0], ops::Const(s, 0)));
      },
      {Vec<uint64_t>({big, big - 2, 3})});
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<uint64_t>(*max), (std::vector<uint64_t>{big}));  // exact past 2^53
  EXPECT_EQ(Values<int8_t>(*Binary<int8_t, ops::RightShift>({-128, 64}, {3, 9})),
            (std::vector<int8_t>{-16, 0}));  // arithmetic; the shift clamped to 7
  EXPECT_EQ(Values<uint16_t>(*Binary<uint16_t, ops::LeftShift>({1, 0xffff}, {15, 4})),
            (std::vector<uint16_t>{0x8000, 0xfff0}));
  absl::StatusOr<Tensor> bits =
      RunOp([](const Scope& s,
               const std::vector<Output>& in) { return Output(ops::PopulationCount(s, in[0])); },
            {Vec<uint64_t>({std::numeric_limits<uint64_t>::max(), 5})});
  ASSERT_TRUE(bits.ok()) << bits.status();
  EXPECT_EQ(Values<uint8_t>(*bits), (std::vector<uint8_t>{64, 2}));
}

// Every element's value survives a graph written as text and read back, and a checkpoint.
TEST(IntegerTypes, ValuesSurviveGraphTextAndCheckpoints) {
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  Scope root = Scope::NewRootScope();
  ops::Const(root.WithOpName("a"), Vec<uint64_t>({top, 0, 12345678901234567890ull}));
  ops::Const(root.WithOpName("b"), Vec<int8_t>({-128, 127}));
  auto v = ops::Variable(root.WithOpName("v"), Input::Initializer(Vec<int16_t>({-32768, 7})));
  ASSERT_TRUE(root.ok()) << root.status();
  absl::StatusOr<std::string> text = GraphToText(*root.graph());
  ASSERT_TRUE(text.ok()) << text.status();
  Scope loaded = Scope::NewRootScope();
  ASSERT_TRUE(GraphFromText(*text, loaded).ok());
  Session session(loaded);
  absl::StatusOr<Output> la = FindOutput(*loaded.graph(), "a");
  absl::StatusOr<Output> lb = FindOutput(*loaded.graph(), "b");
  ASSERT_TRUE(la.ok() && lb.ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({*la, *lb}, &out).ok());
  EXPECT_EQ(Values<uint64_t>(out[0]), (std::vector<uint64_t>{top, 0, 12345678901234567890ull}));
  EXPECT_EQ(Values<int8_t>(out[1]), (std::vector<int8_t>{-128, 127}));

  Session trained(root);
  ASSERT_TRUE(trained.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  const std::string path = ::testing::TempDir() + "/integer_types.ckpt";
  Saver saver(root);
  ASSERT_TRUE(saver.Save(trained, path).ok());
  ASSERT_TRUE(trained.Run({}, {}, {ops::Assign(root, v, Vec<int16_t>({1, 2}))}, nullptr).ok());
  ASSERT_TRUE(saver.Restore(trained, path).ok());
  ASSERT_TRUE(trained.Run({v}, &out).ok());
  EXPECT_EQ(Values<int16_t>(out[0]), (std::vector<int16_t>{-32768, 7}));
  std::remove(path.c_str());
}

// A graph file's uint64 values are read as unsigned 64-bit numbers: past 2^64 - 1 or below
// 0 is an error naming the line, as is past int8's range for int8.
TEST(IntegerTypes, GraphTextRefusesValuesOutsideTheDtype) {
  Scope root = Scope::NewRootScope();
  ops::Const(root.WithOpName("a"), Vec<uint64_t>({18446744073709551615ull}));
  ops::Const(root.WithOpName("b"), Vec<int8_t>({-128}));
  absl::StatusOr<std::string> text = GraphToText(*root.graph());
  ASSERT_TRUE(text.ok()) << text.status();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"18446744073709551615", "18446744073709551616"},
      {"18446744073709551615", "-1"},
      {"-128", "-129"}};
  for (const auto& [from, to] : bad) {
    std::string edited = *text;
    const size_t at = edited.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    edited.replace(at, from.size(), to);
    Scope loaded = Scope::NewRootScope();
    absl::Status st = GraphFromText(edited, loaded);
    EXPECT_TRUE(absl::IsInvalidArgument(st)) << to << ": " << st;
    EXPECT_TRUE(absl::StrContains(st.message(), "line ")) << st;
    EXPECT_TRUE(absl::StrContains(st.message(), "'" + to + "' is not a valid")) << st;
  }
}

// These dtypes have CPU kernels only: a GPU's placer finds none for them and runs the node
// on the host, where float32's Add has both.
TEST(IntegerTypes, OnlyTheHostHasKernelsForThem) {
  Scope s = Scope::NewRootScope();
  auto narrow = ops::Add(s, ops::Const(s, Vec<int8_t>({1})), ops::Const(s, Vec<int8_t>({2})));
  auto wide = ops::Add(s, ops::Const(s, 1.f), ops::Const(s, 2.f));
  ASSERT_TRUE(s.ok()) << s.status();
  const std::vector<std::string> narrow_devices =
      KernelRegistry::Global()->DeviceTypesFor(*narrow.node());
  EXPECT_EQ(narrow_devices, std::vector<std::string>{DEVICE_CPU});
  const std::vector<std::string> wide_devices =
      KernelRegistry::Global()->DeviceTypesFor(*wide.node());
  EXPECT_NE(std::find(wide_devices.begin(), wide_devices.end(), DEVICE_CPU), wide_devices.end());
}

// The ops that move elements as integers of their width (Select's and SelectV2's walks,
// ReverseSequence, MatrixBandPart, GatherV2) move every width: 1, 2, 4 and 8 bytes. The
// 2-byte dtypes once took the 8-byte walk of Select and read past their inputs.
TEST(IntegerTypes, ElementMovingOpsMoveEveryWidth) {
  const Tensor x = test::AsTensor<int64_t>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  using Build = std::function<Output(const Scope&, const Output&)>;
  const std::vector<std::pair<Build, std::vector<int64_t>>> cases = {
      {[](const Scope& s, const Output& v) {
         const Tensor rows = test::AsTensor<bool>({true, false}, TensorShape({2, 1}));
         return Output(ops::SelectV2(s, rows, v, ops::Cast(s, int64_t{7}, v.type())));
       },
       {1, 2, 3, 7, 7, 7}},
      {[](const Scope& s, const Output& v) {
         const Tensor rows = test::AsTensor<bool>({false, true}, TensorShape({2}));
         return Output(ops::Select(s, rows, v, ops::Reverse(s, v, Vec<int32_t>({1}))));
       },
       {3, 2, 1, 4, 5, 6}},
      {[](const Scope& s, const Output& v) {
         return Output(ops::ReverseSequence(s, v, Vec<int64_t>({2, 3}), 1));
       },
       {2, 1, 3, 6, 5, 4}},
      {[](const Scope& s, const Output& v) {
         return Output(ops::MatrixBandPart(s, v, int64_t{0}, int64_t{0}));
       },
       {1, 0, 0, 0, 5, 0}},
      {[](const Scope& s, const Output& v) {
         return Output(ops::GatherV2(s, v, Vec<int32_t>({2, 0}), 1));
       },
       {3, 1, 6, 4}},
  };
  for (DataType dt : {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_FLOAT,
                      DT_INT64, DT_UINT64, DT_DOUBLE}) {
    for (size_t k = 0; k < cases.size(); ++k) {
      absl::StatusOr<Tensor> got = RunOp(
          [&](const Scope& s, const std::vector<Output>& in) {
            return Output(ops::Cast(s, cases[k].first(s, ops::Cast(s, in[0], dt)), DT_INT64));
          },
          {x});
      ASSERT_TRUE(got.ok()) << DataTypeString(dt) << " case " << k << ": " << got.status();
      EXPECT_EQ(Values<int64_t>(*got), cases[k].second) << DataTypeString(dt) << " case " << k;
    }
  }
}

}  // namespace integer_types_test
}  // namespace
}  // namespace rill::testing
