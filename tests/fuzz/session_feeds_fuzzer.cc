// libFuzzer target: Session::Run with fuzzed feeds on a fixed graph per op. The first bytes
// pick an op of the registry and a variant of its attributes (strides, window, padding);
// that op's graph, every data input a placeholder of unknown shape and every ref input an
// initialized variable, is built once and its Session kept across executions, as a user
// keeps one. The rest of the bytes are the feeds: rank, dims and values (NaN, infinities,
// extreme integers included). Every run must give outputs of the inferred dtypes, or a
// Status with a message that is not Internal; ASan and UBSan watch the kernels.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rill/rill.h"
#include "support/random_program.h"

namespace {
using namespace rill;

struct OpGraph {
  Scope root = Scope::NewRootScope();
  std::unique_ptr<Session> session;
  std::vector<Node*> placeholders;
  Node* node = nullptr;  // nullptr when this op and variant cannot be built
};

DataType TypeFor(const AttrDef& a) {
  if (a.default_value) return std::get<DataType>(*a.default_value);
  auto allows = [&](DataType t) {
    return a.allowed_types.empty() ||
           std::find(a.allowed_types.begin(), a.allowed_types.end(), t) != a.allowed_types.end();
  };
  if (allows(DT_FLOAT)) return DT_FLOAT;
  if (allows(DT_INT32)) return DT_INT32;
  return a.allowed_types.front();
}

// A function of two float args that returns them (If's branches; While's cond, which
// must return one scalar, is then refused and the op skipped).
FunctionRef PassThrough() {
  static const FunctionRef f = [] {
    auto g = std::make_shared<Graph>();
    std::vector<Node*> args;
    for (int i = 0; i < 2; ++i) {
      NodeSpec p;
      p.name = absl::StrCat("arg", i);
      p.op = "Placeholder";
      p.attrs["dtype"] = DT_FLOAT;
      args.push_back(*g->AddNode(std::move(p)));
    }
    return *Function::Create("pass_through", g, args, {{args[0], 0}, {args[1], 0}});
  }();
  return f;
}

AttrValue RequiredAttr(const AttrDef& a, int variant) {
  if (a.kind == AttrKind::kType) return TypeFor(a);
  if (a.kind == AttrKind::kTypeList) return std::vector<DataType>{DT_FLOAT, DT_FLOAT};
  if (a.kind == AttrKind::kFunc) return PassThrough();
  if (a.name == "strides") return std::vector<int64_t>{1, 1 + variant % 2, 1 + variant % 2, 1};
  if (a.name == "ksize") return std::vector<int64_t>{1, 2 + variant / 2, 2 + variant / 2, 1};
  if (a.name == "padding") return std::string(variant % 2 ? "VALID" : "SAME");
  if (a.name == "N") return int64_t{2};
  if (a.name == "rate") return 0.5f;
  if (a.kind == AttrKind::kFloatList) return std::vector<float>{1, 1.5f + variant, 1.3f, 1};
  if (a.kind == AttrKind::kStringList) {
    return std::vector<std::string>{"BiasAdd", variant % 2 ? "Relu" : "Elu"};
  }
  return int64_t{0};  // refused at construction; the op is then skipped
}

absl::StatusOr<Node*> AddVariable(Graph* g, const std::string& name, DataType dt) {
  NodeSpec v;
  v.name = name;
  v.op = "Variable";
  v.attrs["shape"] = PartialTensorShape({2, 3});
  v.attrs["dtype"] = dt;
  return g->AddNode(std::move(v));
}

std::unique_ptr<OpGraph> Build(const OpDef& def, int variant) {
  auto og = std::make_unique<OpGraph>();
  Graph* g = og->root.graph();
  NodeSpec spec;
  spec.name = "op";
  spec.op = def.name;
  for (const AttrDef& a : def.attrs) {
    if (!a.default_value || a.kind == AttrKind::kType)
      spec.attrs[a.name] = RequiredAttr(a, variant);
  }
  std::vector<Node*> variables;
  int index = 0;
  for (const ArgDef& arg : def.inputs) {
    const bool typed_list = !arg.type_list_attr.empty();
    const DataType dt = arg.type != DT_INVALID ? arg.type
                        : typed_list           ? DT_FLOAT
                                               : std::get<DataType>(spec.attrs.at(arg.type_attr));
    const int count = arg.number_attr.empty() && !typed_list ? 1 : 2;
    for (int k = 0; k < count; ++k, ++index) {
      const std::string name = absl::StrCat("in", index);
      absl::StatusOr<Node*> in;
      if (arg.is_ref) {
        in = AddVariable(g, name, dt);
        if (in.ok()) variables.push_back(*in);
      } else {
        NodeSpec p;
        p.name = name;
        p.op = "Placeholder";
        p.attrs["dtype"] = dt;
        p.attrs["shape"] = PartialTensorShape();
        in = g->AddNode(std::move(p));
        if (in.ok()) og->placeholders.push_back(*in);
      }
      if (!in.ok()) return og;
      spec.inputs.push_back({*in, 0});
    }
  }
  absl::StatusOr<Node*> node = g->AddNode(std::move(spec));
  if (!node.ok()) return og;
  std::vector<Operation> inits;
  for (Node* v : variables) {
    NodeSpec c;
    c.name = absl::StrCat(v->name(), "/init_value");
    c.op = "Const";
    c.attrs["value"] = Tensor(v->output_type(0), TensorShape({2, 3}));
    c.attrs["dtype"] = v->output_type(0);
    Node* value = *g->AddNode(std::move(c));
    NodeSpec assign;
    assign.name = absl::StrCat(v->name(), "/Assign");
    assign.op = "Assign";
    assign.inputs = {{v, 0}, {value, 0}};
    inits.emplace_back(*g->AddNode(std::move(assign)));
  }
  og->session = std::make_unique<Session>(og->root, SessionOptions());
  if (!inits.empty() && !og->session->Run({}, {}, inits, nullptr).ok()) __builtin_trap();
  og->node = *node;
  return og;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string>* ops =
      new std::vector<std::string>(OpRegistry::Global()->ListOps());
  static auto* graphs = new std::map<std::pair<int, int>, std::unique_ptr<OpGraph>>;
  rill::testing::ByteChoices c(absl::MakeConstSpan(data, size));
  const int op = c.Int(0, static_cast<int>(ops->size()) - 1);
  const int variant = c.Int(0, 3);
  std::unique_ptr<OpGraph>& og = (*graphs)[{op, variant}];
  if (!og) og = Build(*OpRegistry::Global()->LookUp((*ops)[op]), variant);
  if (og->node == nullptr) return 0;

  Session::FeedType feeds;
  for (Node* p : og->placeholders) {
    std::vector<int64_t> dims(c.Int(0, 4));
    for (int64_t& d : dims) d = c.Int(0, 5);
    feeds.emplace(Output(p, 0),
                  rill::testing::ChosenTensor(c, p->output_type(0), dims, /*wild=*/true));
  }
  std::vector<Output> fetch;
  for (int k = 0; k < og->node->num_outputs(); ++k) fetch.emplace_back(og->node, k);
  std::vector<Tensor> out;
  absl::Status st = og->session->Run(feeds, fetch, {Operation(og->node)}, &out);
  if (!st.ok()) {
    if (st.message().empty() || st.code() == absl::StatusCode::kInternal) {
      std::fprintf(stderr, "session_feeds_fuzzer: %s\n", st.ToString().c_str());
      __builtin_trap();
    }
    return 0;
  }
  if (out.size() != fetch.size()) __builtin_trap();
  for (size_t k = 0; k < out.size(); ++k) {
    if (out[k].dtype() != og->node->output_type(static_cast<int>(k))) __builtin_trap();
  }
  return 0;
}
