// libFuzzer target: ONNX model bytes. Any bytes import to a model or give a Status (never a
// crash, a leak or a sanitizer report); a model that imports runs once on inputs of ones
// (unknown dims as 1), and that run gives outputs or a Status. A model holding a loop is
// imported but not run: its trip count is the model's (10^18, say), and such a loop runs
// that long here as in ONNX Runtime. The seeds are small models of ONNX's backend test
// cases (tests/fuzz/corpus/onnx_import). onnx_unchecked_fuzzer.cc builds this file with
// RILL_ONNX_FUZZ_CHECK_MODEL false: ONNX's checker off, so the converters meet the models it
// refuses.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rill/rill.h"

#ifndef RILL_ONNX_FUZZ_CHECK_MODEL
#define RILL_ONNX_FUZZ_CHECK_MODEL true
#endif

namespace {

// A fed value for an input: its shape with unknown dims as 1, unless that is too large.
bool FeedFor(const rill::Output& in, rill::Tensor* t) {
  const rill::PartialTensorShape& s = in.shape();
  if (s.unknown_rank()) return false;
  std::vector<int64_t> dims;
  int64_t n = 1;
  for (int64_t d : s.dim_sizes()) {
    dims.push_back(d < 0 ? 1 : d);
    n *= dims.back();
    if (n > 4096) return false;
  }
  *t = rill::Tensor(in.type(), rill::TensorShape(dims));
  std::memset(t->data(), 1, t->TotalBytes());  // any bit pattern is a valid value here
  if (in.type() == rill::DT_FLOAT || in.type() == rill::DT_DOUBLE) {
    for (int64_t i = 0; i < n; ++i) {
      if (in.type() == rill::DT_FLOAT)
        t->flat<float>()(i) = 1.f;
      else
        t->flat<double>()(i) = 1.0;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rill;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Scope root = Scope::NewRootScope();
  auto m = onnx::ImportModel(root, bytes, {.check_model = RILL_ONNX_FUZZ_CHECK_MODEL});
  if (!m.ok()) {
    if (m.status().code() == absl::StatusCode::kUnknown) __builtin_trap();
    return 0;
  }
  if (!root.ok()) __builtin_trap();  // an import that succeeded left an error behind
  for (int i = 0; i < root.graph()->num_nodes(); ++i) {
    if (root.graph()->node(i)->type_string() == "While") return 0;
  }
  Session::FeedType feeds;
  for (const Output& in : m->inputs) {
    Tensor t;
    if (!FeedFor(in, &t)) return 0;
    feeds.emplace(in, t);
  }
  ClientSession session(root);
  std::vector<Tensor> out;
  (void)session.Run(feeds, m->outputs, &out);
  return 0;
}
