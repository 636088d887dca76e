// The ONNX importer on models built here with ONNX's own protobuf classes: values, names,
// shapes, unsupported ops listed at once, hostile files, a trainable import fine-tuned.
#include <cmath>

#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace import_test {

using ::onnx::ModelProto;
using ::onnx::NodeProto;
using ::onnx::TensorProto;
using namespace onnx_test;

// y = Relu(x + b) * 2 with x [N, 3].
ModelProto AddReluModel() {
  ModelProto m = NewModel();
  AddInput(&m, "x:0", {-1, 3});
  AddFloatInit(&m, "b", {3}, {1.f, -2.f, 0.5f});
  AddFloatInit(&m, "two", {}, {2.f});
  AddNode(&m, "Add", {"x:0", "b"}, {"s"});
  AddNode(&m, "Relu", {"s"}, {"r"});
  AddNode(&m, "Mul", {"r", "two"}, {"y"});
  AddOutput(&m, "y");
  return m;
}

TEST(OnnxImport, RunsAModelWithItsNamesAndShapes) {
  Scope root = Scope::NewRootScope();
  auto m = onnx::ImportModel(root, Bytes(AddReluModel()));
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->input_names, std::vector<std::string>{"x:0"});
  Output x = m->input("x:0");
  ASSERT_NE(x.node(), nullptr);
  EXPECT_EQ(x.node()->name(), "x_0");  // ':' cannot be in a node name
  EXPECT_EQ(x.type(), DT_FLOAT);
  EXPECT_EQ(x.shape(), PartialTensorShape({-1, 3}));
  EXPECT_EQ(m->opset, 13);
  EXPECT_EQ(m->producer, "rill-test");
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({{x, {{1.f, 1.f, 1.f}, {-5.f, 3.f, 0.f}}}}, {m->output("y")}, &out).ok());
  auto y = out[0].matrix<float>();
  EXPECT_EQ(out[0].shape(), TensorShape({2, 3}));
  const float want[2][3] = {{4.f, 0.f, 3.f}, {0.f, 2.f, 1.f}};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_FLOAT_EQ(y(i, j), want[i][j]) << i << "," << j;
  }
  // TensorFlow-style feeds and fetches by name work on the imported graph.
  std::vector<Tensor> by_name;
  Tensor xv(DT_FLOAT, TensorShape({1, 3}));
  xv.flat<float>().setConstant(1.f);
  ASSERT_TRUE(session.Run({{"x_0", xv}}, {m->outputs[0].name()}, {}, &by_name).ok());
  EXPECT_FLOAT_EQ(by_name[0].matrix<float>()(0, 0), 4.f);
  EXPECT_EQ(m->output("nope").node(), nullptr);
}

TEST(OnnxImport, ListsEveryUnsupportedNodeAtOnceAndAddsNothing) {
  ModelProto m = NewModel();
  AddInput(&m, "x", {1, 1, 2});
  AddNode(&m, "Relu", {"x"}, {"a"});
  AddNode(&m, "StringNormalizer", {"a"}, {"b"}, "my_normalizer");
  NodeProto* custom = AddNode(&m, "Frobnicate", {"b"}, {"c"}, "custom");
  custom->set_domain("com.example");
  auto* op = m.add_opset_import();
  op->set_domain("com.example");
  op->set_version(1);
  AddOutput(&m, "c");
  Scope root = Scope::NewRootScope();
  const int before = root.graph()->num_nodes();
  auto r = onnx::ImportModel(root, Bytes(m));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string msg(r.status().message());
  EXPECT_NE(msg.find("2 node(s)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("node 'my_normalizer' (StringNormalizer, domain 'ai.onnx', opset 13)"),
            std::string::npos)
      << msg;
  // A node of another domain is listed with that domain's opset.
  EXPECT_NE(msg.find("node 'custom' (Frobnicate, domain 'com.example', opset 1)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(root.graph()->num_nodes(), before);
  EXPECT_TRUE(root.ok());
  auto list = onnx::FindUnsupportedNodes(Bytes(m));
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].op_type, "StringNormalizer");
  EXPECT_EQ((*list)[1].domain, "com.example");
}

TEST(OnnxImport, AConversionErrorLeavesTheGraphAsItWas) {
  ModelProto m = NewModel();
  AddInput(&m, "x", {2, 3});
  AddInt64Init(m.mutable_graph(), "shape", {1}, {7});  // 6 elements cannot become 7
  AddNode(&m, "Reshape", {"x", "shape"}, {"y"}, "bad_reshape");
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto r = onnx::ImportModel(root, Bytes(m));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ONNX node 'bad_reshape' (Reshape"), std::string::npos)
      << r.status();
  EXPECT_EQ(root.graph()->num_nodes(), 0);
  EXPECT_TRUE(root.ok());
}

TEST(OnnxImport, RefusesMalformedFilesWithAStatus) {
  Scope root = Scope::NewRootScope();
  for (std::string bytes : {std::string("not a model"), std::string("\x08\x07\x12\xff", 4),
                            Bytes(AddReluModel()).substr(0, 40), std::string()}) {
    auto r = onnx::ImportModel(root, bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  }
  // A node reading a value nothing produces: ONNX's checker names it.
  ModelProto m = NewModel();
  AddInput(&m, "x", {2});
  AddNode(&m, "Relu", {"ghost"}, {"y"});
  AddOutput(&m, "y");
  auto r = onnx::ImportModel(root, Bytes(m));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("checker"), std::string::npos) << r.status();
  EXPECT_EQ(root.graph()->num_nodes(), 0);
  auto missing = onnx::ImportModelFile(root, "/nonexistent/model.onnx");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

TEST(OnnxImport, RefusesAnOpsetNewerThanItKnows) {
  ModelProto m = AddReluModel();
  m.mutable_opset_import(0)->set_version(18);
  auto r = onnx::ImportModel(Scope::NewRootScope(), Bytes(m), {.check_model = false});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("opset 18 is newer than 17"), std::string::npos)
      << r.status();
}

TEST(OnnxTensorProto, ChecksSizesAgainstTheData) {
  TensorProto t;
  t.set_data_type(TensorProto::FLOAT);
  t.add_dims(2);
  t.add_dims(2);
  t.set_raw_data(std::string(12, '\0'));  // 3 floats for 4 elements
  auto r = onnx::ParseTensorProto(t.SerializeAsString());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("holds 12 bytes of raw data, not 4 float"), std::string::npos)
      << r.status();
  // Dims whose product is huge with no data behind them: refused before any allocation.
  TensorProto huge;
  huge.set_data_type(TensorProto::DOUBLE);
  for (int i = 0; i < 4; ++i) huge.add_dims(int64_t{1} << 20);
  huge.set_raw_data("12345678");
  EXPECT_FALSE(onnx::ParseTensorProto(huge.SerializeAsString()).ok());
  TensorProto neg;
  neg.set_data_type(TensorProto::INT64);
  neg.add_dims(-1);
  EXPECT_FALSE(onnx::ParseTensorProto(neg.SerializeAsString()).ok());
  TensorProto ext;
  ext.set_data_type(TensorProto::FLOAT);
  ext.set_data_location(TensorProto::EXTERNAL);
  EXPECT_NE(onnx::ParseTensorProto(ext.SerializeAsString()).status().message().find("external"),
            std::string::npos);
  TensorProto half;
  half.set_data_type(TensorProto::FLOAT16);
  EXPECT_NE(onnx::ParseTensorProto(half.SerializeAsString()).status().message().find("FLOAT16"),
            std::string::npos);
  // Typed fields: bools travel as int32 values.
  TensorProto b;
  b.set_name("flags");
  b.set_data_type(TensorProto::BOOL);
  b.add_dims(3);
  for (int v : {1, 0, 5}) b.add_int32_data(v);
  std::string name;
  auto flags = onnx::ParseTensorProto(b.SerializeAsString(), &name);
  ASSERT_TRUE(flags.ok()) << flags.status();
  EXPECT_EQ(name, "flags");
  EXPECT_TRUE(flags->flat<bool>()(0));
  EXPECT_FALSE(flags->flat<bool>()(1));
  EXPECT_TRUE(flags->flat<bool>()(2));
}

// y = x W + b, trained toward targets: the initializers become variables a GradientDescent
// step moves, and a Reshape's shape stays a constant.
TEST(OnnxImport, TrainableImportFineTunes) {
  ModelProto m = NewModel();
  AddInput(&m, "x", {-1, 2});
  AddFloatInit(&m, "W", {2, 1}, {0.f, 0.f});
  AddFloatInit(&m, "b", {1}, {0.f});
  AddInt64Init(m.mutable_graph(), "flat", {1}, {-1});
  AddNode(&m, "Gemm", {"x", "W", "b"}, {"g"});
  AddNode(&m, "Reshape", {"g", "flat"}, {"y"});
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto r = onnx::ImportModel(root, Bytes(m), {.trainable = true});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->variables.size(), 2u);  // W and b; "flat" feeds Reshape's shape
  auto target = ops::Placeholder(root, DT_FLOAT);
  auto loss = ops::Mean(root, ops::Square(root, ops::Sub(root, r->output("y"), target)), {0});
  ops::GradientDescentOptimizer opt(0.1f);
  Operation train = opt.Minimize(root, loss);
  ASSERT_TRUE(root.ok()) << root.status();
  ClientSession session(root);
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  Session::FeedType feeds{{r->input("x"), {{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}}},
                          {target, {1.f, 2.f, 3.f}}};  // y = x1 + 2 x2
  std::vector<Tensor> first, last;
  ASSERT_TRUE(session.Run(feeds, {loss}, &first).ok());
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(session.Run(feeds, {}, {train}, nullptr).ok());
  ASSERT_TRUE(session.Run(feeds, {loss}, &last).ok());
  EXPECT_NEAR(first[0].scalar<float>()(), (1.f + 4.f + 9.f) / 3.f, 1e-6);
  EXPECT_LT(last[0].scalar<float>()(), 1e-3f);
}

// Resize's sizes as a graph input: unsupported, naming the input to bind; bound, it imports
// and the nearest resize reads, for output x, input floor((x + 0.5) / 2 - 0.5) (half_pixel).
TEST(OnnxImport, ShapeInputsCanBeBoundAsConstants) {
  ModelProto m = NewModel();
  AddInput(&m, "x", {1, 1, 2});
  AddInput(&m, "sizes", {3}, TensorProto::INT64);
  AddStringAttr(AddNode(&m, "Resize", {"x", "", "", "sizes"}, {"y"}), "nearest_mode", "floor");
  AddOutput(&m, "y");
  auto list = onnx::FindUnsupportedNodes(Bytes(m));
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].needs_inputs, std::vector<std::string>{"sizes"});
  Tensor sizes(DT_INT64, TensorShape({3}));
  sizes.flat<int64_t>()(0) = 1;
  sizes.flat<int64_t>()(1) = 1;
  sizes.flat<int64_t>()(2) = 4;
  Scope root = Scope::NewRootScope();
  auto r = onnx::ImportModel(root, Bytes(m), {.constant_inputs = {{"sizes", sizes}}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->input_names, std::vector<std::string>{"x"});
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  .Run({{r->input("x"), Input::Initializer({3.f, 5.f}, TensorShape({1, 1, 2}))}},
                       {r->output("y")}, &out)
                  .ok());
  ASSERT_EQ(out[0].shape(), TensorShape({1, 1, 4}));
  const float want[] = {3.f, 3.f, 3.f, 5.f};  // from -0.25, 0.25, 0.75, 1.25
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<float>()(i), want[i]) << i;
  auto bad = onnx::ImportModel(root, Bytes(m), {.constant_inputs = {{"nope", sizes}}});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

// An index outside [-dim, dim) is an error at run time, never another element's value.
TEST(OnnxImport, GatherElementsRefusesIndicesOutOfRange) {
  ModelProto m = NewModel();
  AddInput(&m, "data", {2, 2});
  AddInput(&m, "idx", {2, 2}, TensorProto::INT64);
  AddNode(&m, "GatherElements", {"data", "idx"}, {"y"});
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto r = onnx::ImportModel(root, Bytes(m));
  ASSERT_TRUE(r.ok()) << r.status();
  ClientSession session(root);
  Tensor data(DT_FLOAT, TensorShape({2, 2}));
  for (int i = 0; i < 4; ++i) data.flat<float>()(i) = static_cast<float>(i + 1);
  Tensor idx(DT_INT64, TensorShape({2, 2}));
  auto set = [&](std::vector<int64_t> v) {
    for (int i = 0; i < 4; ++i) idx.flat<int64_t>()(i) = v[i];
  };
  std::vector<Tensor> out;
  set({0, -1, 1, 0});  // axis 0: rows 0 and 1 (counted from the end) of column 1, ...
  ASSERT_TRUE(
      session.Run({{r->input("data"), data}, {r->input("idx"), idx}}, {r->output("y")}, &out).ok());
  const float want[] = {1.f, 4.f, 3.f, 2.f};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<float>()(i), want[i]) << i;
  for (int64_t bad : {2, -3}) {  // row 2 would be the next column's element in a flat buffer
    set({0, 0, bad, 0});
    absl::Status s =
        session.Run({{r->input("data"), data}, {r->input("idx"), idx}}, {r->output("y")}, &out);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad << ": " << s;
  }
}

// ONNX's Einsum takes any number of operands (rill's one or two: contracted in steps) and an
// implicit output (the ellipsis, then the labels seen once, sorted).
TEST(OnnxImport, EinsumOfThreeOperandsAndAnImplicitOutput) {
  ModelProto m = NewModel();
  AddInput(&m, "a", {2, 3});
  AddInput(&m, "b", {3, 4});
  AddInput(&m, "c", {4, 2});
  AddStringAttr(AddNode(&m, "Einsum", {"a", "b", "c"}, {"chain"}), "equation", "ij,jk,kl->li");
  AddStringAttr(AddNode(&m, "Einsum", {"a", "b"}, {"implicit"}), "equation", "ij, jk");
  AddOutput(&m, "chain");
  AddOutput(&m, "implicit");
  Scope root = Scope::NewRootScope();
  auto r = onnx::ImportModel(root, Bytes(m));
  ASSERT_TRUE(r.ok()) << r.status();
  Tensor a(DT_FLOAT, TensorShape({2, 3})), b(DT_FLOAT, TensorShape({3, 4})),
      c(DT_FLOAT, TensorShape({4, 2}));
  for (Tensor* t : {&a, &b, &c}) {
    for (int64_t i = 0; i < t->NumElements(); ++i) t->flat<float>()(i) = 0.5f * (i % 5) - 1.f;
  }
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  .Run({{r->input("a"), a}, {r->input("b"), b}, {r->input("c"), c}},
                       {r->output("chain"), r->output("implicit")}, &out)
                  .ok());
  ASSERT_EQ(out[0].shape(), TensorShape({2, 2}));
  ASSERT_EQ(out[1].shape(), TensorShape({2, 4}));
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t l = 0; l < 2; ++l) {
      double want = 0;
      for (int64_t j = 0; j < 3; ++j) {
        for (int64_t k = 0; k < 4; ++k) {
          want +=
              a.flat<float>()(i * 3 + j) * b.flat<float>()(j * 4 + k) * c.flat<float>()(k * 2 + l);
        }
      }
      EXPECT_NEAR(out[0].flat<float>()(l * 2 + i), want, 1e-5) << i << " " << l;
    }
    for (int64_t k = 0; k < 4; ++k) {
      double want = 0;
      for (int64_t j = 0; j < 3; ++j)
        want += a.flat<float>()(i * 3 + j) * b.flat<float>()(j * 4 + k);
      EXPECT_NEAR(out[1].flat<float>()(i * 4 + k), want, 1e-5) << i << " " << k;
    }
  }
}

// Numbers in a model that would make the import build huge tables are refused, not tried.
TEST(OnnxImport, RefusesSizesThatWouldMakeHugeImportTables) {
  auto int64s = [](ModelProto* m, const std::string& name, std::vector<int64_t> v) {
    AddInt64Init(m->mutable_graph(), name, {static_cast<int64_t>(v.size())}, v);
  };
  ModelProto resize = NewModel();
  AddInput(&resize, "x", {1, 1, 2});
  int64s(&resize, "sizes", {1, 1, int64_t{1} << 40});
  AddNode(&resize, "Resize", {"x", "", "", "sizes"}, {"y"}, "huge_resize");
  AddOutput(&resize, "y");
  ModelProto pad = NewModel();
  AddInput(&pad, "x", {2, 2});
  int64s(&pad, "pads", {0, int64_t{1} << 50, 0, 0});
  AddStringAttr(AddNode(&pad, "Pad", {"x", "pads"}, {"y"}, "huge_pad"), "mode", "edge");
  AddOutput(&pad, "y");
  // Found by the fuzzer with ONNX's checker off: a pool padded by 2^21 on one side made
  // 3.6 GB of padding windows and took a minute. Pads are now below the window (ONNX
  // Runtime's rule).
  ModelProto pool = NewModel();
  AddInput(&pool, "x", {1, 3, 28, 28});
  NodeProto* avg = AddNode(&pool, "AveragePool", {"x"}, {"y"}, "huge_pool");
  for (const auto& [name, v] :
       {std::pair<std::string, std::vector<int64_t>>{"kernel_shape", {3, 3}},
        {"pads", {2, 2, 2, 2097151}}}) {
    ::onnx::AttributeProto* a = avg->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  AddOutput(&pool, "y");
  ModelProto nms = NewModel();  // 64 x 128 selections to unroll (at most 4,096)
  AddInput(&nms, "boxes", {64, 2, 4});
  AddInput(&nms, "scores", {64, 128, 2});
  AddNode(&nms, "NonMaxSuppression", {"boxes", "scores"}, {"y"}, "huge_nms");
  AddOutput(&nms, "y", TensorProto::INT64);
  for (const ModelProto* m : {&resize, &pad, &pool, &nms}) {
    Scope root = Scope::NewRootScope();
    auto r = onnx::ImportModel(root, Bytes(*m));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(r.status().message().find("huge_"), std::string::npos) << r.status();
  }
}

// Found by the importer's fuzzer: indices of a dtype Gather does not take (here uint8) were
// read as int64 while counting from the end. Now they are refused by GatherV2's dtype check.
TEST(OnnxImport, GatherWithIndicesOfAnotherDtypeIsAStatus) {
  ModelProto m = NewModel();
  AddInput(&m, "data", {3, 2});
  AddInput(&m, "idx", {2}, TensorProto::UINT8);
  AddNode(&m, "Gather", {"data", "idx"}, {"y"});
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto r = onnx::ImportModel(root, Bytes(m));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_EQ(root.graph()->num_nodes(), 0);
}

// An imported LSTM (unrolled into rill ops) fine-tunes: its weights become variables whose
// gradients a GradientDescent step follows, lowering the loss.
TEST(OnnxImport, AnImportedLstmFineTunes) {
  ModelProto m = NewModel();
  AddInput(&m, "x", {3, 2, 4});  // [seq, batch, input]
  std::vector<float> w(1 * 8 * 4), r(1 * 8 * 2);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = 0.1f * static_cast<float>(static_cast<int>(i % 7) - 3);
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = 0.05f * static_cast<float>(static_cast<int>(i % 5) - 2);
  AddFloatInit(&m, "W", {1, 8, 4}, w);  // 4 gates x hidden 2
  AddFloatInit(&m, "R", {1, 8, 2}, r);
  NodeProto* lstm = AddNode(&m, "LSTM", {"x", "W", "R"}, {"Y", "Y_h"}, "lstm");
  ::onnx::AttributeProto* h = lstm->add_attribute();
  h->set_name("hidden_size");
  h->set_type(::onnx::AttributeProto::INT);
  h->set_i(2);
  AddOutput(&m, "Y_h");
  Scope root = Scope::NewRootScope();
  auto imported = onnx::ImportModel(root, Bytes(m), {.trainable = true});
  ASSERT_TRUE(imported.ok()) << imported.status();
  ASSERT_EQ(imported->variables.size(), 2u);
  EXPECT_EQ(imported->output("Y_h").shape(), PartialTensorShape({1, 2, 2}));
  // Drive the final hidden state toward 0.5 everywhere.
  auto loss =
      ops::Mean(root, ops::Square(root, ops::Sub(root, imported->output("Y_h"), 0.5f)), {0, 1, 2});
  Operation train = ops::GradientDescentOptimizer(1.0f).Minimize(root, loss);
  ASSERT_TRUE(root.ok()) << root.status();
  ClientSession session(root);
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  Tensor x(DT_FLOAT, TensorShape({3, 2, 4}));
  for (int64_t i = 0; i < x.NumElements(); ++i)
    x.flat<float>()(i) = 0.1f * static_cast<float>(i % 9);
  std::vector<Tensor> first, last;
  ASSERT_TRUE(session.Run({{imported->input("x"), x}}, {loss}, &first).ok());
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(session.Run({{imported->input("x"), x}}, {}, {train}, nullptr).ok());
  }
  ASSERT_TRUE(session.Run({{imported->input("x"), x}}, {loss}, &last).ok());
  EXPECT_LT(last[0].scalar<float>()(), 0.1f * first[0].scalar<float>()());
}

// Found by the importer's fuzzer: IsInf of an int32 input made a constant of infinity cast
// to int32 (undefined). Non-float inputs are refused; constants from a model's numbers
// saturate as rill's Cast does.
TEST(OnnxImport, IsInfOfIntegersIsAStatus) {
  ModelProto m = NewModel();
  AddInput(&m, "x", {2}, TensorProto::INT32);
  AddNode(&m, "IsInf", {"x"}, {"y"});
  AddOutput(&m, "y");
  auto r = onnx::ImportModel(Scope::NewRootScope(), Bytes(m));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("must be float or double, got int32"), std::string::npos)
      << r.status();
}

// Found by the importer's fuzzer: a node with no outputs (which ONNX's checker lets pass)
// made the importer read output 0 of an empty list.
TEST(OnnxImport, ANodeWithoutOutputsIsNoCrash) {
  ModelProto m = AddReluModel();
  AddNode(&m, "Relu", {"x:0"}, {"unused"}, "no_outputs")->clear_output();
  auto r = onnx::ImportModel(Scope::NewRootScope(), Bytes(m));
  EXPECT_TRUE(r.ok() || r.status().code() == absl::StatusCode::kInvalidArgument) << r.status();
}

// Pow by a constant 2 imports as Square (one multiply, fusable); other exponents stay Pow.
TEST(OnnxImport, PowByAConstantTwoIsASquare) {
  for (float e : {2.f, 3.f}) {
    ModelProto m = NewModel();
    AddInput(&m, "x", {2, 3});
    AddFloatInit(&m, "e", {1, 1}, {e});
    AddNode(&m, "Pow", {"x", "e"}, {"y"});
    AddOutput(&m, "y");
    Scope root = Scope::NewRootScope();
    auto imported = onnx::ImportModel(root, Bytes(m));
    ASSERT_TRUE(imported.ok()) << imported.status();
    int pows = 0, squares = 0;
    for (int i = 0; i < root.graph()->num_nodes(); ++i) {
      pows += root.graph()->node(i)->type_string() == "Pow";
      squares += root.graph()->node(i)->type_string() == "Square";
    }
    EXPECT_EQ(pows, e == 2.f ? 0 : 1);
    EXPECT_EQ(squares, e == 2.f ? 1 : 0);
    ClientSession session(root);
    std::vector<Tensor> out;
    Tensor x(DT_FLOAT, TensorShape({2, 3}));
    for (int i = 0; i < 6; ++i) x.flat<float>()(i) = 0.5f * static_cast<float>(i) - 1.25f;
    ASSERT_TRUE(session.Run({{imported->input("x"), x}}, {imported->output("y")}, &out).ok());
    ASSERT_EQ(out[0].shape(), TensorShape({2, 3}));
    for (int i = 0; i < 6; ++i) {
      EXPECT_FLOAT_EQ(out[0].flat<float>()(i), std::pow(x.flat<float>()(i), e)) << i;
    }
  }
}

TEST(OnnxImport, SupportedOpsAreRegistered) {
  std::vector<onnx::ConverterInfo> ops = onnx::SupportedOps();
  auto has = [&](const std::string& op) {
    for (const auto& c : ops) {
      if (c.op_type == op) return true;
    }
    return false;
  };
  for (const char* op : {"Conv", "Gemm", "Relu", "Reshape", "Softmax", "ReduceSum", "Slice"}) {
    EXPECT_TRUE(has(op)) << op;
  }
}

}  // namespace import_test
}  // namespace
}  // namespace rill
