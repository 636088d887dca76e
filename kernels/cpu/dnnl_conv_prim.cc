#include "rill/kernels/cpu/dnnl_conv_prim.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace rill::cpu {

using dnnl::memory;
using Tag = memory::format_tag;

dnnl::engine& Engine() {
  static auto* e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

ConvShape ShapeOf(const Conv2DGeometry& g) {
  ConvShape s;
  s.spatial = 2;
  s.batch = g.batch;
  s.in_c = g.in_c;
  s.out_c = g.out_c;
  s.groups = g.groups;
  const int64_t in[2] = {g.in_h, g.in_w}, k[2] = {g.k_h, g.k_w}, out[2] = {g.out_h, g.out_w},
                stride[2] = {g.stride_h, g.stride_w}, pad[2] = {g.pad_top, g.pad_left},
                dilation[2] = {g.dilation_h, g.dilation_w};
  for (int d = 0; d < 2; ++d) {
    s.in[d] = in[d];
    s.k[d] = k[d];
    s.out[d] = out[d];
    s.stride[d] = stride[d];
    s.dilation[d] = dilation[d];
    s.pad[d] = pad[d];
  }
  return s;
}

ConvShape ShapeOf(const Conv3DDims& g) {
  ConvShape s;
  s.spatial = 3;
  s.batch = g.batch;
  s.in_c = g.in_c;
  s.out_c = g.out_c;
  s.groups = g.groups;
  for (int d = 0; d < 3; ++d) {
    s.in[d] = g.in[d];
    s.k[d] = g.k[d];
    s.out[d] = g.out[d];
    s.stride[d] = g.stride[d];
    s.dilation[d] = g.dilation[d];
    s.pad[d] = g.pad[d];
  }
  return s;
}

namespace {

// The padding after the input along dim d. A VALID window that leaves the last rows unused
// would need a negative one; oneDNN sizes outputs as (in - span + pads) / stride + 1,
// rounding down, so a pad of 0 describes the same output there.
int64_t PadAfter(const ConvShape& s, int d) {
  const int64_t span = (s.k[d] - 1) * s.dilation[d] + 1;
  return std::max<int64_t>((s.out[d] - 1) * s.stride[d] + span - s.in[d] - s.pad[d], 0);
}

// The weights as oneDNN sees them, in rill's HWIO / DHWIO layout: [oc, ic, k...] for one
// group; grouped, [g, oc / g, ic / g, k...] over TensorFlow's [k..., ic / g, oc] (output
// channel g * (oc / g) + o).
memory::desc WeightsDesc(const ConvShape& s, bool any) {
  const auto f32 = memory::data_type::f32;
  memory::dims k(s.k, s.k + s.spatial);
  if (s.groups == 1) {
    memory::dims wei{s.out_c, s.in_c};
    wei.insert(wei.end(), k.begin(), k.end());
    return memory::desc(wei, f32, any ? Tag::any : s.spatial == 2 ? Tag::hwio : Tag::dhwio);
  }
  const int64_t ocg = s.out_c / s.groups, icg = s.in_c / s.groups;
  memory::dims wei{s.groups, ocg, icg};
  wei.insert(wei.end(), k.begin(), k.end());
  if (any) return memory::desc(wei, f32, Tag::any);
  memory::dims strides{ocg, 1, s.out_c};
  for (int d = 0; d < s.spatial; ++d) {
    int64_t stride = icg * s.out_c;
    for (int e = d + 1; e < s.spatial; ++e) stride *= s.k[e];
    strides.push_back(stride);
  }
  return memory::desc(wei, f32, strides);
}

// Whether an epilogue has a binary operand the size of the output (a residual).
bool HasFullOperand(const ConvPostOps* post) {
  for (int i = 0; post != nullptr && i < post->size; ++i) {
    if (post->ops[i].shape == PostOperand::kFull) return true;
  }
  return false;
}

// Whether a primitive's implementation is one of oneDNN's JIT kernels, not a reference loop.
bool IsJit(const std::string& impl) {
  return impl.find("jit") != std::string::npos || impl.find("brg") != std::string::npos ||
         impl.find("brdgmm") != std::string::npos;  // brdgmm: the NHWC depthwise kernels
}

Operand MakeOperand(int arg, const memory::desc& user, const memory::desc& prim, bool input) {
  Operand o{arg, user, prim, std::nullopt};
  if (user != prim) {
    o.reorder = input
                    ? dnnl::reorder(dnnl::reorder::primitive_desc(Engine(), user, Engine(), prim))
                    : dnnl::reorder(dnnl::reorder::primitive_desc(Engine(), prim, Engine(), user));
  }
  return o;
}

// A shape's memory descriptors: rill's layouts (channels last) and "any" (oneDNN's choice).
struct Descs {
  memory::dims src, dst, strides, dilates, pad_l, pad_r;
  memory::desc src_md, wei_md, dst_md, bias_md, src_any, wei_any, dst_any;
};

Descs DescsOf(const ConvShape& s) {
  const auto f32 = memory::data_type::f32;
  const Tag plain = s.spatial == 2 ? Tag::nhwc : Tag::ndhwc;
  Descs d;
  d.src = {s.batch, s.in_c};
  d.dst = {s.batch, s.out_c};
  for (int i = 0; i < s.spatial; ++i) {
    d.src.push_back(s.in[i]);
    d.dst.push_back(s.out[i]);
    d.strides.push_back(s.stride[i]);
    d.dilates.push_back(s.dilation[i] - 1);  // oneDNN counts the gaps between taps
    d.pad_l.push_back(s.pad[i]);
    d.pad_r.push_back(PadAfter(s, i));
  }
  d.src_md = memory::desc(d.src, f32, plain);
  d.wei_md = WeightsDesc(s, false);
  d.dst_md = memory::desc(d.dst, f32, plain);
  d.bias_md = memory::desc({s.out_c}, f32, Tag::x);
  d.src_any = memory::desc(d.src, f32, Tag::any);
  d.wei_any = WeightsDesc(s, true);
  d.dst_any = memory::desc(d.dst, f32, Tag::any);
  return d;
}

constexpr auto kAlgo = dnnl::algorithm::convolution_direct;

// The forward primitive (the backward passes' hint too), with a fused bias and activation
// or an epilogue when given.
dnnl::convolution_forward::primitive_desc ForwardDesc(const Descs& d, bool plain,
                                                      std::optional<FusedActivation> fused,
                                                      const ConvPostOps* epilogue) {
  const auto prop = dnnl::prop_kind::forward_training;
  const memory::desc& s = plain ? d.src_md : d.src_any;
  const memory::desc& o = plain ? d.dst_md : d.dst_any;
  return dnnl::convolution_forward::primitive_desc(
      fused ? dnnl::convolution_forward::desc(prop, kAlgo, s, d.wei_any, d.bias_md, o, d.strides,
                                              d.dilates, d.pad_l, d.pad_r)
            : dnnl::convolution_forward::desc(prop, kAlgo, s, d.wei_any, o, d.strides, d.dilates,
                                              d.pad_l, d.pad_r),
      AttrOf(fused, epilogue, d.dst), Engine());
}

Prepared MakeForward(const Descs& d, std::optional<FusedActivation> fused,
                     const ConvPostOps* epilogue) {
  dnnl::convolution_forward::primitive_desc fwd = ForwardDesc(d, false, fused, epilogue);
  // Activations as they are (NHWC) when oneDNN has a JIT kernel for that layout: the
  // reorders to and from a blocked layout cost more than they save on the small feature
  // maps of inference models (only the weights, made once, are reordered).
  dnnl::convolution_forward::primitive_desc plain = ForwardDesc(d, true, fused, epilogue);
  if (IsJit(plain.impl_info_str())) fwd = plain;
  // An epilogue in a reference loop costs more than the caller's own pass over the output.
  if (epilogue != nullptr && !IsJit(fwd.impl_info_str())) {
    throw dnnl::error(dnnl_unimplemented, "no JIT convolution with this epilogue");
  }
  // oneDNN 2.6's GEMM-based convolution reads a full-tensor binary operand at the wrong
  // offsets for grouped convolutions (a depthwise 1x1 with a channel multiplier on an AVX2
  // machine: the residual op case was wrong there); not trusted with one at all, so the
  // caller runs such an epilogue after the convolution.
  if (HasFullOperand(epilogue) &&
      std::string(fwd.impl_info_str()).find("gemm") != std::string::npos) {
    throw dnnl::error(dnnl_unimplemented, "a GEMM convolution with a full-tensor operand");
  }
  return {dnnl::convolution_forward(fwd),
          MakeOperand(DNNL_ARG_SRC, d.src_md, fwd.src_desc(), true),
          MakeOperand(DNNL_ARG_WEIGHTS, d.wei_md, fwd.weights_desc(), true),
          MakeOperand(DNNL_ARG_DST, d.dst_md, fwd.dst_desc(), false),
          fused ? std::optional(d.bias_md) : std::nullopt,
          fwd.scratchpad_desc(),
          PostSources(epilogue, fused.has_value(), d.dst)};
}

Prepared MakeBackwardData(const Descs& d, const dnnl::primitive_attr& attr,
                          const dnnl::convolution_forward::primitive_desc& fwd) {
  auto backward = [&](const memory::desc& s, const memory::desc& o) {
    return dnnl::convolution_backward_data::primitive_desc(
        dnnl::convolution_backward_data::desc(kAlgo, s, d.wei_any, o, d.strides, d.dilates, d.pad_l,
                                              d.pad_r),
        attr, Engine(), fwd);
  };
  // As the forward pass: NHWC as it is where oneDNN has a JIT kernel for it. The reorders
  // to and from blocked layouts cost more than the layouts save (ONNX ConvTranspose to one
  // channel: 0.43 -> 0.11 ms; the MNIST CNN's step no slower).
  dnnl::convolution_backward_data::primitive_desc pd = backward(d.src_any, d.dst_any);
  dnnl::convolution_backward_data::primitive_desc plain = backward(d.src_md, d.dst_md);
  if (IsJit(plain.impl_info_str())) pd = plain;
  return {dnnl::convolution_backward_data(pd),
          MakeOperand(DNNL_ARG_WEIGHTS, d.wei_md, pd.weights_desc(), true),
          MakeOperand(DNNL_ARG_DIFF_DST, d.dst_md, pd.diff_dst_desc(), true),
          MakeOperand(DNNL_ARG_DIFF_SRC, d.src_md, pd.diff_src_desc(), false),
          std::nullopt,
          pd.scratchpad_desc(),
          {}};
}

Prepared MakeBackwardWeights(const Descs& d, const dnnl::primitive_attr& attr,
                             const dnnl::convolution_forward::primitive_desc& fwd) {
  dnnl::convolution_backward_weights::primitive_desc pd(
      dnnl::convolution_backward_weights::desc(kAlgo, d.src_any, d.wei_any, d.dst_any, d.strides,
                                               d.dilates, d.pad_l, d.pad_r),
      attr, Engine(), fwd);
  return {dnnl::convolution_backward_weights(pd),
          MakeOperand(DNNL_ARG_SRC, d.src_md, pd.src_desc(), true),
          MakeOperand(DNNL_ARG_DIFF_DST, d.dst_md, pd.diff_dst_desc(), true),
          MakeOperand(DNNL_ARG_DIFF_WEIGHTS, d.wei_md, pd.diff_weights_desc(), false),
          std::nullopt,
          pd.scratchpad_desc(),
          {}};
}

}  // namespace

Prepared Make(ConvPass pass, const ConvShape& s, std::optional<FusedActivation> fused,
              const ConvPostOps* post) {
  const Descs d = DescsOf(s);
  if (pass == ConvPass::kForward) return MakeForward(d, fused, post);
  const dnnl::convolution_forward::primitive_desc hint =
      ForwardDesc(d, false, std::nullopt, nullptr);
  const dnnl::primitive_attr attr = AttrOf(std::nullopt, nullptr, d.dst);
  return pass == ConvPass::kBackwardData ? MakeBackwardData(d, attr, hint)
                                         : MakeBackwardWeights(d, attr, hint);
}

bool Supported(const ConvShape& s) {
  // oneDNN's descriptors refuse sizes past int32 in places (a stride of 2^31 fails to make
  // a primitive); such shapes take the kernels' own path, which handles any size.
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  for (int64_t v : {s.batch, s.in_c, s.out_c}) {
    if (v > kMax) return false;
  }
  for (int d = 0; d < s.spatial; ++d) {
    for (int64_t v : {s.in[d], s.k[d], s.out[d], s.stride[d], s.dilation[d], s.pad[d]}) {
      if (v > kMax) return false;
    }
    if (PadAfter(s, d) > kMax || s.out[d] <= 0) return false;
  }
  if (s.groups < 1 || s.groups > kMax || s.in_c % s.groups != 0 || s.out_c % s.groups != 0) {
    return false;
  }
  return s.batch > 0 && s.in_c > 0 && s.out_c > 0;
}

// oneDNN runs a primitive on an OpenMP team of every core. A small convolution loses more
// to the team's fork and join, and to sharing the cores with rill's executor threads that
// run other nodes meanwhile, than it gains: below this many multiply-adds it runs on the
// calling thread alone (measured on PaddleOCR's detector, 2 cores: 11.5 -> 7.6 ms per image
// with every convolution on one thread; the MNIST CNN's training step, whose convolutions
// are above it, was 5% slower on one thread).
constexpr double kTeamMacs = double{1 << 24};

int ThreadsFor(const ConvShape& s) {
  double macs = static_cast<double>(s.batch) * static_cast<double>(s.out_c) *
                static_cast<double>(s.in_c / std::max<int64_t>(s.groups, 1));
  for (int d = 0; d < s.spatial; ++d) macs *= static_cast<double>(s.out[d] * s.k[d]);
  return macs < kTeamMacs ? 1 : 0;  // 0: OpenMP's default
}

}  // namespace rill::cpu
