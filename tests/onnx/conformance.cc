// ONNX's backend test cases run on rill: each case folder holds model.onnx and
// test_data_set_*/{input,output}_*.pb. A case passes when every data set's outputs match
// with ONNX's tolerances (|got - want| <= 1e-7 + 1e-3 |want|, NaN equal to NaN, integers
// and bools exact); it is unsupported when the importer names ops or attributes rill lacks;
// wrong when a supported model computes other values (a defect); an error otherwise.
//
//   onnx_conformance --data=/usr/share/libonnx-testdata/data/node [--expected=FILE]
//                    [--write_passing=FILE] [--device=/CPU:0] [--filter=SUBSTRING] [--quiet]
//                    [--op_table=FILE] [--errata=FILE]
//
// With --expected (a list of case names that passed before), a listed case that does not
// pass now fails the run, and so does any wrong value, except in a case --errata lists
// (a case name, then why ONNX's data disagree with ONNX's own operator spec): such a case
// is reported as ERRATUM and counted apart. Ends with "N passed, N failed".
// --op_table writes a Markdown table: per op type, the cases that use it and their verdicts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "onnx/onnx_pb.h"
#include "rill/rill.h"

namespace fs = std::filesystem;
using namespace rill;

namespace {

enum class Verdict { kPass, kWrong, kError, kUnsupported };

struct Result {
  Verdict verdict;
  std::string detail;
};

struct Args {
  std::string data, expected, write_passing, device, filter, op_table, errata;
  bool quiet = false;
};

std::vector<fs::path> Sorted(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (absl::StartsWith(e.path().filename().string(), prefix)) out.push_back(e.path());
  }
  // input_10.pb after input_9.pb: by the number after the last '_'.
  auto number = [](const fs::path& p) {
    std::string s = p.stem().string();
    return std::atoi(s.substr(s.rfind('_') + 1).c_str());
  };
  std::sort(out.begin(), out.end(), [&](const fs::path& a, const fs::path& b) {
    return number(a) != number(b) ? number(a) < number(b) : a < b;
  });
  return out;
}

template <typename T>
std::string CompareValues(const Tensor& got, const Tensor& want) {
  auto g = got.flat<T>();
  auto w = want.flat<T>();
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    const double a = static_cast<double>(g(i)), b = static_cast<double>(w(i));
    bool ok;
    if constexpr (std::is_floating_point_v<T>) {
      ok = (std::isnan(a) && std::isnan(b)) || a == b ||
           std::abs(a - b) <= 1e-7 + 1e-3 * std::abs(b);
    } else {
      ok = g(i) == w(i);  // exactly, also past double's 2^53 (uint64, int64)
    }
    if (!ok) return absl::StrCat("element ", i, " is ", a, ", expected ", b);
  }
  return "";
}

std::string Compare(const Tensor& got, const Tensor& want) {
  if (got.dtype() != want.dtype()) {
    return absl::StrCat("dtype ", DataTypeString(got.dtype()), ", expected ",
                        DataTypeString(want.dtype()));
  }
  if (got.shape() != want.shape()) {
    return absl::StrCat("shape ", got.shape().DebugString(), ", expected ",
                        want.shape().DebugString());
  }
  std::string verdict = absl::StrCat("cannot compare dtype ", DataTypeString(want.dtype()));
  VisitDataType(want.dtype(), [&](auto tag) {
    verdict = CompareValues<typename decltype(tag)::type>(got, want);
  });
  return verdict;
}

// One data set: feed the inputs, compare the outputs. Errors are kError, mismatches kWrong.
// The model's graph inputs that are not initializers, in order: input_<i>.pb feeds the i-th
// unless the file names its input.
std::vector<std::string> GraphInputs(const std::string& bytes) {
  ::onnx::ModelProto m;
  std::vector<std::string> names;
  if (!m.ParseFromString(bytes)) return names;
  std::set<std::string> inits;
  for (const auto& t : m.graph().initializer()) inits.insert(t.name());
  for (const auto& in : m.graph().input()) {
    if (!inits.count(in.name())) names.push_back(in.name());
  }
  return names;
}

// One data set: import (with the inputs in `bind` as constants), feed the other inputs,
// compare the outputs. Errors are kError, mismatches kWrong.
Result RunDataSet(const std::string& bytes, const fs::path& dir, const std::set<std::string>& bind,
                  const Args& args) {
  const std::vector<std::string> names = GraphInputs(bytes);
  std::vector<std::pair<std::string, Tensor>> values;
  rill::onnx::ImportOptions options;
  for (const fs::path& file : Sorted(dir, "input_")) {
    std::string name;
    absl::StatusOr<Tensor> t = rill::onnx::ReadTensorProtoFile(file.string(), &name);
    if (!t.ok()) return {Verdict::kUnsupported, std::string(t.status().message())};
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      if (values.size() >= names.size()) return {Verdict::kError, "more input files than inputs"};
      name = names[values.size()];
    }
    if (bind.count(name)) options.constant_inputs[name] = *t;
    values.emplace_back(name, *t);
  }
  Scope root = Scope::NewRootScope();
  if (!args.device.empty()) root = root.WithDevice(args.device);
  absl::StatusOr<rill::onnx::ImportedModel> m = rill::onnx::ImportModel(root, bytes, options);
  if (!m.ok()) return {Verdict::kError, std::string(m.status().message())};
  Session::FeedType feeds;
  for (const auto& [name, t] : values) {
    if (!bind.count(name)) feeds.emplace(m->input(name), t);
  }
  ClientSession session(root);
  std::vector<Tensor> got;
  absl::Status s = session.Run(feeds, m->outputs, &got);
  if (!s.ok()) return {Verdict::kError, std::string(s.message())};
  std::vector<fs::path> outs = Sorted(dir, "output_");
  if (outs.size() != got.size()) {
    return {Verdict::kError, absl::StrCat(got.size(), " outputs, ", outs.size(), " expected")};
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    absl::StatusOr<Tensor> want = rill::onnx::ReadTensorProtoFile(outs[i].string());
    if (!want.ok()) return {Verdict::kUnsupported, std::string(want.status().message())};
    std::string diff = Compare(got[i], *want);
    if (!diff.empty()) {
      return {Verdict::kWrong, absl::StrCat(dir.filename().string(), " output ", i, " ('",
                                            m->output_names[i], "'): ", diff)};
    }
  }
  return {Verdict::kPass, ""};
}

// A case is unsupported when a node cannot be converted for any reason but one: a graph
// input it needs while importing (Resize's sizes), which each data set then binds.
Result RunCase(const fs::path& dir, const Args& args, bool* bound) {
  std::ifstream f(dir / "model.onnx", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  absl::StatusOr<std::vector<rill::onnx::UnsupportedNode>> unsupported =
      rill::onnx::FindUnsupportedNodes(bytes);
  if (!unsupported.ok()) return {Verdict::kError, std::string(unsupported.status().message())};
  std::set<std::string> why, bind;
  for (const auto& n : *unsupported) {
    if (n.needs_inputs.empty()) why.insert(absl::StrCat(n.op_type, ": ", n.reason));
    bind.insert(n.needs_inputs.begin(), n.needs_inputs.end());
  }
  if (!why.empty()) return {Verdict::kUnsupported, absl::StrJoin(why, "; ")};
  *bound = !bind.empty();
  std::vector<fs::path> sets = Sorted(dir, "test_data_set_");
  if (sets.empty()) return {Verdict::kError, "no test_data_set_* folder"};
  for (const fs::path& set : sets) {
    Result r = RunDataSet(bytes, set, bind, args);
    if (r.verdict != Verdict::kPass) return r;
  }
  return {Verdict::kPass,
          *bound ? "with " + absl::StrJoin(bind, ", ") + " bound as constants" : ""};
}

bool ParseArgs(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&](const char* flag, std::string* out) {
      std::string p = absl::StrCat("--", flag, "=");
      if (!absl::StartsWith(s, p)) return false;
      *out = s.substr(p.size());
      return true;
    };
    if (value("data", &a->data) || value("expected", &a->expected) ||
        value("write_passing", &a->write_passing) || value("device", &a->device) ||
        value("filter", &a->filter) || value("op_table", &a->op_table) ||
        value("errata", &a->errata)) {
      continue;
    }
    if (s == "--quiet") {
      a->quiet = true;
      continue;
    }
    std::fprintf(stderr, "onnx_conformance: unknown argument '%s'\n", s.c_str());
    return false;
  }
  if (a->data.empty()) {
    std::fprintf(stderr, "onnx_conformance: --data=FOLDER (of test_* case folders) is required\n");
    return false;
  }
  return true;
}

// The op types a case's model uses (domain-qualified outside ONNX's default domain).
std::set<std::string> OpTypes(const fs::path& dir) {
  std::ifstream f(dir / "model.onnx", std::ios::binary);
  ::onnx::ModelProto m;
  std::set<std::string> ops;
  if (!m.ParseFromIstream(&f)) return ops;
  for (const auto& n : m.graph().node()) {
    ops.insert(n.domain().empty() || n.domain() == "ai.onnx" ? n.op_type()
                                                             : n.domain() + ":" + n.op_type());
  }
  return ops;
}

// Per op type: cases using it, by verdict.
using OpTable = std::map<std::string, std::map<Verdict, int>>;

void WriteOpTable(const std::string& path, const OpTable& table) {
  std::ofstream out(path);
  out << "| op type | cases | pass | wrong | error | unsupported |\n|---|---|---|---|---|---|\n";
  for (const auto& [op, verdicts] : table) {
    const std::map<Verdict, int>& v = verdicts;  // a binding cannot be captured in C++20
    auto get = [&v](Verdict k) { return v.count(k) ? v.at(k) : 0; };
    const int total = get(Verdict::kPass) + get(Verdict::kWrong) + get(Verdict::kError) +
                      get(Verdict::kUnsupported);
    out << "| " << op << " | " << total << " | " << get(Verdict::kPass) << " | "
        << get(Verdict::kWrong) << " | " << get(Verdict::kError) << " | "
        << get(Verdict::kUnsupported) << " |\n";
  }
}

// The first word of each line that is not a comment (a case name, then perhaps a reason).
std::set<std::string> ReadList(const std::string& path) {
  std::set<std::string> out;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    if (!line.empty() && line[0] != '#') out.insert(line.substr(0, line.find(' ')));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) return 2;
  if (!fs::is_directory(args.data)) {
    std::printf("onnx_conformance: %s is not there (Debian's libonnx-testdata); skipped\n",
                args.data.c_str());
    return 77;  // CTest's SKIP_RETURN_CODE
  }
  const std::set<std::string> expected =
      args.expected.empty() ? std::set<std::string>{} : ReadList(args.expected);
  const std::set<std::string> errata =
      args.errata.empty() ? std::set<std::string>{} : ReadList(args.errata);
  int erratum_count = 0;
  std::map<Verdict, int> count;
  std::vector<std::string> passing, regressions;
  OpTable table;
  int bound_passes = 0;
  for (const fs::path& dir : Sorted(args.data, "test_")) {
    const std::string name = dir.filename().string();
    if (!args.filter.empty() && !absl::StrContains(name, args.filter)) continue;
    bool bound = false;
    const Result r = RunCase(dir, args, &bound);
    if (r.verdict == Verdict::kWrong && errata.count(name)) {
      ++erratum_count;
      std::printf("ERRATUM     %s: %s\n", name.c_str(), r.detail.substr(0, 300).c_str());
      continue;
    }
    ++count[r.verdict];
    if (r.verdict == Verdict::kPass && bound) ++bound_passes;
    if (!args.op_table.empty()) {
      for (const std::string& op : OpTypes(dir)) ++table[op][r.verdict];
    }
    static const char* kWords[] = {"PASS", "WRONG", "ERROR", "UNSUPPORTED"};
    if (!args.quiet || r.verdict == Verdict::kWrong || r.verdict == Verdict::kError) {
      std::printf("%-11s %s%s%s\n", kWords[static_cast<int>(r.verdict)], name.c_str(),
                  r.detail.empty() ? "" : ": ", r.detail.substr(0, 300).c_str());
    }
    if (r.verdict == Verdict::kPass) passing.push_back(name);
    if (r.verdict != Verdict::kPass && expected.count(name)) regressions.push_back(name);
  }
  if (!args.write_passing.empty()) {
    std::ofstream out(args.write_passing);
    out << "# ONNX backend cases that pass on rill (tests/onnx/conformance.cc)\n";
    for (const auto& n : passing) out << n << "\n";
  }
  if (!args.op_table.empty()) WriteOpTable(args.op_table, table);
  const int total = count[Verdict::kPass] + count[Verdict::kWrong] + count[Verdict::kError] +
                    count[Verdict::kUnsupported];
  std::printf(
      "%s: %d cases: %d pass (%d with shape inputs bound as constants), %d wrong values, %d "
      "errors, %d unsupported, %d known data errata\n",
      args.data.c_str(), total + erratum_count, count[Verdict::kPass], bound_passes,
      count[Verdict::kWrong], count[Verdict::kError], count[Verdict::kUnsupported], erratum_count);
  for (const auto& n : regressions) std::printf("REGRESSION  %s passed before\n", n.c_str());
  std::printf("%d passed, %d failed\n", count[Verdict::kPass],
              count[Verdict::kWrong] + count[Verdict::kError]);
  return count[Verdict::kWrong] > 0 || !regressions.empty() ? 1 : 0;
}
