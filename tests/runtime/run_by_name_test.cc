// Session::Run by tensor and node names, as TensorFlow's Session::Run takes them, on a
// graph loaded from its text.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/testutil.h"

namespace rill {
namespace {
namespace run_by_name_test {

// y = x * w + 1 with a counter variable, saved as text and loaded into a fresh scope.
Scope LoadedGraph() {
  Scope built = Scope::NewRootScope();
  auto x = ops::Placeholder(built.WithOpName("x"), DT_FLOAT);
  auto w = ops::Variable(built.WithOpName("w"), Input::Initializer({2.f, 3.f}));
  ops::Add(built.WithOpName("y"), ops::Mul(built, x, w), 1.f);
  auto counter = ops::Variable(built.WithOpName("counter"), 0);
  ops::AssignAdd(built.WithOpName("tick"), counter, 1);
  ops::GlobalVariablesInitializer(built.WithOpName("init"));
  absl::StatusOr<std::string> text = GraphToText(*built.graph());
  Scope loaded = Scope::NewRootScope();
  EXPECT_TRUE(text.ok() && GraphFromText(*text, loaded).ok());
  return loaded;
}

TEST(RunByName, FeedsFetchesAndTargetsByName) {
  Scope loaded = LoadedGraph();
  Session session(loaded);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({}, {}, {"init"}, &out));
  TF_ASSERT_OK(session.Run({{"x", test::AsTensor<float>({1, 2})}}, {"y:0", "w"}, {"tick"}, &out));
  ASSERT_EQ(out.size(), 2u);
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({3, 7}));
  test::ExpectTensorEqual<float>(out[1], test::AsTensor<float>({2, 3}));
  TF_ASSERT_OK(session.Run({}, {"counter:0"}, {}, &out));
  EXPECT_EQ(out[0].scalar<int32_t>()(), 1);
}

TEST(RunByName, UnknownOrMalformedNamesAreStatuses) {
  Scope loaded = LoadedGraph();
  Session session(loaded);
  std::vector<Tensor> out;
  absl::Status st = session.Run({}, {"nope:0"}, {}, &out);
  EXPECT_TRUE(errors::IsNotFound(st)) << st;
  EXPECT_EQ(st.message(), "the graph has no node named 'nope'");
  EXPECT_TRUE(errors::IsInvalidArgument(session.Run({}, {"y:3"}, {}, &out)));
  EXPECT_TRUE(errors::IsInvalidArgument(session.Run({}, {"y:-1"}, {}, &out)));
  EXPECT_TRUE(errors::IsNotFound(session.Run({}, {}, {"missing"}, &out)));
  const Tensor one = test::AsTensor<float>({1});
  EXPECT_TRUE(errors::IsInvalidArgument(session.Run({{"x", one}, {"x:0", one}}, {"y"}, {}, &out)));
}

// TensorFlow's CallableOptions proto names tensors and nodes: add_feed, add_fetch,
// add_target resolve against the Session's graph when the callable is made.
TEST(RunByName, CallableOptionsByName) {
  Scope loaded = LoadedGraph();
  Session session(loaded);
  std::vector<Tensor> out;
  TF_ASSERT_OK(session.Run({}, {}, {"init"}, &out));
  CallableOptions options;
  options.add_feed("x");
  options.add_fetch("y:0");
  options.add_fetch("w");
  options.add_target("tick");
  Session::CallableHandle handle;
  TF_ASSERT_OK(session.MakeCallable(options, &handle));
  TF_ASSERT_OK(session.RunCallable(handle, {test::AsTensor<float>({1, 2})}, &out));
  ASSERT_EQ(out.size(), 2u);
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({3, 7}));
  TF_ASSERT_OK(session.RunCallable(handle, {test::AsTensor<float>({0, 0})}, &out));
  TF_ASSERT_OK(session.Run({}, {"counter"}, {}, &out));
  EXPECT_EQ(out[0].scalar<int32_t>()(), 2);  // the target ran with each call
  TF_EXPECT_OK(session.ReleaseCallable(handle));
}

TEST(RunByName, CallableOptionsNamesAreChecked) {
  Scope loaded = LoadedGraph();
  Session session(loaded);
  Session::CallableHandle handle;
  CallableOptions unknown;
  unknown.add_fetch("nope:0");
  absl::Status st = session.MakeCallable(unknown, &handle);
  EXPECT_TRUE(errors::IsNotFound(st)) << st;
  CallableOptions bad_index;
  bad_index.add_feed("x:7");
  EXPECT_TRUE(errors::IsInvalidArgument(session.MakeCallable(bad_index, &handle)));
  CallableOptions no_target;
  no_target.add_target("missing");
  EXPECT_TRUE(errors::IsNotFound(session.MakeCallable(no_target, &handle)));
  // One list given both ways is refused, naming the list.
  CallableOptions mixed;
  absl::StatusOr<Output> y = FindOutput(*loaded.graph(), "y");
  ASSERT_TRUE(y.ok());
  mixed.fetch = {*y};
  mixed.add_fetch("w");
  st = session.MakeCallable(mixed, &handle);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("fetches given both"), std::string::npos) << st;
}

// TensorFlow's testutil helpers: the assigns run first, then the fetches.
TEST(TestUtil, GetTensorsRunsAssignsThenFetches) {
  Scope s = Scope::NewRootScope();
  auto v = ops::Variable(s, {2}, DT_DOUBLE);
  auto assign = ops::Assign(s, v, ops::Const(s, {1.5, 2.5}));
  auto y = ops::Mul(s, v, 2.0);
  std::vector<Tensor> out;
  test::GetTensors(s, {assign}, {y, v}, &out);
  ASSERT_EQ(out.size(), 2u);
  test::ExpectTensorEqual<double>(out[0], test::AsTensor<double>({3, 5}));
  Tensor one;
  test::GetTensor(s, ops::Const(s, 7), &one);
  test::ExpectTensorEqual<int32_t>(one, test::AsScalar<int32_t>(7));
}

}  // namespace run_by_name_test
}  // namespace
}  // namespace rill
