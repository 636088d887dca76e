#include "rill/kernels/cpu/dnnl_conv.h"

#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "rill/core/tensor.h"

namespace rill::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

dnnl::engine& Engine() {
  static auto* e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

int64_t PadBottom(const Conv2DGeometry& g) {
  return (g.out_h - 1) * g.stride_h + g.k_h - g.in_h - g.pad_top;
}
int64_t PadRight(const Conv2DGeometry& g) {
  return (g.out_w - 1) * g.stride_w + g.k_w - g.in_w - g.pad_left;
}

using Key = std::tuple<int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t>;

Key KeyOf(ConvPass pass, const Conv2DGeometry& g) {
  return {static_cast<int>(pass),
          g.batch,
          g.in_h,
          g.in_w,
          g.in_c,
          g.k_h,
          g.k_w,
          g.out_c,
          g.stride_h,
          g.stride_w};
}

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

// One pass's primitive, its operands (two inputs, then the output) and scratchpad.
struct Prepared {
  dnnl::primitive prim;
  Operand a, b, out;
  memory::desc scratch;
};

Prepared Make(ConvPass pass, const Conv2DGeometry& g) {
  const memory::dims src{g.batch, g.in_c, g.in_h, g.in_w};
  const memory::dims wei{g.out_c, g.in_c, g.k_h, g.k_w};
  const memory::dims dst{g.batch, g.out_c, g.out_h, g.out_w};
  const memory::dims strides{g.stride_h, g.stride_w};
  const memory::dims pad_l{g.pad_top, g.pad_left}, pad_r{PadBottom(g), PadRight(g)};
  const auto f32 = memory::data_type::f32;
  const memory::desc src_md(src, f32, Tag::nhwc), wei_md(wei, f32, Tag::hwio),
      dst_md(dst, f32, Tag::nhwc);
  const memory::desc src_any(src, f32, Tag::any), wei_any(wei, f32, Tag::any),
      dst_any(dst, f32, Tag::any);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const auto algo = dnnl::algorithm::convolution_direct;
  dnnl::convolution_forward::primitive_desc fwd(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, algo, src_any, wei_any,
                                      dst_any, strides, pad_l, pad_r),
      attr, Engine());
  switch (pass) {
    case ConvPass::kForward:
      return {dnnl::convolution_forward(fwd),
              MakeOperand(DNNL_ARG_SRC, src_md, fwd.src_desc(), true),
              MakeOperand(DNNL_ARG_WEIGHTS, wei_md, fwd.weights_desc(), true),
              MakeOperand(DNNL_ARG_DST, dst_md, fwd.dst_desc(), false), fwd.scratchpad_desc()};
    case ConvPass::kBackwardData: {
      dnnl::convolution_backward_data::primitive_desc pd(
          dnnl::convolution_backward_data::desc(algo, src_any, wei_any, dst_any, strides, pad_l,
                                                pad_r),
          attr, Engine(), fwd);
      return {dnnl::convolution_backward_data(pd),
              MakeOperand(DNNL_ARG_WEIGHTS, wei_md, pd.weights_desc(), true),
              MakeOperand(DNNL_ARG_DIFF_DST, dst_md, pd.diff_dst_desc(), true),
              MakeOperand(DNNL_ARG_DIFF_SRC, src_md, pd.diff_src_desc(), false),
              pd.scratchpad_desc()};
    }
    case ConvPass::kBackwardWeights: {
      dnnl::convolution_backward_weights::primitive_desc pd(
          dnnl::convolution_backward_weights::desc(algo, src_any, wei_any, dst_any, strides, pad_l,
                                                   pad_r),
          attr, Engine(), fwd);
      return {dnnl::convolution_backward_weights(pd),
              MakeOperand(DNNL_ARG_SRC, src_md, pd.src_desc(), true),
              MakeOperand(DNNL_ARG_DIFF_DST, dst_md, pd.diff_dst_desc(), true),
              MakeOperand(DNNL_ARG_DIFF_WEIGHTS, wei_md, pd.diff_weights_desc(), false),
              pd.scratchpad_desc()};
    }
  }
  return {};
}

// A buffer from rill's allocator for a primitive-side tensor or the scratchpad.
absl::StatusOr<Tensor> Buffer(const memory::desc& md) {
  return Tensor::Create(DT_UINT8, TensorShape({static_cast<int64_t>(md.get_size())}));
}

}  // namespace

struct DnnlConv::Impl {
  std::mutex mu;
  std::map<Key, std::shared_ptr<const Prepared>> cache;
};

DnnlConv::DnnlConv() : impl_(std::make_unique<Impl>()) {}
DnnlConv::~DnnlConv() = default;

bool DnnlConv::Supports(const Conv2DGeometry& g) {
  // oneDNN's descriptors refuse sizes past int32 in places (a stride of 2^31 fails to make
  // a primitive); such geometries take the im2col path, which handles any size.
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  for (int64_t v : {g.batch, g.in_h, g.in_w, g.in_c, g.k_h, g.k_w, g.out_c, g.stride_h, g.stride_w,
                    g.out_h, g.out_w, g.pad_top, g.pad_left}) {
    if (v > kMax) return false;
  }
  return g.batch > 0 && g.in_c > 0 && g.out_c > 0 && g.out_h > 0 && g.out_w > 0 &&
         PadBottom(g) >= 0 && PadRight(g) >= 0 && PadBottom(g) <= kMax && PadRight(g) <= kMax;
}

absl::Status DnnlConv::Run(ConvPass pass, const Conv2DGeometry& g, const float* a, const float* b,
                           float* out) {
  try {
    std::shared_ptr<const Prepared> p;
    {
      std::lock_guard<std::mutex> lock(impl_->mu);
      auto& slot = impl_->cache[KeyOf(pass, g)];
      if (!slot) {
        try {
          slot = std::make_shared<const Prepared>(Make(pass, g));
        } catch (const dnnl::error& e) {
          impl_->cache.erase(KeyOf(pass, g));
          return errors::Unimplemented("oneDNN has no convolution for this geometry: ", e.what());
        }
      }
      p = slot;
    }
    dnnl::stream stream(Engine());
    std::unordered_map<int, memory> args;
    std::vector<Tensor> buffers;  // alive until the stream is done
    auto bind = [&](const Operand& o, const float* user) -> absl::Status {
      memory user_mem(o.user, Engine(), const_cast<float*>(user));
      if (!o.reorder) {
        args.emplace(o.arg, user_mem);
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(Tensor t, Buffer(o.prim));
      memory prim_mem(o.prim, Engine(), t.data());
      buffers.push_back(std::move(t));
      if (o.arg != p->out.arg) o.reorder->execute(stream, user_mem, prim_mem);
      args.emplace(o.arg, prim_mem);
      return absl::OkStatus();
    };
    RILL_RETURN_IF_ERROR(bind(p->a, a));
    RILL_RETURN_IF_ERROR(bind(p->b, b));
    RILL_RETURN_IF_ERROR(bind(p->out, out));
    // Each execution its own scratchpad, so runs of one kernel may overlap.
    if (p->scratch.get_size() > 0) {
      RILL_ASSIGN_OR_RETURN(Tensor t, Buffer(p->scratch));
      args.emplace(DNNL_ARG_SCRATCHPAD, memory(p->scratch, Engine(), t.data()));
      buffers.push_back(std::move(t));
    }
    p->prim.execute(stream, args);
    if (p->out.reorder) {
      memory user_out(p->out.user, Engine(), out);
      p->out.reorder->execute(stream, args.at(p->out.arg), user_out);
    }
    stream.wait();
  } catch (const dnnl::error& e) {
    return errors::Internal("oneDNN convolution failed: ", e.what(), " (status ", e.status, ")");
  }
  return absl::OkStatus();
}

}  // namespace rill::cpu
