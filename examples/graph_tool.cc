// Graph files from the command line: write an example graph, describe one, draw one, run one.
//   graph_tool demo OUT.rgraph              a seeded MLP over a constant batch; prints its output
//   graph_tool info FILE                    ops, devices, placeholders, variables
//   graph_tool dot FILE OUT.dot [--fetch=..] a Graphviz picture (as placed here with --fetch)
//   graph_tool run FILE --fetch=a,b:0 [--feed=x=1,2,3] [--init=true]
// Values print with 9 significant digits, so two processes' outputs compare as text.
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "example_flags.h"
#include "rill/rill.h"

ABSL_FLAG(std::string, fetch, "", "comma-separated outputs to fetch (\"name\" or \"name:i\")");
ABSL_FLAG(std::vector<std::string>, feed, {},
          "NAME=v1,v2,... values of a placeholder (its dtype and shape are used); more "
          "feeds follow in the same list: --feed=x=1,2,3,y=4");
ABSL_FLAG(bool, init, true, "run the graph's variable initializers before fetching");

namespace {

using namespace rill;  // NOLINT

int Fail(const absl::Status& st) {
  std::fprintf(stderr, "graph_tool: %s\n", st.ToString().c_str());
  return 1;
}

std::string Values(const Tensor& t) {
  std::vector<std::string> v;
  VisitDataType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = static_cast<const T*>(t.data());
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        v.push_back(absl::StrFormat("%.9g", static_cast<double>(p[i])));
      } else {
        v.push_back(absl::StrCat(static_cast<int64_t>(p[i])));
      }
    }
  });
  return absl::StrCat(DataTypeString(t.dtype()), " ", t.shape().DebugString(), " [",
                      absl::StrJoin(v, ", "), "]");
}

absl::Status RunAndPrint(const Scope& root, const std::vector<std::string>& fetch_names,
                         const Session::FeedType& feeds, bool init) {
  Session session(root);
  if (init && !root.graph()->initializers().empty()) {
    RILL_RETURN_IF_ERROR(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr));
  }
  std::vector<Output> fetches;
  for (const std::string& name : fetch_names) {
    RILL_ASSIGN_OR_RETURN(Output o, FindOutput(*root.graph(), name));
    fetches.push_back(o);
  }
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session.Run(feeds, fetches, &out));
  for (size_t i = 0; i < out.size(); ++i) {
    std::printf("%s = %s\n", fetch_names[i].c_str(), Values(out[i]).c_str());
  }
  return absl::OkStatus();
}

absl::Status Demo(const std::string& path) {
  Scope root = Scope::NewRootScope();
  Output h =
      ops::Const(root.WithOpName("batch"),
                 Input::Initializer({0.5f, -1.f, 2.f, 0.25f, 1.5f, -0.5f, 0.f, 3.f}, {2, 4}));
  int in = 4;
  for (int units : {8, 3}) {
    Scope s = root.NewSubScope("dense");
    auto w = ops::Variable(
        s.WithOpName("kernel"),
        ops::RandomNormal(s, {in, units}, DT_FLOAT, ops::RandomAttrs().Seed(units).Seed2(7)));
    auto b = ops::Variable(s.WithOpName("bias"), ops::Fill(s, {units}, 0.1f));
    h = ops::Add(s, ops::MatMul(s, h, w), b);
    if (units != 3) h = ops::Relu(s, h);
    in = units;
  }
  ops::Softmax(root.WithOpName("probs"), h);
  RILL_RETURN_IF_ERROR(root.status());
  RILL_RETURN_IF_ERROR(SaveGraph(*root.graph(), path));
  std::printf("wrote %s (%d nodes)\n", path.c_str(), root.graph()->num_nodes());
  return RunAndPrint(root, {"probs"}, {}, true);
}

absl::Status Info(const Scope& root, const GraphImportResult& loaded) {
  std::map<std::string, int> ops, devices;
  for (const Operation& op : loaded.nodes) {
    ++ops[op.node()->type_string()];
    auto it = loaded.assigned_devices.find(op.name());
    ++devices[it != loaded.assigned_devices.end()     ? it->second
              : op.node()->requested_device().empty() ? "(none requested)"
                                                      : op.node()->requested_device()];
    if (op.node()->IsPlaceholder() || op.node()->IsVariable()) {
      std::printf("%-11s %s: %s %s\n", op.node()->IsPlaceholder() ? "placeholder" : "variable",
                  op.name().c_str(), DataTypeString(op.output_type(0)).c_str(),
                  op.node()->output_shape(0).DebugString().c_str());
    }
  }
  std::printf("%zu nodes, %zu initializers\nops:\n", loaded.nodes.size(),
              root.graph()->initializers().size());
  for (const auto& [op, n] : ops) std::printf("  %-32s %d\n", op.c_str(), n);
  std::printf("devices (assigned when the file was written, else requested):\n");
  for (const auto& [d, n] : devices) std::printf("  %-48s %d\n", d.c_str(), n);
  return absl::OkStatus();
}

// `v` as a T, or InvalidArgument when T cannot hold it (NaN or 1e300 into an int32, 0.5
// into an int, 2 into a bool): converting those is undefined behaviour in C++.
template <typename T>
absl::Status StoreValue(double v, const std::string& name, T* out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (v != 0 && v != 1) {
      return errors::InvalidArgument("--feed ", name, ": ", v, " is not a bool (0 or 1)");
    }
  } else if constexpr (std::is_integral_v<T>) {
    // [lo, hi) as doubles holds exactly the integers T can take (hi = max + 1 = 2^digits).
    const double hi = std::ldexp(1.0, std::numeric_limits<T>::digits);
    const double lo = std::is_signed_v<T> ? -hi : 0.0;
    if (!(v >= lo && v < hi)) {  // NaN fails too
      return errors::InvalidArgument("--feed ", name, ": ", v, " is out of range for ",
                                     DataTypeString(DataTypeToEnum<T>::value));
    }
    if (v != std::trunc(v)) {
      return errors::InvalidArgument("--feed ", name, ": ", v, " is not an integer");
    }
  } else if (std::isfinite(v) &&
             std::fabs(v) > static_cast<double>(std::numeric_limits<T>::max())) {
    return errors::InvalidArgument("--feed ", name, ": ", v, " is out of range for ",
                                   DataTypeString(DataTypeToEnum<T>::value));
  }
  *out = static_cast<T>(v);
  return absl::OkStatus();
}

// --feed's pieces: the flag is a comma-separated list, so "x=1,2,3,y=4" arrives as "x=1",
// "2", "3", "y=4"; a piece without '=' continues the feed before it.
absl::StatusOr<std::vector<std::pair<std::string, std::vector<double>>>> FeedValues() {
  std::vector<std::pair<std::string, std::vector<double>>> out;
  for (const std::string& piece : absl::GetFlag(FLAGS_feed)) {
    absl::string_view value = piece;
    if (size_t eq = piece.find('='); eq != std::string::npos) {
      out.emplace_back(piece.substr(0, eq), std::vector<double>());
      value = absl::string_view(piece).substr(eq + 1);
    } else if (out.empty()) {
      return errors::InvalidArgument("--feed: '", piece, "' must start with NAME=");
    }
    if (value.empty()) continue;
    double d;
    if (!absl::SimpleAtod(value, &d)) {
      return errors::InvalidArgument("--feed ", out.back().first, ": '", value,
                                     "' is not a number");
    }
    out.back().second.push_back(d);
  }
  return out;
}

absl::StatusOr<Session::FeedType> ParseFeeds(const Graph& graph) {
  Session::FeedType feeds;
  RILL_ASSIGN_OR_RETURN(auto specs, FeedValues());
  for (const auto& spec : specs) {
    const std::string& name = spec.first;  // named: clang 14 lambdas cannot capture bindings
    const std::vector<double>& values = spec.second;
    RILL_ASSIGN_OR_RETURN(Output o, FindOutput(graph, name));
    const PartialTensorShape& want = o.shape();
    TensorShape shape({static_cast<int64_t>(values.size())});
    if (want.IsFullyDefined()) shape = TensorShape(want.dim_sizes());
    if (shape.num_elements() != static_cast<int64_t>(values.size())) {
      return errors::InvalidArgument("--feed ", name, ": shape ", shape.DebugString(), " needs ",
                                     shape.num_elements(), " values, got ", values.size());
    }
    RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(o.type(), shape));
    absl::Status st;
    VisitDataType(o.type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (size_t i = 0; i < values.size() && st.ok(); ++i) {
        st = StoreValue(values[i], name, static_cast<T*>(t.data()) + i);
      }
    });
    RILL_RETURN_IF_ERROR(st);
    feeds.emplace(o, t);
  }
  return feeds;
}

std::vector<std::string> FetchNames() {
  return absl::StrSplit(absl::GetFlag(FLAGS_fetch), ',', absl::SkipEmpty());
}

absl::Status Dot(const Scope& root, const GraphImportResult& loaded, const std::string& out) {
  GraphView view;
  if (std::vector<std::string> names = FetchNames(); !names.empty()) {
    Session session(root);
    CallableOptions sig;
    for (const std::string& n : names) {
      RILL_ASSIGN_OR_RETURN(Output o, FindOutput(*root.graph(), n));
      sig.fetch.push_back(o);
    }
    RILL_ASSIGN_OR_RETURN(Session::FeedType feeds, ParseFeeds(*root.graph()));
    for (const auto& [o, v] : feeds) sig.feed.push_back(o);
    RILL_ASSIGN_OR_RETURN(view, session.ViewPlan(sig));
  } else {
    view = ViewOfGraph(*root.graph());
    for (GraphViewNode& n : view.nodes) {
      auto it = loaded.assigned_devices.find(n.name);
      if (it != loaded.assigned_devices.end()) n.device = it->second;
    }
  }
  RILL_RETURN_IF_ERROR(WriteDot(view, out));
  std::printf("wrote %s (%zu nodes)\n", out.c_str(), view.nodes.size());
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args = rill::examples::ParseFlags(
      argc, argv,
      "Writes, describes, draws and runs rill graph files.\n"
      "  graph_tool demo OUT        write a small MLP graph and print its output\n"
      "  graph_tool info FILE       list its ops, devices, placeholders and variables\n"
      "  graph_tool dot FILE OUT    draw it as a Graphviz picture (placed, with --fetch)\n"
      "  graph_tool run FILE --fetch=a,b:0 [--feed=x=1,2,3]   run it, print the fetches");
  const std::string cmd = args.size() > 1 ? args[1] : "";
  const bool ok_args = (cmd == "demo" && args.size() == 3) || (cmd == "info" && args.size() == 3) ||
                       (cmd == "dot" && args.size() == 4) || (cmd == "run" && args.size() == 3);
  if (!ok_args) {
    std::fprintf(stderr, "usage: %s\n", absl::ProgramUsageMessage().data());
    return 2;
  }
  if (cmd == "demo") {
    absl::Status st = Demo(args[2]);
    return st.ok() ? 0 : Fail(st);
  }
  Scope root = Scope::NewRootScope();
  GraphImportResult loaded;
  if (absl::Status st = LoadGraph(args[2], root, &loaded); !st.ok()) return Fail(st);
  absl::Status st;
  if (cmd == "info") {
    st = Info(root, loaded);
  } else if (cmd == "dot") {
    st = Dot(root, loaded, args[3]);
  } else {
    if (FetchNames().empty()) return Fail(errors::InvalidArgument("run needs --fetch"));
    absl::StatusOr<Session::FeedType> feeds = ParseFeeds(*root.graph());
    st = feeds.ok() ? RunAndPrint(root, FetchNames(), *feeds, absl::GetFlag(FLAGS_init))
                    : feeds.status();
  }
  return st.ok() ? 0 : Fail(st);
}
