// Convolutions against the raw library and the form they replace, alternated within each
// iteration in the same process:
//   BM_Conv3D          rill's Conv3D (input fed, filter a constant) against oneDNN's
//                      forward primitive made here on the same NDHWC/DHWIO buffers, its
//                      weights reordered once (counter: rill's time over oneDNN's)
//   BM_DilatedConv2D   Conv2D with dilations 2 against Conv2D with the filter dilated by
//                      zeros (what the ONNX importer built before Conv2D took dilations;
//                      counter: dilated over zero-padded)
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "rill/rill.h"

namespace {
namespace conv_bench {

using namespace rill;  // NOLINT
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

Tensor Random(const TensorShape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1, 1);
  Tensor t(DT_FLOAT, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.base<float>()[i] = value(rng);
  return t;
}

// oneDNN's forward 3-D convolution over NDHWC x and DHWIO w (SAME, stride 1, odd k).
struct RawConv3D {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{eng};
  dnnl::convolution_forward prim;
  dnnl::memory src, wei, dst;

  RawConv3D(const Tensor& x, const Tensor& w, Tensor* y) {
    using dnnl::memory;
    using Tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    const int64_t n = x.dim_size(0), c = x.dim_size(4), oc = w.dim_size(4), k = w.dim_size(0);
    const memory::dims sp = {x.dim_size(1), x.dim_size(2), x.dim_size(3)};
    const memory::desc src_md({n, c, sp[0], sp[1], sp[2]}, f32, Tag::ndhwc);
    const memory::desc dst_md({n, oc, sp[0], sp[1], sp[2]}, f32, Tag::ndhwc);
    const memory::desc wei_user({oc, c, k, k, k}, f32, Tag::dhwio);
    const memory::desc wei_any({oc, c, k, k, k}, f32, Tag::any);
    const memory::dims pad = {k / 2, k / 2, k / 2};
    dnnl::convolution_forward::primitive_desc pd(
        dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                        dnnl::algorithm::convolution_direct, src_md, wei_any,
                                        dst_md, {1, 1, 1}, pad, pad),
        eng);
    prim = dnnl::convolution_forward(pd);
    src = memory(src_md, eng, const_cast<float*>(x.base<float>()));
    dst = memory(dst_md, eng, y->base<float>());
    memory user(wei_user, eng, const_cast<float*>(w.base<float>()));
    wei = memory(pd.weights_desc(), eng);
    dnnl::reorder(user, wei).execute(stream, user, wei);
    stream.wait();
  }
  void Run() {
    prim.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
};

void BM_Conv3D(benchmark::State& state) {
  const int64_t side = state.range(0);
  const Tensor x = Random({4, side / 2, side, side, 16}, 1), w = Random({3, 3, 3, 16, 32}, 2);
  Scope s = Scope::NewRootScope();
  auto px = ops::Placeholder(s, DT_FLOAT);
  Output y = ops::Conv3D(s, px, ops::Const(s, w), {1, 1, 1, 1, 1}, "SAME");
  Session session(s);
  std::vector<Tensor> out;
  Tensor raw_out(DT_FLOAT, TensorShape({4, side / 2, side, side, 32}));
  RawConv3D raw(x, w, &raw_out);
  double t_rill = 0, t_raw = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (!session.Run({{px, x}}, {y}, &out).ok()) state.SkipWithError("Conv3D failed");
    auto t1 = Clock::now();
    raw.Run();
    auto t2 = Clock::now();
    t_rill += Seconds(t0, t1);
    t_raw += Seconds(t1, t2);
    state.SetIterationTime(Seconds(t0, t1));
  }
  state.counters["rill_over_onednn"] = t_rill / t_raw;
}
BENCHMARK(BM_Conv3D)->Arg(16)->Arg(32)->UseManualTime()->Unit(benchmark::kMillisecond);

// A [3, 3, c, oc] filter dilated by `d` as zeros between its taps: [2d + 1, 2d + 1, c, oc].
Tensor ZeroDilated(const Tensor& w, int64_t d) {
  const int64_t k = w.dim_size(0), c = w.dim_size(2), oc = w.dim_size(3), kd = (k - 1) * d + 1;
  Tensor out(DT_FLOAT, TensorShape({kd, kd, c, oc}));
  std::fill(out.base<float>(), out.base<float>() + out.NumElements(), 0.f);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j)
      std::copy_n(w.base<float>() + (i * k + j) * c * oc, c * oc,
                  out.base<float>() + (i * d * kd + j * d) * c * oc);
  return out;
}

void BM_DilatedConv2D(benchmark::State& state) {
  const int64_t side = state.range(0);
  const Tensor x = Random({8, side, side, 32}, 3), w = Random({3, 3, 32, 32}, 4);
  Scope s = Scope::NewRootScope();
  auto px = ops::Placeholder(s, DT_FLOAT);
  Output dilated = ops::Conv2D(s, px, ops::Const(s, w), {1, 1, 1, 1}, "SAME",
                               ops::Conv2D::Dilations({1, 2, 2, 1}));
  Output padded = ops::Conv2D(s, px, ops::Const(s, ZeroDilated(w, 2)), {1, 1, 1, 1}, "SAME");
  Session session(s);
  std::vector<Tensor> out;
  double t_dilated = 0, t_padded = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (!session.Run({{px, x}}, {dilated}, &out).ok()) state.SkipWithError("dilated failed");
    auto t1 = Clock::now();
    if (!session.Run({{px, x}}, {padded}, &out).ok()) state.SkipWithError("padded failed");
    auto t2 = Clock::now();
    t_dilated += Seconds(t0, t1);
    t_padded += Seconds(t1, t2);
    state.SetIterationTime(Seconds(t0, t1));
  }
  state.counters["dilated_over_zero_padded"] = t_dilated / t_padded;
}
BENCHMARK(BM_DilatedConv2D)->Arg(32)->Arg(64)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace conv_bench
}  // namespace
