// Runs any .onnx file on each device with inputs from files or made up, prints each output's
// shape and a summary of its values, and times an inference per device.
//   onnx_run --model=M.onnx [--shapes=1,3,48,192;...] [--inputs=PREFIX] [--expect=PREFIX]
//            [--device=cpu|gpu|both] [--reps=21]
// Unknown dims of an input take --shapes (one list per input, ';' between inputs), else 1.
// Without --inputs, float inputs are a fixed pseudo-random sequence in [-1, 1) (the one
// tests/onnx/ort_run.js writes, so ONNX Runtime can be fed the same), integer inputs 0.
// --inputs=PREFIX reads PREFIXin_<i>.bin (raw little-endian values of the input's dtype);
// --expect=PREFIX compares output i with PREFIXout_<i>.bin (float32) and fails when any
// element differs by more than --tolerance.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "example_flags.h"
#include "rill/rill.h"
#include "rill/runtime/file_util.h"

ABSL_FLAG(std::string, model, "", "the .onnx file to run");
ABSL_FLAG(std::string, shapes, "", "dims for the inputs' unknown dims: 1,3,48,192;... per input");
ABSL_FLAG(std::string, inputs, "", "read input i from PREFIXin_<i>.bin (raw values)");
ABSL_FLAG(std::string, expect, "", "compare output i with PREFIXout_<i>.bin (float32)");
ABSL_FLAG(double, tolerance, 1e-4, "largest |rill - expected| --expect accepts");
ABSL_FLAG(std::string, device, "both", "cpu, gpu, or both (each device present)");
ABSL_FLAG(int, reps, 21, "timed inferences per device (the median is printed)");
ABSL_FLAG(int, profile, 0,
          "after timing, trace one run and print the N op types that took longest");

namespace {

using namespace rill;  // NOLINT

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The fixed sequence of tests/onnx/ort_run.js (MINSTD): s = s * 48271 mod 2^31 - 1.
void FillPseudoRandom(Tensor* t) {
  uint64_t s = 12345;
  for (int64_t i = 0; i < t->NumElements(); ++i) {
    s = s * 48271 % 2147483647u;
    const double v = static_cast<double>(s) / 2147483648.0 * 2 - 1;
    if (t->dtype() == DT_FLOAT) t->flat<float>()(i) = static_cast<float>(v);
    if (t->dtype() == DT_DOUBLE) t->flat<double>()(i) = v;
  }
}

absl::StatusOr<Tensor> MakeInput(const Output& in, int i, const std::vector<std::string>& shapes) {
  const PartialTensorShape& s = in.shape();
  if (s.unknown_rank()) return errors::InvalidArgument("input ", i, " has no rank in the model");
  std::vector<int64_t> dims(s.dim_sizes().begin(), s.dim_sizes().end());
  if (i < static_cast<int>(shapes.size()) && !shapes[i].empty()) {
    std::vector<std::string> given = absl::StrSplit(shapes[i], ',');
    if (given.size() != dims.size())
      return errors::InvalidArgument("--shapes for input ", i, ": rank");
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!absl::SimpleAtoi(given[d], &dims[d]) || dims[d] < 0) {
        return errors::InvalidArgument("--shapes for input ", i, ": '", given[d], "'");
      }
    }
  }
  for (int64_t& d : dims) d = d < 0 ? 1 : d;
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  Tensor t(in.type(), shape);
  std::memset(t.data(), 0, t.TotalBytes());
  const std::string prefix = absl::GetFlag(FLAGS_inputs);
  if (prefix.empty()) {
    FillPseudoRandom(&t);
    return t;
  }
  const std::string bytes = ReadFile(prefix + "in_" + std::to_string(i) + ".bin");
  if (bytes.size() != t.TotalBytes()) {
    return errors::InvalidArgument("input file ", i, " holds ", bytes.size(), " bytes, not ",
                                   t.TotalBytes());
  }
  std::memcpy(t.data(), bytes.data(), bytes.size());
  return t;
}

// Prints each output and, with --expect, the largest difference; false when one is too large.
bool Report(const onnx::ImportedModel& m, const std::vector<Tensor>& out) {
  bool ok = true;
  for (size_t i = 0; i < out.size(); ++i) {
    const Tensor& t = out[i];
    std::printf("  output %zu '%s': %s %s", i, m.output_names[i].c_str(),
                DataTypeString(t.dtype()).c_str(), t.shape().DebugString().c_str());
    if (t.dtype() == DT_FLOAT && t.NumElements() > 0) {
      auto v = t.flat<float>();
      double sum = 0;
      for (int64_t k = 0; k < t.NumElements(); ++k) sum += v(k);
      std::printf(" mean %.6g first %.6g", sum / t.NumElements(), v(0));
    }
    const std::string prefix = absl::GetFlag(FLAGS_expect);
    if (!prefix.empty()) {
      const std::string want = ReadFile(prefix + "out_" + std::to_string(i) + ".bin");
      if (t.dtype() != DT_FLOAT || want.size() != t.TotalBytes()) {
        std::printf(" (expected file has %zu bytes: no match)", want.size());
        ok = false;
      } else {
        const float* w = reinterpret_cast<const float*>(want.data());
        double worst = 0;
        for (int64_t k = 0; k < t.NumElements(); ++k) {
          worst = std::max(worst, std::fabs(static_cast<double>(t.flat<float>()(k)) - w[k]));
        }
        std::printf(" max |diff| vs expected %.3g", worst);
        ok = ok && worst <= absl::GetFlag(FLAGS_tolerance);
      }
    }
    std::printf("\n");
  }
  return ok;
}

// One traced run, summarized per device: the `top` op types by kernel time.
absl::Status Profile(const ClientSession& session, const Session::FeedType& feeds,
                     const std::vector<Output>& fetches, int top) {
  RunOptions opts;
  opts.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session.Run(opts, feeds, fetches, {}, &out, &meta));
  std::printf("%s", SummarizeStepStats(meta.step_stats, top).c_str());
  return absl::OkStatus();
}

absl::StatusOr<bool> RunOn(const std::string& bytes, const std::string& device) {
  Scope root = Scope::NewRootScope().WithDevice(device);
  RILL_ASSIGN_OR_RETURN(onnx::ImportedModel m, onnx::ImportModel(root, bytes));
  const std::vector<std::string> shapes = absl::StrSplit(absl::GetFlag(FLAGS_shapes), ';');
  Session::FeedType feeds;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    RILL_ASSIGN_OR_RETURN(Tensor t, MakeInput(m.inputs[i], static_cast<int>(i), shapes));
    std::printf("  input %zu '%s': %s %s\n", i, m.input_names[i].c_str(),
                DataTypeString(t.dtype()).c_str(), t.shape().DebugString().c_str());
    feeds.emplace(m.inputs[i], t);
  }
  ClientSession session(root);
  std::vector<Tensor> out;
  std::vector<double> ms;
  const int reps = std::max(1, absl::GetFlag(FLAGS_reps));
  for (int r = 0; r <= reps; ++r) {  // run 0 builds the plan: reported apart
    const auto t0 = std::chrono::steady_clock::now();
    RILL_RETURN_IF_ERROR(session.Run(feeds, m.outputs, &out));
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  const double first = ms[0];
  ms.erase(ms.begin());
  std::sort(ms.begin(), ms.end());
  std::printf("  %s: first run %.3f ms, median of %d runs %.3f ms\n", device.c_str(), first, reps,
              ms[ms.size() / 2]);
  if (absl::GetFlag(FLAGS_profile) > 0) {
    RILL_RETURN_IF_ERROR(Profile(session, feeds, m.outputs, absl::GetFlag(FLAGS_profile)));
  }
  return Report(m, out);
}

}  // namespace

int main(int argc, char** argv) {
  rill::examples::ParseFlags(argc, argv,
                             "Runs an ONNX model on each device with given or made-up "
                             "inputs; prints its outputs and the time per inference.\n"
                             "  onnx_run --model=M.onnx [--shapes=1,3,48,192] [--device=both]");
  const std::string path = absl::GetFlag(FLAGS_model);
  if (path.empty()) {
    std::fprintf(stderr, "onnx_run: --model=FILE.onnx is required\n");
    return 1;
  }
  const std::string which = absl::GetFlag(FLAGS_device);
  if (which != "cpu" && which != "gpu" && which != "both") {
    std::fprintf(stderr, "onnx_run: --device must be cpu, gpu or both, got '%s'\n", which.c_str());
    return 1;
  }
  absl::StatusOr<std::string> bytes = ReadFileToString(path, "ONNX model", onnx::kMaxModelBytes);
  if (!bytes.ok()) {
    std::fprintf(stderr, "onnx_run: %s\n", bytes.status().ToString().c_str());
    return 1;
  }
  std::vector<std::string> devices;
  if (which != "gpu") devices.push_back("/CPU:0");
  if (which != "cpu") {
    for (const auto& d : DeviceSet::Local().devices()) {
      if (d->device_type() == DEVICE_GPU) devices.push_back(d->name());
    }
    if (which == "gpu" && devices.empty()) std::printf("onnx_run: no GPU here\n");
  }
  bool all_ok = true;
  for (const std::string& device : devices) {
    std::printf("%s on %s\n", path.c_str(), device.c_str());
    absl::StatusOr<bool> ok = RunOn(*bytes, device);
    if (!ok.ok()) {
      std::fprintf(stderr, "onnx_run: %s\n", ok.status().ToString().c_str());
      return 1;
    }
    all_ok = all_ok && *ok;
  }
  return all_ok ? 0 : 1;
}
