#include "rill/kernels/cpu/dnnl_conv.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "rill/core/tensor.h"
#include "rill/kernels/cpu/dnnl_post_ops.h"

namespace rill::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

dnnl::engine& Engine() {
  static auto* e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

// The padding after the input. A VALID window that leaves the last rows unused would need
// a negative one; oneDNN sizes outputs as (in - k + pads) / stride + 1, rounding down, so a
// pad of 0 describes the same output there.
int64_t PadBottom(const Conv2DGeometry& g) {
  return std::max<int64_t>((g.out_h - 1) * g.stride_h + g.k_h - g.in_h - g.pad_top, 0);
}
int64_t PadRight(const Conv2DGeometry& g) {
  return std::max<int64_t>((g.out_w - 1) * g.stride_w + g.k_w - g.in_w - g.pad_left, 0);
}

using Key = std::tuple<int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t, int64_t, uint64_t>;

// An epilogue's ops and operand shapes, 6 bits a step under a leading 1 (0: none), so
// that the cache key needs no allocation.
uint64_t SignatureOf(const ConvPostOps* post) {
  if (post == nullptr) return 0;
  uint64_t sig = 1;
  for (int i = 0; i < post->size; ++i) {
    sig = sig << 6 | (static_cast<uint64_t>(post->ops[i].op) << 2) |
          static_cast<uint64_t>(post->ops[i].shape);
  }
  return sig;
}

Key KeyOf(ConvPass pass, const Conv2DGeometry& g, const ConvPostOps* post) {
  return {static_cast<int>(pass),
          g.batch,
          g.in_h,
          g.in_w,
          g.in_c,
          g.k_h,
          g.k_w,
          g.out_c,
          g.stride_h,
          g.stride_w,
          g.groups,
          SignatureOf(post)};
}

// The weights as oneDNN sees them, in rill's HWIO layout: [oc, ic, kh, kw] for one group;
// grouped, [g, oc / g, ic / g, kh, kw] over TensorFlow's [kh, kw, ic / g, oc] (output
// channel g * (oc / g) + o).
memory::desc WeightsDesc(const Conv2DGeometry& g, bool any) {
  const auto f32 = memory::data_type::f32;
  if (g.groups == 1) {
    const memory::dims wei{g.out_c, g.in_c, g.k_h, g.k_w};
    return memory::desc(wei, f32, any ? Tag::any : Tag::hwio);
  }
  const int64_t ocg = g.out_c / g.groups, icg = g.in_c / g.groups;
  const memory::dims wei{g.groups, ocg, icg, g.k_h, g.k_w};
  if (any) return memory::desc(wei, f32, Tag::any);
  return memory::desc(wei, f32,
                      memory::dims{ocg, 1, g.out_c, g.k_w * icg * g.out_c, icg * g.out_c});
}

// oneDNN runs a primitive on an OpenMP team of every core. A small convolution loses more
// to the team's fork and join, and to sharing the cores with rill's executor threads that
// run other nodes meanwhile, than it gains: below this many multiply-adds it runs on the
// calling thread alone (measured on PaddleOCR's detector, 2 cores: 11.5 -> 7.6 ms per image
// with every convolution on one thread; the MNIST CNN's training step, whose convolutions
// are above it, was 5% slower on one thread).
constexpr double kTeamMacs = double{1 << 24};

// The OpenMP runtime's team-size calls. Declared here rather than through omp.h, which
// not every compiler here ships: they come with the OpenMP runtime that Debian's oneDNN
// links (libgomp), whose teams they size.
extern "C" int omp_get_max_threads();
extern "C" void omp_set_num_threads(int n);

int ThreadsFor(const Conv2DGeometry& g) {
  const double macs = static_cast<double>(g.batch) * g.out_h * g.out_w * g.out_c * g.k_h * g.k_w *
                      static_cast<double>(g.in_c / std::max<int64_t>(g.groups, 1));
  return macs < kTeamMacs ? 1 : 0;  // 0: OpenMP's default
}

// Sets the calling thread's OpenMP team size (oneDNN reads it when it makes and when it runs
// a primitive) for a scope; 0 leaves it as it is.
class ScopedThreads {
 public:
  explicit ScopedThreads(int n) : saved_(n > 0 ? omp_get_max_threads() : 0) {
    if (n > 0) omp_set_num_threads(n);
  }
  ~ScopedThreads() {
    if (saved_ > 0) omp_set_num_threads(saved_);
  }
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;

 private:
  const int saved_;
};

// One of a primitive's three tensors: rill's plain layout, the one the primitive chose
// (oneDNN's fastest kernels want blocked layouts), and the reorder between them if they
// differ (user -> primitive for inputs, primitive -> user for the output).
struct Operand {
  int arg;
  memory::desc user, prim;
  std::optional<dnnl::reorder> reorder;
};

Operand MakeOperand(int arg, const memory::desc& user, const memory::desc& prim, bool input) {
  Operand o{arg, user, prim, std::nullopt};
  if (user != prim) {
    o.reorder = input
                    ? dnnl::reorder(dnnl::reorder::primitive_desc(Engine(), user, Engine(), prim))
                    : dnnl::reorder(dnnl::reorder::primitive_desc(Engine(), prim, Engine(), user));
  }
  return o;
}

// One pass's primitive, its operands (two inputs, then the output), the fused forward's
// bias, and its scratchpad.
struct Prepared {
  dnnl::primitive prim;
  Operand a, b, out;
  std::optional<memory::desc> bias;
  memory::desc scratch;
  std::vector<PostSource> post_sources;  // the epilogue's binary post-ops' operands
};

// Whether a primitive's implementation is one of oneDNN's JIT kernels, not a reference loop.
bool IsJit(const std::string& impl) {
  return impl.find("jit") != std::string::npos || impl.find("brg") != std::string::npos ||
         impl.find("brdgmm") != std::string::npos;  // brdgmm: the NHWC depthwise kernels
}

// A geometry's memory descriptors: rill's layouts (NHWC, HWIO) and "any" (oneDNN's choice).
struct Descs {
  memory::dims src, dst, strides, pad_l, pad_r;
  memory::desc src_md, wei_md, dst_md, bias_md, src_any, wei_any, dst_any;
};

Descs DescsOf(const Conv2DGeometry& g) {
  const auto f32 = memory::data_type::f32;
  Descs d;
  d.src = {g.batch, g.in_c, g.in_h, g.in_w};
  d.dst = {g.batch, g.out_c, g.out_h, g.out_w};
  d.strides = {g.stride_h, g.stride_w};
  d.pad_l = {g.pad_top, g.pad_left};
  d.pad_r = {PadBottom(g), PadRight(g)};
  d.src_md = memory::desc(d.src, f32, Tag::nhwc);
  d.wei_md = WeightsDesc(g, false);
  d.dst_md = memory::desc(d.dst, f32, Tag::nhwc);
  d.bias_md = memory::desc({g.out_c}, f32, Tag::x);
  d.src_any = memory::desc(d.src, f32, Tag::any);
  d.wei_any = WeightsDesc(g, true);
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
                                              d.pad_l, d.pad_r)
            : dnnl::convolution_forward::desc(prop, kAlgo, s, d.wei_any, o, d.strides, d.pad_l,
                                              d.pad_r),
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
        dnnl::convolution_backward_data::desc(kAlgo, s, d.wei_any, o, d.strides, d.pad_l, d.pad_r),
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
                                               d.pad_l, d.pad_r),
      attr, Engine(), fwd);
  return {dnnl::convolution_backward_weights(pd),
          MakeOperand(DNNL_ARG_SRC, d.src_md, pd.src_desc(), true),
          MakeOperand(DNNL_ARG_DIFF_DST, d.dst_md, pd.diff_dst_desc(), true),
          MakeOperand(DNNL_ARG_DIFF_WEIGHTS, d.wei_md, pd.diff_weights_desc(), false),
          std::nullopt,
          pd.scratchpad_desc(),
          {}};
}

Prepared Make(ConvPass pass, const Conv2DGeometry& g, std::optional<FusedActivation> fused,
              const ConvPostOps* post) {
  const Descs d = DescsOf(g);
  if (pass == ConvPass::kForward) return MakeForward(d, fused, post);
  const dnnl::convolution_forward::primitive_desc hint =
      ForwardDesc(d, false, std::nullopt, nullptr);
  const dnnl::primitive_attr attr = AttrOf(std::nullopt, nullptr, d.dst);
  return pass == ConvPass::kBackwardData ? MakeBackwardData(d, attr, hint)
                                         : MakeBackwardWeights(d, attr, hint);
}

// One operand's memory objects in an execution: the user's (its handle set per call) and,
// when the primitive wants another layout, the primitive's over a buffer of its own.
struct Bound {
  memory user, prim;
};

// What one execution needs besides the caller's pointers, made once and kept: a stream,
// the operands' memory objects, reorder buffers and the scratchpad.
struct Workspace {
  dnnl::stream stream;
  Bound a, b, out;
  memory bias, scratch;
  std::vector<memory> post_sources;  // Prepared::post_sources' memories
  std::vector<Tensor> buffers;       // behind the primitive-side memories and the scratchpad
};

// A buffer from rill's allocator for a primitive-side tensor or the scratchpad.
absl::StatusOr<memory> OwnMemory(const memory::desc& md, Workspace& ws) {
  RILL_ASSIGN_OR_RETURN(
      Tensor t, Tensor::Create(DT_UINT8, TensorShape({static_cast<int64_t>(md.get_size())})));
  memory m(md, Engine(), t.data());
  ws.buffers.push_back(std::move(t));
  return m;
}

absl::StatusOr<Bound> BindOperand(const Operand& o, Workspace& ws) {
  Bound b{memory(o.user, Engine(), DNNL_MEMORY_NONE), memory()};
  if (o.reorder) {
    RILL_ASSIGN_OR_RETURN(b.prim, OwnMemory(o.prim, ws));
  }
  return b;
}

absl::StatusOr<std::unique_ptr<Workspace>> MakeWorkspace(const Prepared& p) {
  auto ws = std::make_unique<Workspace>();
  ws->stream = dnnl::stream(Engine());
  RILL_ASSIGN_OR_RETURN(ws->a, BindOperand(p.a, *ws));
  RILL_ASSIGN_OR_RETURN(ws->b, BindOperand(p.b, *ws));
  RILL_ASSIGN_OR_RETURN(ws->out, BindOperand(p.out, *ws));
  if (p.bias) ws->bias = memory(*p.bias, Engine(), DNNL_MEMORY_NONE);
  for (const PostSource& src : p.post_sources) {
    ws->post_sources.push_back(memory(src.md, Engine(), DNNL_MEMORY_NONE));
  }
  if (p.scratch.get_size() > 0) {
    RILL_ASSIGN_OR_RETURN(ws->scratch, OwnMemory(p.scratch, *ws));
  }
  return ws;
}

// Through oneDNN's C API with arguments on the stack: the C++ API's argument map would
// allocate in every call.
void Execute(const dnnl::primitive& prim, dnnl::stream& s,
             std::initializer_list<dnnl_exec_arg_t> args) {
  dnnl::error::wrap_c_api(
      dnnl_primitive_execute(prim.get(), s.get(), static_cast<int>(args.size()), args.begin()),
      "could not execute a primitive");
}

// The memory the primitive reads or writes for an operand: the user's, or its reordered
// copy (inputs are reordered in here first).
dnnl_memory_t Side(const Operand& o, Bound& b, dnnl::stream& s, bool input) {
  if (!o.reorder) return b.user.get();
  if (input) Execute(*o.reorder, s, {{DNNL_ARG_FROM, b.user.get()}, {DNNL_ARG_TO, b.prim.get()}});
  return b.prim.get();
}

// `packed_b`: b already in the primitive's layout (constant weights reordered once), or null.
void ExecuteOnce(const Prepared& p, Workspace& ws, const float* a, const float* b, float* out,
                 const float* bias, dnnl_memory_t packed_b, const ConvPostOps* post) {
  ws.a.user.set_data_handle(const_cast<float*>(a));
  ws.b.user.set_data_handle(const_cast<float*>(b));
  ws.out.user.set_data_handle(out);
  dnnl_exec_arg_t args[5 + kMaxConvPostOps];
  int n = 0;
  args[n++] = {p.a.arg, Side(p.a, ws.a, ws.stream, true)};
  args[n++] = {p.b.arg, packed_b != nullptr ? packed_b : Side(p.b, ws.b, ws.stream, true)};
  args[n++] = {p.out.arg, Side(p.out, ws.out, ws.stream, false)};
  if (p.bias) {
    ws.bias.set_data_handle(const_cast<float*>(bias));
    args[n++] = {DNNL_ARG_BIAS, ws.bias.get()};
  }
  if (ws.scratch) args[n++] = {DNNL_ARG_SCRATCHPAD, ws.scratch.get()};
  for (size_t i = 0; i < p.post_sources.size(); ++i) {
    const PostSource& src = p.post_sources[i];
    ws.post_sources[i].set_data_handle(const_cast<float*>(post->ops[src.step].values));
    args[n++] = {DNNL_ARG_ATTR_MULTIPLE_POST_OP(src.index) | DNNL_ARG_SRC_1,
                 ws.post_sources[i].get()};
  }
  dnnl::error::wrap_c_api(dnnl_primitive_execute(p.prim.get(), ws.stream.get(), n, args),
                          "could not execute a convolution");
  if (p.out.reorder) {
    Execute(*p.out.reorder, ws.stream,
            {{DNNL_ARG_FROM, ws.out.prim.get()}, {DNNL_ARG_TO, ws.out.user.get()}});
  }
  ws.stream.wait();
}

// A prepared pass and its idle workspaces; for a forward pass over constant weights, those
// weights in the primitive's layout (reordered by the first run).
struct Entry {
  absl::Status refused;  // Unimplemented: oneDNN made no primitive for the key
  Prepared p;
  int threads = 0;  // ThreadsFor the geometry
  std::mutex mu;
  std::vector<std::unique_ptr<Workspace>> idle;
  const float* packed_from = nullptr;  // the constant weights `packed` holds
  Tensor packed_buffer;
  memory packed;
};

// `b` (constant weights) in the primitive's layout: reordered into the entry on first use and
// kept. Null when the primitive takes b as it is, or when the entry already holds other
// weights (then the run reorders its own copy, as for weights that change).
absl::StatusOr<dnnl_memory_t> PackedWeights(Entry& e, const float* b) {
  if (!e.p.b.reorder) return nullptr;
  std::lock_guard<std::mutex> lock(e.mu);
  if (e.packed_from == nullptr) {
    RILL_ASSIGN_OR_RETURN(
        e.packed_buffer,
        Tensor::Create(DT_UINT8, TensorShape({static_cast<int64_t>(e.p.b.prim.get_size())})));
    e.packed = memory(e.p.b.prim, Engine(), e.packed_buffer.data());
    memory user(e.p.b.user, Engine(), const_cast<float*>(b));
    dnnl::stream stream(Engine());
    Execute(*e.p.b.reorder, stream, {{DNNL_ARG_FROM, user.get()}, {DNNL_ARG_TO, e.packed.get()}});
    stream.wait();
    e.packed_from = b;
  }
  return e.packed_from == b ? e.packed.get() : nullptr;
}

}  // namespace

struct DnnlConv::Impl {
  std::optional<FusedActivation> fused;
  std::mutex mu;
  std::map<Key, std::unique_ptr<Entry>> cache;

  absl::StatusOr<Entry*> Find(ConvPass pass, const Conv2DGeometry& g, const ConvPostOps* post) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(KeyOf(pass, g, post));
    if (it != cache.end()) {
      if (!it->second->refused.ok()) return it->second->refused;
      return it->second.get();
    }
    auto e = std::make_unique<Entry>();
    e->threads = ThreadsFor(g);
    try {
      ScopedThreads threads(e->threads);
      // One primitive made at a time in the process: it happens once per geometry, and
      // oneDNN's primitive cache, shared by every kernel, is set up inside the library
      // where ThreadSanitizer cannot see its synchronization (two kernels making their
      // first primitives on two threads were reported as a race).
      static std::mutex* making = new std::mutex;
      std::lock_guard<std::mutex> made(*making);
      e->p = Make(pass, g, fused, post);
    } catch (const dnnl::error& err) {
      // Kept, so that later runs of the geometry are refused without trying again.
      e->refused =
          errors::Unimplemented("oneDNN has no convolution for this geometry: ", err.what());
    }
    it = cache.emplace(KeyOf(pass, g, post), std::move(e)).first;
    if (!it->second->refused.ok()) return it->second->refused;
    return it->second.get();
  }
};

DnnlConv::DnnlConv(std::optional<FusedActivation> fused) : impl_(std::make_unique<Impl>()) {
  impl_->fused = fused;
}
DnnlConv::~DnnlConv() = default;

bool DnnlConv::Supports(const Conv2DGeometry& g) {
  // oneDNN's descriptors refuse sizes past int32 in places (a stride of 2^31 fails to make
  // a primitive); such geometries take the im2col path, which handles any size.
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  for (int64_t v : {g.batch, g.in_h, g.in_w, g.in_c, g.k_h, g.k_w, g.out_c, g.stride_h, g.stride_w,
                    g.out_h, g.out_w, g.pad_top, g.pad_left}) {
    if (v > kMax) return false;
  }
  if (g.groups < 1 || g.groups > kMax || g.in_c % g.groups != 0 || g.out_c % g.groups != 0) {
    return false;
  }
  return g.batch > 0 && g.in_c > 0 && g.out_c > 0 && g.out_h > 0 && g.out_w > 0 &&
         PadBottom(g) <= kMax && PadRight(g) <= kMax;
}

absl::Status DnnlConv::Run(ConvPass pass, const Conv2DGeometry& g, const float* a, const float* b,
                           float* out, const float* bias, bool constant_weights,
                           const ConvPostOps* post) {
  if (post != nullptr && post->size > kMaxConvPostOps) {
    return errors::Unimplemented("an epilogue of more than ", kMaxConvPostOps, " steps");
  }
  if (pass != ConvPass::kForward) post = nullptr;
  RILL_ASSIGN_OR_RETURN(Entry * e, impl_->Find(pass, g, post));
  ScopedThreads threads(e->threads);
  dnnl_memory_t packed_b = nullptr;
  if (constant_weights && pass == ConvPass::kForward) {
    try {
      RILL_ASSIGN_OR_RETURN(packed_b, PackedWeights(*e, b));
    } catch (const dnnl::error& err) {
      return errors::Internal("oneDNN weight reorder failed: ", err.what());
    }
  }
  std::unique_ptr<Workspace> ws;
  {
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->idle.empty()) {
      ws = std::move(e->idle.back());
      e->idle.pop_back();
    }
  }
  try {
    if (!ws) {
      RILL_ASSIGN_OR_RETURN(ws, MakeWorkspace(e->p));
    }
    ExecuteOnce(e->p, *ws, a, b, out, bias, packed_b, post);
  } catch (const dnnl::error& err) {
    return errors::Internal("oneDNN convolution failed: ", err.what(), " (status ", err.status,
                            ")");
  }
  std::lock_guard<std::mutex> lock(e->mu);
  e->idle.push_back(std::move(ws));
  return absl::OkStatus();
}

}  // namespace rill::cpu
