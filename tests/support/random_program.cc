#include "support/random_program.h"

#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "rill/core/function.h"

namespace rill::testing {

int ByteChoices::Int(int lo, int hi) {
  if (hi <= lo) return lo;
  const uint64_t range = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo) + 1;
  uint64_t v = 0;
  for (uint64_t seen = 1; seen < range && pos_ < bytes_.size(); seen <<= 8) {
    v = (v << 8) | bytes_[pos_++];
  }
  return static_cast<int>(lo + static_cast<int64_t>(v % range));
}

namespace {

// The first six are drawn unless Choices::every_dtype.
const DataType kTypes[] = {DT_FLOAT, DT_DOUBLE, DT_INT32,  DT_INT64,  DT_UINT8, DT_BOOL,
                           DT_INT8,  DT_INT16,  DT_UINT16, DT_UINT32, DT_UINT64};

DataType ChosenType(Choices& c) {
  return kTypes[c.Int(0, c.every_dtype ? static_cast<int>(std::size(kTypes)) - 1 : 5)];
}

std::vector<int64_t> ChosenDims(Choices& c) {
  std::vector<int64_t> d(c.Int(0, 4));
  for (auto& x : d) x = c.Int(0, 4);
  return d;
}

// The int64 values that find overflows: 0, +-1, the extremes, 2^31 and 2^62 (whose sums
// and doubles wrap), and the values beside them.
constexpr int64_t kExtremeInts[] = {0,
                                    1,
                                    -1,
                                    std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min(),
                                    std::numeric_limits<int64_t>::max() - 1,
                                    int64_t{1} << 31,
                                    (int64_t{1} << 31) - 1,
                                    -(int64_t{1} << 31),
                                    int64_t{1} << 62,
                                    -(int64_t{1} << 62)};

// A small integer, or (wild, one time in four) an extreme one.
int64_t ChosenInt(Choices& c, int lo, int hi, bool wild) {
  if (wild && c.Int(0, 3) == 0) return kExtremeInts[c.Int(0, std::size(kExtremeInts) - 1)];
  return c.Int(lo, hi);
}

// One value as a double, or (wild) an extreme one.
double ChosenValue(Choices& c, DataType dt, bool wild) {
  if (wild && c.Int(0, 7) == 0) {
    const bool floating = DataTypeIsFloating(dt);
    if (!floating && c.Coin()) {  // saturated to the dtype by ChosenTensor
      return static_cast<double>(kExtremeInts[c.Int(0, std::size(kExtremeInts) - 1)]);
    }
    switch (c.Int(0, 3)) {
      case 0:
        return floating ? std::numeric_limits<double>::quiet_NaN() : -1000;
      case 1:
        return floating ? std::numeric_limits<double>::infinity() : 1000;
      case 2:
        return floating ? -std::numeric_limits<double>::infinity() : -2147483648.0;
      default:
        return floating ? 3e38 : 2147483647.0;
    }
  }
  return DataTypeIsFloating(dt) ? c.Int(-8, 8) / 2.0 : c.Int(-3, 5);
}

// One of two small functions: a float [2] passed through (If's branches, While's body),
// or a float of any shape to the scalar false (a While cond that stops at once). None of
// their combinations loops forever: the first cannot be a While's cond (not a scalar).
FunctionRef ChosenFunction(Choices& c) {
  static const FunctionRef* fs = [] {
    auto make = [](bool pass) {
      auto g = std::make_shared<Graph>();
      NodeSpec p;
      p.name = "arg0";
      p.op = "Placeholder";
      p.attrs["dtype"] = DT_FLOAT;
      p.attrs["shape"] = pass ? PartialTensorShape({2}) : PartialTensorShape();
      Node* arg = *g->AddNode(std::move(p));
      NodeOut ret{arg, 0};
      if (!pass) {
        NodeSpec k;
        k.name = "false";
        k.op = "Const";
        k.attrs["value"] = Tensor(false);
        k.attrs["dtype"] = DT_BOOL;
        ret = {*g->AddNode(std::move(k)), 0};
      }
      return *Function::Create(pass ? "pass" : "stop", g, {arg}, {ret});
    };
    return new FunctionRef[2]{make(true), make(false)};
  }();
  return fs[c.Int(0, 1)];
}

AttrValue ChosenAttr(Choices& c, AttrKind kind, bool wild) {
  switch (kind) {
    case AttrKind::kTypeList: {
      std::vector<DataType> v(c.Int(0, 2));
      for (auto& t : v) t = c.Coin() ? DT_FLOAT : ChosenType(c);
      return v;
    }
    case AttrKind::kFunc:
      return ChosenFunction(c);
    case AttrKind::kInt:
      return ChosenInt(c, -2, 5, wild);
    case AttrKind::kFloat:
      return static_cast<float>(ChosenValue(c, DT_FLOAT, wild));
    case AttrKind::kBool:
      return c.Coin();
    case AttrKind::kType:
      return ChosenType(c);
    case AttrKind::kString: {
      // Padding and layout names, and Einsum equations (wild: any string of their letters).
      const char* s[] = {"SAME",  "VALID", "NHWC",           "NCHW",          "",
                         "x",     "NDHWC", "NCDHW",          "ij,jk->ik",     "...ii->...i",
                         "i->ii", "ij->",  "...i,...i->...", "ab,b...->...ba"};
      if (!wild || c.Coin()) return std::string(s[c.Int(0, 13)]);
      std::string e(c.Int(0, 10), ' ');
      for (char& ch : e) ch = "ij.,->"[c.Int(0, 5)];
      return e;
    }
    case AttrKind::kIntList: {
      std::vector<int64_t> v(c.Int(0, 5));
      for (auto& x : v) x = ChosenInt(c, -1, 3, wild);
      return v;
    }
    case AttrKind::kFloatList: {
      std::vector<float> v(c.Int(0, 5));
      for (auto& x : v) {  // ratios: 1, or more than 1 unless wild
        const double d = ChosenValue(c, DT_FLOAT, wild);
        x = c.Coin() ? 1.0f : static_cast<float>(wild ? d : 1.0 + std::fabs(d));
      }
      return v;
    }
    case AttrKind::kStringList: {  // fused op lists (wild: any of them, in any order)
      const char* s[] = {"BiasAdd", "Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid", "Add"};
      std::vector<std::string> v;
      if (!wild) return std::vector<std::string>{"BiasAdd", s[c.Int(1, 6)]};
      for (int i = c.Int(0, 3); i > 0; --i) v.push_back(s[c.Int(0, 7)]);
      return v;
    }
    case AttrKind::kShape: {
      if (c.Int(0, 5) == 0) return PartialTensorShape();
      std::vector<int64_t> d = ChosenDims(c);
      for (auto& x : d) x = c.Coin() ? x : -1;
      return PartialTensorShape(absl::MakeConstSpan(d));
    }
    case AttrKind::kTensor: {
      const DataType dt = ChosenType(c);
      return ChosenTensor(c, dt, ChosenDims(c), wild);
    }
  }
  return int64_t{0};
}

// An input of `want` (or any dtype when DT_INVALID), mostly matching, sometimes not, so
// that both construction's checks and the kernels are reached.
NodeOut PickInput(Choices& c, const std::vector<NodeOut>& outputs, DataType want) {
  NodeOut in = outputs[c.Int(0, static_cast<int>(outputs.size()) - 1)];
  for (int tries = 0; want != DT_INVALID && tries < 8 && c.Int(0, 4) != 0; ++tries) {
    if (in.node->output_type(in.index) == want) break;
    in = outputs[c.Int(0, static_cast<int>(outputs.size()) - 1)];
  }
  return in;
}

}  // namespace

Tensor ChosenTensor(Choices& c, DataType dt, const std::vector<int64_t>& dims, bool wild) {
  Tensor t(dt, TensorShape(absl::MakeConstSpan(dims)));
  VisitDataType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      const double v = ChosenValue(c, dt, wild);
      if constexpr (std::is_same_v<T, bool>) {
        t.base<T>()[i] = v > 0;
      } else if constexpr (std::is_floating_point_v<T>) {
        t.base<T>()[i] = static_cast<T>(v);
      } else {
        // Integers saturate (a float-to-int cast out of range is undefined).
        const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
        const double hi = static_cast<double>(std::numeric_limits<T>::max());
        t.base<T>()[i] = v <= lo   ? std::numeric_limits<T>::lowest()
                         : v >= hi ? std::numeric_limits<T>::max()
                                   : static_cast<T>(v);
      }
    }
  });
  return t;
}

absl::Status BuildRandomProgram(Choices& c, int nodes, bool wild, Graph* g, RandomProgram* out) {
  std::vector<NodeOut> outputs;
  const int placeholders = c.Int(1, 3);
  for (int i = 0; i < placeholders; ++i) {
    const DataType dt = ChosenType(c);
    const std::vector<int64_t> dims = ChosenDims(c);
    NodeSpec p;
    p.name = absl::StrCat("p", i);
    p.op = "Placeholder";
    p.attrs["dtype"] = dt;
    p.attrs["shape"] =
        c.Coin() ? PartialTensorShape(absl::MakeConstSpan(dims)) : PartialTensorShape();
    RILL_ASSIGN_OR_RETURN(Node * node, g->AddNode(std::move(p)));
    out->feeds.emplace_back(node, ChosenTensor(c, dt, dims, wild));
    outputs.push_back({node, 0});
  }
  const std::vector<std::string> ops = OpRegistry::Global()->ListOps();
  for (int i = 0; i < nodes; ++i) {
    const OpDef* def =
        OpRegistry::Global()->LookUp(ops[c.Int(0, static_cast<int>(ops.size()) - 1)]);
    NodeSpec spec;
    spec.name = absl::StrCat("n", i);
    spec.op = def->name;
    // Inputs sharing a type attribute mostly share a dtype, so that more nodes get past
    // construction and reach their kernels.
    std::map<std::string, DataType> chosen;
    for (const ArgDef& arg : def->inputs) {
      const int count = arg.number_attr.empty() ? 1 : c.Int(1, 3);
      for (int k = 0; k < count; ++k) {
        const DataType want = arg.type != DT_INVALID        ? arg.type
                              : chosen.count(arg.type_attr) ? chosen[arg.type_attr]
                                                            : DT_INVALID;
        NodeOut in = PickInput(c, outputs, want);
        if (!arg.type_attr.empty()) chosen.emplace(arg.type_attr, in.node->output_type(in.index));
        spec.inputs.push_back(in);
      }
    }
    for (const AttrDef& a : def->attrs) {
      if (!a.default_value || c.Int(0, 3) == 0) spec.attrs[a.name] = ChosenAttr(c, a.kind, wild);
    }
    absl::StatusOr<Node*> node = g->AddNode(std::move(spec));
    if (!node.ok()) {
      ++out->refused;
      if (node.status().message().empty()) {
        return errors::Internal("node n", i, " (", def->name, ") refused without a message");
      }
      continue;
    }
    for (int k = 0; k < (*node)->num_outputs(); ++k) outputs.push_back({*node, k});
  }
  return absl::OkStatus();
}

namespace {
// Output indices the node does not have, as fetches and as feeds, must each be an
// InvalidArgument naming the node, never another node's value or a read out of bounds.
absl::Status CheckBadIndicesRefused(Session& session, Node* n) {
  for (int index :
       {n->num_outputs(), -1, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    std::vector<Tensor> out;
    absl::Status fetched = session.Run({Output(n, index)}, &out);
    absl::Status fed = session.Run({{Output(n, index), Tensor(1.0f)}}, {}, {}, &out);
    for (const absl::Status& st : {fetched, fed}) {
      if (st.code() != absl::StatusCode::kInvalidArgument ||
          st.message().find(n->name()) == absl::string_view::npos) {
        return errors::Internal(n->DebugName(), ": output index ", index,
                                " was not refused as it must be: ", st.ToString());
      }
    }
  }
  return absl::OkStatus();
}
}  // namespace

absl::Status RunEveryNode(Session& session, const Scope& root, const RandomProgram& program,
                          RunCounts* counts) {
  Session::FeedType feed_map;
  for (const auto& [node, value] : program.feeds) feed_map.emplace(Output(node, 0), value);
  // An Assign with validate_shape=false may give a variable a value of another shape than the
  // one it was declared with, as in TensorFlow (see
  // Session.VariablesKeepValuesAcrossRunsAndFetchSets): nodes reading it then run to shapes their
  // inference could not know. Dtypes still hold.
  bool shapes_may_change = false;
  for (int i = 0; i < root.graph()->num_nodes(); ++i) {
    const Node* n = root.graph()->node(i);
    if (n->type_string() == "Assign" && !n->attr<bool>("validate_shape")) shapes_may_change = true;
  }
  for (int i = 0; i < root.graph()->num_nodes(); ++i) {
    Node* n = root.graph()->node(i);
    RILL_RETURN_IF_ERROR(CheckBadIndicesRefused(session, n));
    if (n->IsPlaceholder()) continue;
    ++counts->built;
    std::vector<Tensor> out;
    std::vector<Output> fetch;
    for (int k = 0; k < n->num_outputs(); ++k) fetch.emplace_back(n, k);
    absl::Status st = session.Run(feed_map, fetch, {Operation(n)}, &out);
    if (!st.ok()) {
      ++counts->failed;
      if (st.message().empty() || st.code() == absl::StatusCode::kInternal) {
        return errors::Internal(n->DebugName(), ": a run failed with ", st.ToString());
      }
      continue;
    }
    ++counts->ran;
    counts->ops_ran.insert(n->type_string());
    if (out.size() != fetch.size()) return errors::Internal(n->DebugName(), ": wrong fetch count");
    for (size_t k = 0; k < out.size(); ++k) {
      const int idx = static_cast<int>(k);
      if (out[k].dtype() != n->output_type(idx) ||
          (!shapes_may_change && !n->output_shape(idx).IsCompatibleWith(out[k].shape()))) {
        return errors::Internal(n->DebugName(), " output ", k, ": inferred ",
                                DataTypeString(n->output_type(idx)), " ",
                                n->output_shape(idx).DebugString(), ", ran to ",
                                DataTypeString(out[k].dtype()), " ", out[k].shape().DebugString());
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace rill::testing
