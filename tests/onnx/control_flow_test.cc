// ONNX's If and Loop through the importer: branches and bodies that read outer values, an
// If the importer resolves itself, Loop's carried values and scan outputs, and recurrent
// ops over a sequence whose length is known only when the model runs, run and trained.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace control_flow_test {

using ::onnx::TensorProto;
using namespace onnx_test;

bool HasOp(const Graph& g, const std::string& op) {
  for (int i = 0; i < g.num_nodes(); ++i) {
    if (g.node(i)->type_string() == op) return true;
  }
  return false;
}

Tensor Floats(std::vector<int64_t> dims, std::vector<float> v) {
  Tensor t(DT_FLOAT, TensorShape(dims));
  for (size_t i = 0; i < v.size(); ++i) t.flat<float>()(i) = v[i];
  return t;
}

// y = flag ? Relu(x) : -(x + b): both branches read x from the outer graph, the second
// its own initializer b.
TEST(OnnxControlFlow, IfRunsTheBranchTheFlagChooses) {
  auto m = NewModel();
  AddInput(&m, "x", {-1, 3});
  AddInput(&m, "flag", {1}, TensorProto::BOOL);
  auto* node = AddNode(&m, "If", {"flag"}, {"y"});
  auto* then_g = AddGraphAttr(node, "then_branch");
  AddNode(then_g, "Relu", {"x"}, {"t"});
  AddOutput(then_g, "t");
  auto* else_g = AddGraphAttr(node, "else_branch");
  AddFloatInit(else_g, "b", {3}, {1.f, 2.f, 3.f});
  AddNode(else_g, "Add", {"x", "b"}, {"s"});
  AddNode(else_g, "Neg", {"s"}, {"e"});
  AddOutput(else_g, "e");
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, Bytes(m));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(HasOp(*root.graph(), "If"));
  Session session(root);
  const Tensor x = Floats({2, 3}, {-1, 2, -3, 4, -5, 6});
  std::vector<Tensor> out;
  for (bool flag : {true, false}) {
    Tensor f(DT_BOOL, TensorShape({1}));
    f.flat<bool>()(0) = flag;
    ASSERT_TRUE(
        session.Run({{model->input("x"), x}, {model->input("flag"), f}}, {model->output("y")}, &out)
            .ok());
    const std::vector<float> want =
        flag ? std::vector<float>{0, 2, 0, 4, 0, 6} : std::vector<float>{0, -4, 0, -5, 3, -9};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].flat<float>()(i), want[i]) << flag << i;
  }
}

// PyTorch's shape checks: If(Equal(Gather(Shape(x), 1), 3)) is decided while importing,
// so the branch's nodes go inline and the output keeps the branch's rank.
TEST(OnnxControlFlow, AnIfOnKnownDimsIsResolvedWhileImporting) {
  auto m = NewModel();
  AddInput(&m, "x", {-1, 3});
  AddInt64Init(m.mutable_graph(), "one", {}, {1});
  AddInt64Init(m.mutable_graph(), "three", {}, {3});
  AddInt64Init(m.mutable_graph(), "axis1", {1}, {1});
  AddNode(&m, "Shape", {"x"}, {"shape"});
  AddNode(&m, "Gather", {"shape", "one"}, {"dim"});
  AddNode(&m, "Equal", {"dim", "three"}, {"is3"});
  auto* node = AddNode(&m, "If", {"is3"}, {"y"});
  auto* then_g = AddGraphAttr(node, "then_branch");
  auto* sum = AddNode(then_g, "ReduceSum", {"x", "axis1"}, {"t"});
  auto* keep = sum->add_attribute();
  keep->set_name("keepdims");
  keep->set_type(::onnx::AttributeProto::INT);
  keep->set_i(0);
  AddOutput(then_g, "t");
  auto* else_g = AddGraphAttr(node, "else_branch");
  AddNode(else_g, "Identity", {"x"}, {"e"});
  AddOutput(else_g, "e");
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, Bytes(m));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_FALSE(HasOp(*root.graph(), "If"));
  EXPECT_EQ(model->output("y").shape().dims(), 1);
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  .Run({{model->input("x"), Floats({2, 3}, {1, 2, 3, 4, 5, 6})}},
                       {model->output("y")}, &out)
                  .ok());
  EXPECT_EQ(out[0].shape(), TensorShape({2}));
  EXPECT_EQ(out[0].flat<float>()(0), 6.f);
  EXPECT_EQ(out[0].flat<float>()(1), 15.f);
}

// for i < M while cond: v = v + x * i; scan out v. With M fed, as a model's trip count.
TEST(OnnxControlFlow, LoopCarriesValuesAndStacksScanOutputs) {
  auto m = NewModel();
  AddInput(&m, "M", {}, TensorProto::INT64);
  AddInput(&m, "x", {2});
  AddFloatInit(m.mutable_graph(), "v0", {2}, {0.f, 0.f});
  auto* cond_init = m.mutable_graph()->add_initializer();
  cond_init->set_name("go");
  cond_init->set_data_type(TensorProto::BOOL);
  cond_init->add_int32_data(1);
  auto* node = AddNode(&m, "Loop", {"M", "go", "v0"}, {"v", "scan"});
  auto* body = AddGraphAttr(node, "body");
  AddInput(body, "i", {}, TensorProto::INT64);
  AddInput(body, "c", {}, TensorProto::BOOL);
  AddInput(body, "v_in", {2});
  AddNode(body, "Identity", {"c"}, {"c_out"});
  AddNode(body, "Cast", {"i"}, {"fi"})->add_attribute()->CopyFrom([] {
    ::onnx::AttributeProto a;
    a.set_name("to");
    a.set_type(::onnx::AttributeProto::INT);
    a.set_i(TensorProto::FLOAT);
    return a;
  }());
  AddNode(body, "Mul", {"x", "fi"}, {"step"});
  AddNode(body, "Add", {"v_in", "step"}, {"v_out"});
  AddNode(body, "Identity", {"v_out"}, {"s_out"});
  AddOutput(body, "c_out", TensorProto::BOOL);
  AddOutput(body, "v_out");
  AddOutput(body, "s_out");
  AddOutput(&m, "v");
  AddOutput(&m, "scan");
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, Bytes(m));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(HasOp(*root.graph(), "While"));
  Session session(root);
  const Tensor x = Floats({2}, {1, 10});
  for (int64_t trips : {4, 1}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(session
                    .Run({{model->input("M"), Tensor(trips)}, {model->input("x"), x}},
                         {model->output("v"), model->output("scan")}, &out)
                    .ok());
    // v after i = 0..trips-1: x * (0 + 1 + ... + trips-1).
    const float sum = trips * (trips - 1) / 2.f;
    EXPECT_EQ(out[0].flat<float>()(0), sum);
    EXPECT_EQ(out[0].flat<float>()(1), 10 * sum);
    ASSERT_EQ(out[1].shape(), TensorShape({trips, 2}));
    float running = 0;
    for (int64_t i = 0; i < trips; ++i) {
      running += i;
      EXPECT_EQ(out[1].flat<float>()(2 * i + 1), 10 * running) << i;
    }
  }
}

void AddIntsAttr(::onnx::NodeProto* n, const std::string& name, std::vector<int64_t> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

// Scan over a [3, 2] (axis 0, forward) and b [2, 3] (axis 1, reverse) with a state s:
// s += a_t, y1 = s stacked along axis 0, y2 = b_t * a_t stacked along axis 1 in reverse.
TEST(OnnxControlFlow, ScanSlicesItsInputsAndPlacesItsOutputsByAxisAndDirection) {
  auto m = NewModel(16);
  AddInput(&m, "s0", {2});
  AddInput(&m, "a", {-1, 2});
  AddInput(&m, "b", {2, -1});
  auto* node = AddNode(&m, "Scan", {"s0", "a", "b"}, {"s", "y1", "y2"});
  auto* n = node->add_attribute();
  n->set_name("num_scan_inputs");
  n->set_type(::onnx::AttributeProto::INT);
  n->set_i(2);
  AddIntsAttr(node, "scan_input_axes", {0, 1});
  AddIntsAttr(node, "scan_input_directions", {0, 1});
  AddIntsAttr(node, "scan_output_axes", {0, -1});
  AddIntsAttr(node, "scan_output_directions", {0, 1});
  auto* body = AddGraphAttr(node, "body");
  AddInput(body, "s_in", {2});
  AddInput(body, "a_t", {2});
  AddInput(body, "b_t", {2});
  AddNode(body, "Add", {"s_in", "a_t"}, {"s_out"});
  AddNode(body, "Identity", {"s_out"}, {"y1_t"});
  AddNode(body, "Mul", {"b_t", "a_t"}, {"y2_t"});
  for (const char* o : {"s_out", "y1_t", "y2_t"}) AddOutput(body, o);
  for (const char* o : {"s", "y1", "y2"}) AddOutput(&m, o);
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, Bytes(m));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(HasOp(*root.graph(), "While"));
  Session session(root);
  const Tensor s0 = Floats({2}, {0.5f, -1}), a = Floats({3, 2}, {1, 2, 3, 4, 5, 6});
  const Tensor b = Floats({2, 3}, {1, 10, 100, -1, -10, -100});
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  .Run({{model->input("s0"), s0}, {model->input("a"), a}, {model->input("b"), b}},
                       {model->output("s"), model->output("y1"), model->output("y2")}, &out)
                  .ok());
  ASSERT_EQ(out[1].shape(), TensorShape({3, 2}));
  ASSERT_EQ(out[2].shape(), TensorShape({2, 3}));
  float s[2] = {0.5f, -1};
  for (int t = 0; t < 3; ++t) {
    for (int c = 0; c < 2; ++c) {
      const float at = a.flat<float>()(2 * t + c), bt = b.flat<float>()(3 * c + (2 - t));
      s[c] += at;
      EXPECT_EQ(out[1].flat<float>()(2 * t + c), s[c]) << t << "," << c;
      EXPECT_EQ(out[2].flat<float>()(3 * c + (2 - t)), bt * at) << t << "," << c;
    }
  }
  EXPECT_EQ(out[0].flat<float>()(0), s[0]);
  EXPECT_EQ(out[0].flat<float>()(1), s[1]);
}

// Opset 8's Scan (batched, with sequence_lens) is refused, saying so.
TEST(OnnxControlFlow, OpsetEightScanIsRefusedSayingWhy) {
  auto m = NewModel(8);
  AddInput(&m, "x", {1, 3, 2});
  auto* node = AddNode(&m, "Scan", {"", "x"}, {"y"});
  auto* n = node->add_attribute();
  n->set_name("num_scan_inputs");
  n->set_type(::onnx::AttributeProto::INT);
  n->set_i(1);
  auto* body = AddGraphAttr(node, "body");
  AddInput(body, "x_t", {2});
  AddNode(body, "Identity", {"x_t"}, {"y_t"});
  AddOutput(body, "y_t");
  AddOutput(&m, "y");
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, Bytes(m));
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(absl::StrContains(model.status().message(), "opset 8's Scan")) << model.status();
}

// An LSTM over X [T, 1, 2] whose T is unknown while importing (a While loop) gives what
// the same model with T known (unrolled) gives.
::onnx::ModelProto LstmModel(int64_t steps, const std::string& direction) {
  auto m = NewModel();
  AddInput(&m, "X", {steps, 1, 2});
  std::vector<float> w(4 * 3 * 2), r(4 * 3 * 3), b(8 * 3);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.1f * static_cast<float>(i % 7) - 0.3f;
  for (size_t i = 0; i < r.size(); ++i) r[i] = 0.05f * static_cast<float>(i % 5) - 0.1f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.02f * static_cast<float>(i % 3);
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  w.resize(dirs * w.size());
  r.resize(dirs * r.size());
  b.resize(dirs * b.size());
  AddFloatInit(&m, "W", {dirs, 12, 2}, w);
  AddFloatInit(&m, "R", {dirs, 12, 3}, r);
  AddFloatInit(&m, "B", {dirs, 24}, b);
  auto* n = AddNode(&m, "LSTM", {"X", "W", "R", "B"}, {"Y", "Y_h", "Y_c"});
  auto* h = n->add_attribute();
  h->set_name("hidden_size");
  h->set_type(::onnx::AttributeProto::INT);
  h->set_i(3);
  AddStringAttr(n, "direction", direction);
  for (const char* o : {"Y", "Y_h", "Y_c"}) AddOutput(&m, o);
  return m;
}

// The LSTMs' input: X [5, 1, 2].
Tensor LstmInput() {
  Tensor x(DT_FLOAT, TensorShape({5, 1, 2}));
  for (int i = 0; i < 10; ++i) x.flat<float>()(i) = 0.3f * static_cast<float>(i) - 1.f;
  return x;
}

// The same shapes and values within `tolerance`, tensor by tensor.
void ExpectAllNear(const std::vector<Tensor>& a, const std::vector<Tensor>& b, double tolerance,
                   const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].shape(), b[k].shape()) << what << " " << k;
    for (int64_t i = 0; i < a[k].NumElements(); ++i) {
      EXPECT_NEAR(a[k].flat<float>()(i), b[k].flat<float>()(i), tolerance)
          << what << " " << k << " element " << i;
    }
  }
}

TEST(OnnxControlFlow, RecurrentOpsOfUnknownLengthLoopAsTheUnrolledOnesCompute) {
  const Tensor x = LstmInput();
  for (const char* direction : {"forward", "reverse", "bidirectional"}) {
    std::vector<Tensor> got[2];
    for (int known = 0; known < 2; ++known) {
      Scope root = Scope::NewRootScope();
      auto model = onnx::ImportModel(root, Bytes(LstmModel(known ? 5 : -1, direction)));
      ASSERT_TRUE(model.ok()) << model.status();
      EXPECT_EQ(HasOp(*root.graph(), "While"), known == 0);
      EXPECT_EQ(model->output("Y").shape().dims(), 4);
      Session session(root);
      ASSERT_TRUE(session.Run({{model->input("X"), x}}, model->outputs, &got[known]).ok());
    }
    ExpectAllNear(got[0], got[1], 1e-6, std::string(direction) + " output");
  }
}

// Imported trainable, the same LSTMs fine-tune alike: the gradients of a loss for the
// weights and the input through the While (T unknown) equal those of the unrolled import.
TEST(OnnxControlFlow, RecurrentOpsOfUnknownLengthDifferentiateAsTheUnrolledOnes) {
  const Tensor x = LstmInput();
  for (const char* direction : {"forward", "reverse", "bidirectional"}) {
    std::vector<Tensor> got[2];
    for (int known = 0; known < 2; ++known) {
      Scope root = Scope::NewRootScope();
      auto model =
          onnx::ImportModel(root, Bytes(LstmModel(known ? 5 : -1, direction)), {.trainable = true});
      ASSERT_TRUE(model.ok()) << model.status();
      ASSERT_EQ(model->variables.size(), 3u);
      std::vector<Output> wrt = model->variables;
      wrt.push_back(model->input("X"));
      auto y = ops::Reshape(root, model->output("Y"), {-1});
      auto yc = ops::Reshape(root, model->output("Y_c"), {-1});
      auto loss = ops::Add(root, ops::Sum(root, ops::Square(root, y), 0), ops::Sum(root, yc, 0));
      std::vector<Output> grads;
      absl::Status s = AddSymbolicGradients(root, {loss}, wrt, &grads);
      ASSERT_TRUE(s.ok()) << s;
      Session session(root);
      ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
      s = session.Run({{model->input("X"), x}}, grads, &got[known]);
      ASSERT_TRUE(s.ok()) << s;
    }
    ExpectAllNear(got[0], got[1], 1e-5, std::string(direction) + " gradient");
  }
}

// Ifs nested `depth` deep, each branch reading x from the top graph: the innermost
// returns Neg(x) or x; every level passes it up.
::onnx::ModelProto NestedIfs(int depth) {
  auto m = NewModel();
  AddInput(&m, "x", {2});
  AddInput(&m, "flag", {1}, TensorProto::BOOL);
  ::onnx::GraphProto* g = m.mutable_graph();
  std::string out = "y";
  for (int level = 0; level < depth; ++level) {
    auto* node = AddNode(g, "If", {"flag"}, {out}, absl::StrCat("if", level));
    auto* else_g = AddGraphAttr(node, "else_branch");
    AddNode(else_g, "Identity", {"x"}, {absl::StrCat("e", level)});
    AddOutput(else_g, absl::StrCat("e", level));
    g = AddGraphAttr(node, "then_branch");
    out = absl::StrCat("t", level);
    AddOutput(g, out);
  }
  AddNode(g, "Neg", {"x"}, {out});
  AddOutput(&m, "y");
  return m;
}

// Each branch is converted once, so nesting costs linear work; past kMaxSubgraphDepth (8)
// levels the model is refused before anything is built.
TEST(OnnxControlFlow, NestedSubgraphsAreBoundedAndCapturedThroughEveryLevel) {
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, Bytes(NestedIfs(8)));
  ASSERT_TRUE(model.ok()) << model.status();
  Session session(root);
  Tensor f(DT_BOOL, TensorShape({1}));
  f.flat<bool>()(0) = true;
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  .Run({{model->input("x"), Floats({2}, {1.5f, -2.f})}, {model->input("flag"), f}},
                       {model->output("y")}, &out)
                  .ok());
  EXPECT_EQ(out[0].flat<float>()(0), -1.5f);
  EXPECT_EQ(out[0].flat<float>()(1), 2.f);
  auto deep = onnx::ImportModel(Scope::NewRootScope(), Bytes(NestedIfs(10)));
  EXPECT_EQ(deep.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(deep.status().message()).find("nested more than 8 deep"), std::string::npos)
      << deep.status();
}

}  // namespace control_flow_test
}  // namespace
}  // namespace rill
