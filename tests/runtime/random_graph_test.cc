// Graphs built from random sequences of ops, inputs, attributes and shapes, then run on
// random feeds: every node is either added or refused with a Status, and every Run either
// succeeds or returns a Status that says what failed. Under ASan and UBSan (CI's second
// pass) this is a fuzz of graph construction and of every CPU kernel's validation.
#include <map>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "test_util.h"

namespace rill::testing {
namespace {

const std::vector<DataType> kTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL};

class RandomGraphs {
 public:
  explicit RandomGraphs(uint32_t seed) : rng_(seed) {}

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Coin() { return Int(0, 1) == 1; }
  DataType Type() { return kTypes[Int(0, static_cast<int>(kTypes.size()) - 1)]; }

  std::vector<int64_t> Dims() {
    std::vector<int64_t> d(Int(0, 4));
    for (auto& x : d) x = Int(0, 4);
    return d;
  }

  Tensor Value(DataType dt, const std::vector<int64_t>& dims) {
    return RandomTensor(dt, TensorShape(absl::MakeConstSpan(dims)), -3, 5, rng_());
  }

  AttrValue Attr(AttrKind kind) {
    switch (kind) {
      case AttrKind::kInt:
        return int64_t{Int(-2, 5)};
      case AttrKind::kFloat:
        return static_cast<float>(Int(-4, 4)) / 2.f;
      case AttrKind::kBool:
        return Coin();
      case AttrKind::kType:
        return Type();
      case AttrKind::kString: {
        const char* s[] = {"SAME", "VALID", "NHWC", "NCHW", "", "x"};
        return std::string(s[Int(0, 5)]);
      }
      case AttrKind::kIntList: {
        std::vector<int64_t> v(Int(0, 5));
        for (auto& x : v) x = Int(-1, 3);
        return v;
      }
      case AttrKind::kShape: {
        if (Int(0, 5) == 0) return PartialTensorShape();
        std::vector<int64_t> d = Dims();
        for (auto& x : d) x = Coin() ? x : -1;
        return PartialTensorShape(absl::MakeConstSpan(d));
      }
      case AttrKind::kTensor:
        return Value(Type(), Dims());
    }
    return int64_t{0};
  }

  // One random program: a few placeholders, then `n` random nodes over what exists.
  void Build(Graph* g, int n, std::vector<std::pair<Node*, Tensor>>* feeds, int* refused) {
    std::vector<NodeOut> outputs;
    for (int i = 0; i < Int(1, 3); ++i) {
      const DataType dt = Type();
      const std::vector<int64_t> dims = Dims();
      NodeSpec p{absl::StrCat("p", i), "Placeholder", {}, {}, {}, "", ""};
      p.attrs["dtype"] = dt;
      p.attrs["shape"] =
          Coin() ? PartialTensorShape(absl::MakeConstSpan(dims)) : PartialTensorShape();
      absl::StatusOr<Node*> node = g->AddNode(std::move(p));
      ASSERT_TRUE(node.ok()) << node.status();
      feeds->emplace_back(*node, Value(dt, dims));
      outputs.push_back({*node, 0});
    }
    const std::vector<std::string> ops = OpRegistry::Global()->ListOps();
    for (int i = 0; i < n; ++i) {
      const OpDef* def =
          OpRegistry::Global()->LookUp(ops[Int(0, static_cast<int>(ops.size()) - 1)]);
      NodeSpec spec;
      spec.name = absl::StrCat("n", i);
      spec.op = def->name;
      // Inputs sharing a type attribute mostly share a dtype, so that more nodes get
      // past construction and reach their kernels.
      std::map<std::string, DataType> chosen;
      for (const ArgDef& arg : def->inputs) {
        const int count = arg.number_attr.empty() ? 1 : Int(1, 3);
        for (int k = 0; k < count; ++k) {
          NodeOut in = outputs[Int(0, static_cast<int>(outputs.size()) - 1)];
          const DataType want = arg.type != DT_INVALID        ? arg.type
                                : chosen.count(arg.type_attr) ? chosen[arg.type_attr]
                                                              : DT_INVALID;
          for (int tries = 0; want != DT_INVALID && tries < 8 && Int(0, 4) != 0; ++tries) {
            if (in.node->output_type(in.index) == want) break;
            in = outputs[Int(0, static_cast<int>(outputs.size()) - 1)];
          }
          if (!arg.type_attr.empty()) chosen.emplace(arg.type_attr, in.node->output_type(in.index));
          spec.inputs.push_back(in);
        }
      }
      for (const AttrDef& a : def->attrs) {
        if (!a.default_value || Int(0, 3) == 0) spec.attrs[a.name] = Attr(a.kind);
      }
      absl::StatusOr<Node*> node = g->AddNode(std::move(spec));
      if (!node.ok()) {
        ++*refused;
        EXPECT_FALSE(node.status().message().empty());
        continue;
      }
      for (int k = 0; k < (*node)->num_outputs(); ++k) outputs.push_back({*node, k});
    }
  }

 private:
  std::mt19937 rng_;
};

TEST(RandomGraphs, BuildAndRunNeverCrash) {
  int built = 0, refused = 0, ran = 0, failed = 0;
  std::set<std::string> ops_ran;
  for (uint32_t program = 0; program < 1500; ++program) {
    RandomGraphs r(program);
    Scope root = Scope::NewRootScope();
    std::vector<std::pair<Node*, Tensor>> feeds;
    r.Build(root.graph(), 16, &feeds, &refused);
    Session session(root, SessionOptions(), CpuOnly());
    Session::FeedType feed_map;
    for (auto& [node, value] : feeds) feed_map.emplace(Output(node, 0), value);
    for (int i = 0; i < root.graph()->num_nodes(); ++i) {
      Node* n = root.graph()->node(i);
      if (n->IsPlaceholder()) continue;
      ++built;
      std::vector<Tensor> out;
      std::vector<Output> fetch;
      for (int k = 0; k < n->num_outputs(); ++k) fetch.emplace_back(n, k);
      absl::Status st = session.Run(feed_map, fetch, {Operation(n)}, &out);
      if (st.ok()) {
        ++ran;
        ops_ran.insert(n->type_string());
        ASSERT_EQ(out.size(), fetch.size());
        for (size_t k = 0; k < out.size(); ++k) {
          EXPECT_EQ(out[k].dtype(), n->output_type(static_cast<int>(k))) << n->DebugName();
          EXPECT_TRUE(n->output_shape(static_cast<int>(k)).IsCompatibleWith(out[k].shape()))
              << n->DebugName() << ": inferred "
              << n->output_shape(static_cast<int>(k)).DebugString() << ", ran to "
              << out[k].shape().DebugString();
        }
      } else {
        ++failed;
        EXPECT_FALSE(st.message().empty()) << n->DebugName();
        EXPECT_NE(st.code(), absl::StatusCode::kInternal) << n->DebugName() << ": " << st;
      }
    }
  }
  std::printf(
      "random graphs: %d nodes built (%d refused at construction), %d ran, %d refused "
      "at run time; %zu of %zu ops ran at least once\n",
      built, refused, ran, failed, ops_ran.size(), OpRegistry::Global()->ListOps().size());
  EXPECT_GT(built, 2000);
  EXPECT_GT(ran, 1000);
}

}  // namespace
}  // namespace rill::testing
