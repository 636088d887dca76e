// Graph files: round trips that give the same results, special values, assigned devices,
// files on disk, and malformed input that must leave the graph untouched.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "absl/strings/str_cat.h"
#include "rill/runtime/io/attr_text.h"
#include "test_util.h"

namespace rill {
namespace {
namespace graph_io_test {

using namespace ops;  // NOLINT

// A small conv net with seeded random weights: placeholders, variables, and most kinds of
// attribute (bool, type, string, int list, shape, tensor).
struct Net {
  Scope root = Scope::NewRootScope();
  Output x, probs, sum;
};

Net BuildNet() {
  Net n;
  Scope s = n.root;
  n.x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 6, 6, 1}));
  Scope conv = s.NewSubScope("conv");
  auto k = Variable(conv.WithOpName("kernel"),
                    RandomNormal(conv, {3, 3, 1, 2}, DT_FLOAT, RandomAttrs().Seed(3).Seed2(4)));
  auto c = Relu(conv, Conv2D(conv, n.x, k, {1, 2, 2, 1}, "SAME"));
  auto flat = Reshape(s, c, {-1, 18});
  Scope dense = s.NewSubScope("dense");
  auto w = Variable(dense.WithOpName("kernel"),
                    RandomUniform(dense, {18, 3}, DT_FLOAT, RandomAttrs().Seed(7)));
  auto b = Variable(dense.WithOpName("bias"), {0.5f, -0.25f, 0.125f});
  auto logits = Add(dense, MatMul(dense, flat, w, MatMul::TransposeB(false)), b);
  n.probs = Softmax(s.WithOpName("probs"), logits);
  n.sum = Sum(s.WithOpName("sum"), Cast(s, n.probs, DT_DOUBLE), {1}, Sum::KeepDims(true));
  return n;
}

Tensor Input6x6(int batch) { return testing::RandomTensor(DT_FLOAT, {batch, 6, 6, 1}, -1, 1, 11); }

void ExpectBitwiseEqual(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.TotalBytes()), 0);
}

TEST(GraphFiles, RoundTripRunsToTheSameResults) {
  Net net = BuildNet();
  ASSERT_TRUE(net.root.ok()) << net.root.status();
  Session original(net.root, SessionOptions(), testing::CpuOnly());
  ASSERT_TRUE(original.Run({}, {}, {GlobalVariablesInitializer(net.root)}, nullptr).ok());
  std::vector<Tensor> want;
  ASSERT_TRUE(original.Run({{net.x, Input6x6(4)}}, {net.probs, net.sum}, &want).ok());

  absl::StatusOr<std::string> text = GraphToText(*net.root.graph());
  ASSERT_TRUE(text.ok()) << text.status();

  Scope loaded = Scope::NewRootScope();
  GraphImportResult result;
  ASSERT_TRUE(GraphFromText(*text, loaded, &result).ok());
  EXPECT_EQ(static_cast<int>(result.nodes.size()), net.root.graph()->num_nodes());
  EXPECT_EQ(loaded.graph()->initializers().size(), net.root.graph()->initializers().size());
  // Written again, the loaded graph gives the same file.
  EXPECT_EQ(*GraphToText(*loaded.graph()), *text);

  Session session(loaded, SessionOptions(), testing::CpuOnly());
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(loaded)}, nullptr).ok());
  auto x = FindOutput(*loaded.graph(), "x");
  auto probs = FindOutput(*loaded.graph(), "probs:0");
  auto sum = FindOutput(*loaded.graph(), "sum");
  ASSERT_TRUE(x.ok() && probs.ok() && sum.ok());
  std::vector<Tensor> got;
  ASSERT_TRUE(session.Run({{*x, Input6x6(4)}}, {*probs, *sum}, &got).ok());
  ExpectBitwiseEqual(got[0], want[0]);
  ExpectBitwiseEqual(got[1], want[1]);
  EXPECT_NEAR(got[1].flat<double>()(0), 1.0, 1e-6);
}

TEST(GraphFiles, ConstantsKeepEveryValueExactly) {
  Scope s = Scope::NewRootScope();
  const float fmin = std::numeric_limits<float>::denorm_min();
  Tensor f = testing::FromDoubles(DT_FLOAT, {6}, {0.1, -0.0, 3.4028234663852886e38, 0, 0, 0});
  f.flat<float>()(3) = fmin;
  f.flat<float>()(4) = std::numeric_limits<float>::infinity();
  f.flat<float>()(5) = -std::numeric_limits<float>::infinity();
  Tensor nan(std::numeric_limits<double>::quiet_NaN());
  Tensor d = testing::FromDoubles(DT_DOUBLE, {2}, {0.1, 1.0 / 3.0});
  Tensor i64(DT_INT64, {2});
  i64.flat<int64_t>()(0) = std::numeric_limits<int64_t>::min();
  i64.flat<int64_t>()(1) = std::numeric_limits<int64_t>::max();
  Tensor u8 = testing::FromDoubles(DT_UINT8, {3}, {0, 128, 255});
  Tensor b = testing::FromDoubles(DT_BOOL, {2}, {1, 0});
  Tensor empty(DT_FLOAT, {0, 3});
  std::vector<Tensor> values = {f, nan, d, i64, u8, b, empty};
  std::vector<Output> consts;
  for (size_t i = 0; i < values.size(); ++i) {
    consts.push_back(Const(s.WithOpName(absl::StrCat("c", i)), values[i]));
  }
  auto text = GraphToText(*s.graph());
  ASSERT_TRUE(text.ok());
  Scope loaded = Scope::NewRootScope();
  ASSERT_TRUE(GraphFromText(*text, loaded).ok());
  for (size_t i = 0; i < values.size(); ++i) {
    const Tensor* v = loaded.graph()->FindNode(absl::StrCat("c", i))->constant_value();
    ASSERT_NE(v, nullptr);
    if (i == 1) {
      EXPECT_TRUE(std::isnan(*static_cast<const double*>(v->data())));
      continue;
    }
    ExpectBitwiseEqual(*v, values[i]);
  }
}

TEST(GraphFiles, AssignedDevicesAreWrittenAndReadBack) {
  Net net = BuildNet();
  Session session(net.root, SessionOptions(), testing::CpuOnly());
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(net.root)}, nullptr).ok());
  auto text = GraphToText(*net.root.graph(), {.session = &session});
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("assigned_device: \"/job:localhost/replica:0/task:0/device:CPU:0\""),
            std::string::npos);
  Scope loaded = Scope::NewRootScope();
  GraphImportResult result;
  ASSERT_TRUE(GraphFromText(*text, loaded, &result).ok());
  // The initializers ran, so the variables were placed; x (never fed yet) was not.
  EXPECT_EQ(result.assigned_devices.at("dense/kernel"),
            "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(result.assigned_devices.count("x"), 0u);
}

TEST(GraphFiles, RequestedDevicesSurvive) {
  Scope s = Scope::NewRootScope();
  auto a = Const(s.WithOpName("a").WithDevice("/device:GPU:*"), 2.f);
  auto v = Variable(s.WithOpName("v"), 1.f);
  (void)Add(s.WithOpName("sum").WithDevice("/cpu:0").ColocateWith(v.output), a, v);
  auto text = GraphToText(*s.graph());
  Scope loaded = Scope::NewRootScope();
  ASSERT_TRUE(GraphFromText(*text, loaded).ok());
  EXPECT_EQ(loaded.graph()->FindNode("a")->requested_device(), "/device:GPU:*");
  EXPECT_EQ(loaded.graph()->FindNode("sum")->requested_device(), "/cpu:0");
  EXPECT_EQ(loaded.graph()->FindNode("sum")->colocate_with(), "v");
  // Soft placement runs the GPU request on the CPU when there is none.
  Session session(loaded, SessionOptions(), testing::CpuOnly());
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(loaded)}, nullptr).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({*FindOutput(*loaded.graph(), "sum")}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 3.f);
}

TEST(GraphFiles, SaveAndLoadThroughAFile) {
  Net net = BuildNet();
  const std::string path = ::testing::TempDir() + "/net.rgraph";
  ASSERT_TRUE(SaveGraph(*net.root.graph(), path).ok());
  Scope loaded = Scope::NewRootScope();
  ASSERT_TRUE(LoadGraph(path, loaded).ok());
  EXPECT_EQ(loaded.graph()->num_nodes(), net.root.graph()->num_nodes());
  std::remove(path.c_str());
  absl::Status missing = LoadGraph(path, Scope::NewRootScope());
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound) << missing;
}

TEST(GraphFiles, LoadedNodesKeepTheirNamesAndNewOpsGetFreshOnes) {
  Scope s = Scope::NewRootScope();
  (void)Add(s, Const(s, 1.f), Const(s, 2.f));
  auto text = GraphToText(*s.graph());
  Scope loaded = Scope::NewRootScope();
  ASSERT_TRUE(GraphFromText(*text, loaded).ok());
  auto more = Add(loaded, Const(loaded, 3.f), Const(loaded, 4.f));
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(more.node()->name(), "Add_1");
  // Loading the same file again clashes with the names already there.
  absl::Status again = GraphFromText(*text, loaded);
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists) << again;
  EXPECT_NE(std::string(again.message()).find("'Const'"), std::string::npos) << again;
}

TEST(GraphFiles, FindOutputNamesWhatIsWrong) {
  Scope s = Scope::NewRootScope();
  (void)Const(s.WithOpName("c"), 1.f);
  EXPECT_EQ(FindOutput(*s.graph(), "nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(FindOutput(*s.graph(), "c:1").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FindOutput(*s.graph(), "c:x").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(FindOutput(*s.graph(), "c:0").ok());
}

const char kHeader[] = "version: 1\n";
const char kConst[] =
    "node { name: \"c\" op: \"Const\" attr { key: \"dtype\" type: float } "
    "attr { key: \"value\" tensor { dtype: float shape: [2] values: [1, 2] } } }\n";

// Nodes may come in any order (TensorFlow's GraphDefs do): each is added after its inputs,
// and GraphImportResult lists them in that order.
TEST(GraphFiles, NodesLoadInAnyOrder) {
  const std::string text = std::string(kHeader) +
                           "node { name: \"n\" op: \"Neg\" input: \"c:0\" input: \"^m\" }\n"
                           "node { name: \"m\" op: \"Square\" input: \"c\" }\n" +
                           kConst;
  Scope loaded = Scope::NewRootScope();
  GraphImportResult result;
  ASSERT_TRUE(GraphFromText(text, loaded, &result).ok());
  ASSERT_EQ(result.nodes.size(), 3u);
  EXPECT_EQ(result.nodes[0].node()->name(), "c");
  EXPECT_EQ(result.nodes[1].node()->name(), "m");
  EXPECT_EQ(result.nodes[2].node()->name(), "n");
  Session session(loaded);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {Output(result.nodes[2].node(), 0)}, &out).ok());
  testing::ExpectTensorNear(out[0], DT_FLOAT, {2}, {-1, -2}, 0);
}

struct BadFile {
  const char* why;
  std::string text;
  const char* message;  // a part of the error
};

std::vector<BadFile> BadFiles() {
  const std::string h = kHeader;
  const std::string c = kConst;
  std::string deep = h + "node {";
  for (int i = 0; i < 40; ++i) deep += " a {";
  return {
      {"empty", "", "no 'version'"},
      {"future version", "version: 2\n", "version 2"},
      {"unknown top-level field", h + "nodes { }\n", "unknown field 'nodes'"},
      {"binary garbage",
       std::string("\x7f"
                   "ELF\x01\x02",
                   6),
       "unexpected character"},
      {"unterminated string", h + "node { name: \"c }\n", "unterminated string"},
      {"bad escape", h + "node { name: \"a\\q\" }\n", "unknown escape"},
      {"missing brace", h + "node { name: \"c\" op: \"Const\"\n", "expected '}'"},
      {"stray brace", h + "}\n", "expected a field name"},
      {"node without op", h + "node { name: \"c\" }\n", "needs a name and an op"},
      {"repeated name field", h + "node { name: \"a\" name: \"b\" op: \"NoOp\" }\n", "given twice"},
      {"unknown node field", h + "node { name: \"a\" op: \"NoOp\" colour: 3 }\n",
       "unknown node field"},
      {"unknown op", h + "node { name: \"a\" op: \"Frobnicate\" }\n", "Frobnicate"},
      {"missing input", h + "node { name: \"n\" op: \"Neg\" input: \"d:0\" }\n" + c,
       "'d', which is not a node of the graph"},
      {"self loop", h + "node { name: \"n\" op: \"Neg\" input: \"n:0\" }\n", "on a cycle"},
      {"cycle",
       h +
           "node { name: \"n\" op: \"Neg\" input: \"m:0\" }\n"
           "node { name: \"m\" op: \"Neg\" input: \"^n\" input: \"c:0\" }\n" +
           c,
       "node 'n' is on a cycle"},
      {"output index out of range", h + c + "node { name: \"n\" op: \"Neg\" input: \"c:3\" }\n",
       "has 1 outputs"},
      {"negative output index", h + c + "node { name: \"n\" op: \"Neg\" input: \"c:-1\" }\n",
       "bad input"},
      {"duplicate node", h + c + c, "c"},
      {"dtype mismatch",
       h + c +
           "node { name: \"i\" op: \"Const\" attr { key: \"dtype\" type: int32 } attr { key: "
           "\"value\" tensor { dtype: int32 shape: [] values: [1] } } }\n"
           "node { name: \"s\" op: \"Add\" input: \"c:0\" input: \"i:0\" }\n",
       "dtype"},
      {"attr of the wrong kind",
       h + c +
           "node { name: \"m\" op: \"MatMul\" input: \"c:0\" input: \"c:0\" "
           "attr { key: \"transpose_a\" i: 1 } }\n",
       "transpose_a"},
      {"unknown attr", h + "node { name: \"a\" op: \"NoOp\" attr { key: \"x\" b: true } }\n",
       "unknown attribute 'x'"},
      {"attr without key", h + "node { name: \"a\" op: \"NoOp\" attr { b: true } }\n", "key"},
      {"unknown dtype",
       h + "node { name: \"p\" op: \"Placeholder\" attr { key: \"dtype\" "
           "type: float17 } }\n",
       "not a dtype"},
      {"too few values",
       h + "node { name: \"c\" op: \"Const\" attr { key: \"dtype\" type: float } attr { key: "
           "\"value\" tensor { dtype: float shape: [2, 2] values: [1, 2, 3] } } }\n",
       "needs 4 values, got 3"},
      {"uint8 out of range",
       h + "node { name: \"c\" op: \"Const\" attr { key: \"dtype\" type: uint8 } attr { key: "
           "\"value\" tensor { dtype: uint8 shape: [1] values: [256] } } }\n",
       "not a valid uint8"},
      {"not a number",
       h + "node { name: \"c\" op: \"Const\" attr { key: \"dtype\" type: float } attr { key: "
           "\"value\" tensor { dtype: float shape: [1] values: [one] } } }\n",
       "needs a number"},
      {"shape that overflows",
       h + "node { name: \"c\" op: \"Const\" attr { key: \"dtype\" type: float } attr { key: "
           "\"value\" tensor { dtype: float shape: [4294967296, 4294967296] values: [] } } }\n",
       "more elements than fit"},
      {"dim below -1",
       h + "node { name: \"p\" op: \"Placeholder\" attr { key: \"dtype\" type: float } "
           "attr { key: \"shape\" shape: [-2] } }\n",
       "below -1"},
      {"rank too high",
       h + "node { name: \"p\" op: \"Placeholder\" attr { key: \"dtype\" type: float } "
           "attr { key: \"shape\" shape: [1,1,1,1,1,1,1,1,1] } }\n",
       "rank 9"},
      {"bad device", h + "node { name: \"a\" op: \"NoOp\" device: \"/TPU:zero\" }\n", "TPU"},
      {"bad assigned device",
       h + "node { name: \"a\" op: \"NoOp\" assigned_device: \"gpu please\" }\n",
       "assigned device"},
      {"bad node name", h + "node { name: \"a b\" op: \"NoOp\" }\n", "a b"},
      {"unknown initializer", h + c + "initializer: \"v\"\n", "initializer 'v'"},
      {"nested too deep", deep, "nested deeper"},
      {"shape of a wrong op input",
       h + c + "node { name: \"m\" op: \"MatMul\" input: \"c:0\" input: \"c:0\" }\n", "rank"},
  };
}

TEST(GraphFiles, MalformedFilesAreErrorsAndChangeNothing) {
  for (const BadFile& bad : BadFiles()) {
    Scope s = Scope::NewRootScope();
    (void)Const(s.WithOpName("existing"), 1.f);
    absl::Status st = GraphFromText(bad.text, s);
    EXPECT_FALSE(st.ok()) << bad.why;
    EXPECT_TRUE(st.code() == absl::StatusCode::kInvalidArgument ||
                st.code() == absl::StatusCode::kNotFound ||
                st.code() == absl::StatusCode::kAlreadyExists)
        << bad.why << ": " << st;
    EXPECT_NE(std::string(st.message()).find(bad.message), std::string::npos)
        << bad.why << ": " << st;
    EXPECT_EQ(s.graph()->num_nodes(), 1) << bad.why;
    EXPECT_TRUE(s.ok()) << bad.why;
  }
}

TEST(GraphFiles, TruncatingAFileAtEveryByteNeverCrashes) {
  Net net = BuildNet();
  auto text = GraphToText(*net.root.graph());
  ASSERT_TRUE(text.ok());
  int accepted = 0;
  for (size_t n = 0; n < text->size(); n += 7) {
    Scope s = Scope::NewRootScope();
    absl::Status st = GraphFromText(text->substr(0, n), s);
    if (st.ok()) {
      ++accepted;  // a cut between nodes is a smaller valid graph
    } else {
      EXPECT_EQ(s.graph()->num_nodes(), 0);
    }
  }
  EXPECT_LT(accepted, static_cast<int>(text->size() / 7));
}

// A cheap in-process fuzz of the whole import (ops, dtypes, shapes included), run under
// ASan and UBSan in CI: random byte edits of a real graph file are graphs or errors.
TEST(GraphFiles, RandomEditsAreGraphsOrErrors) {
  Net net = BuildNet();
  auto text = GraphToText(*net.root.graph());
  ASSERT_TRUE(text.ok());
  std::mt19937 rng(12345);
  const std::string alphabet = "{}[]:,\"\\-.0123456789aefnrtxz_ \n^#";
  int errors = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string t = *text;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) {
      const size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0:
          t[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          t.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          t.erase(at, 1 + rng() % 8);
      }
    }
    Scope s = Scope::NewRootScope();
    absl::Status st = GraphFromText(t, s);
    if (!st.ok()) {
      ++errors;
      EXPECT_EQ(s.graph()->num_nodes(), 0) << st;
      EXPECT_NE(st.code(), absl::StatusCode::kInternal) << st;
    }
  }
  EXPECT_GT(errors, 1000);  // most edits break something, and each was reported
}

TEST(AttrText, EveryKindRoundTrips) {
  std::vector<AttrValue> values = {int64_t{-3},
                                   0.1f,
                                   true,
                                   DT_INT64,
                                   std::string("quote \" and \\ and \n"),
                                   std::vector<int64_t>{1, -1, 0},
                                   std::vector<int64_t>{},
                                   std::vector<float>{1, 1.44f, -0.5f, 1e-30f, INFINITY},
                                   std::vector<float>{},
                                   std::vector<std::string>{"BiasAdd", "a \"quoted\", word"},
                                   std::vector<std::string>{},
                                   PartialTensorShape({-1, 3}),
                                   PartialTensorShape(),
                                   PartialTensorShape(absl::Span<const int64_t>{}),
                                   Tensor(2.5)};
  for (const AttrValue& v : values) {
    auto written = AttrToText(v);
    ASSERT_TRUE(written.ok());
    auto parsed = text::Parse(*written);
    ASSERT_TRUE(parsed.ok()) << *written;
    ASSERT_EQ(parsed->fields.size(), 1u);
    auto back = AttrFromText(parsed->fields[0]);
    ASSERT_TRUE(back.ok()) << *written << ": " << back.status();
    EXPECT_EQ(AttrValueDebugString(*back), AttrValueDebugString(v)) << *written;
  }
  // A list of strings holds quoted strings only.
  auto parsed = text::Parse("strings: [\"BiasAdd\", Relu]");
  ASSERT_TRUE(parsed.ok());
  auto bad = AttrFromText(parsed->fields[0]);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("quoted"), std::string::npos) << bad.status();
}

}  // namespace graph_io_test
}  // namespace
}  // namespace rill
