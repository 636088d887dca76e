#include "rill/kernels/cpu/dnnl_conv.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "rill/core/tensor.h"
#include "rill/kernels/cpu/dnnl_conv_prim.h"

namespace rill::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// A pass and its shape, 6 + 6 values per spatial dim (a 2-D shape's third dim zero), and
// the epilogue's signature.
using Key = std::tuple<std::array<int64_t, 24>, uint64_t>;

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

Key KeyOf(ConvPass pass, const ConvShape& s, const ConvPostOps* post) {
  std::array<int64_t, 24> k{
      static_cast<int64_t>(pass), s.spatial, s.batch, s.in_c, s.out_c, s.groups};
  for (int d = 0; d < s.spatial; ++d) {
    const int64_t dims[6] = {s.in[d], s.k[d], s.out[d], s.stride[d], s.dilation[d], s.pad[d]};
    std::copy(dims, dims + 6, k.begin() + 6 + 6 * d);
  }
  return {k, SignatureOf(post)};
}

// The OpenMP runtime's team-size calls. Declared here rather than through omp.h, which
// not every compiler here ships: they come with the OpenMP runtime that Debian's oneDNN
// links (libgomp), whose teams they size.
extern "C" int omp_get_max_threads();
extern "C" void omp_set_num_threads(int n);

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

  absl::StatusOr<Entry*> Find(ConvPass pass, const ConvShape& g, const ConvPostOps* post) {
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

bool DnnlConv::Supports(const Conv2DGeometry& g) { return Supported(ShapeOf(g)); }
bool DnnlConv::Supports(const Conv3DDims& g) { return Supported(ShapeOf(g)); }

absl::Status DnnlConv::Run(ConvPass pass, const Conv3DDims& g, const float* a, const float* b,
                           float* out) {
  return RunShape(pass, ShapeOf(g), a, b, out, nullptr, false, nullptr);
}

absl::Status DnnlConv::Run(ConvPass pass, const Conv2DGeometry& g, const float* a, const float* b,
                           float* out, const float* bias, bool constant_weights,
                           const ConvPostOps* post) {
  return RunShape(pass, ShapeOf(g), a, b, out, bias, constant_weights, post);
}

absl::Status DnnlConv::RunShape(ConvPass pass, const ConvShape& g, const float* a, const float* b,
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
