#include "rill/runtime/copy.h"

#include "absl/strings/str_replace.h"
#include "rill/core/shape_inference.h"

namespace rill {

// Internal: created by the plan builder only, never by users (hence the leading '_').
RILL_REGISTER_OP("_Copy")
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("shape", AttrKind::kShape)
    .Attr("src_device", AttrKind::kString)
    .Attr("dst_device", AttrKind::kString)
    .SetShapeFn([](InferenceContext& c) {
      c.set_output(0, c.attr<PartialTensorShape>("shape"));
      return absl::OkStatus();
    });

absl::Status CopyBetweenDevices(const Tensor& src, DeviceBase* src_device, DeviceBase* dst_device,
                                Tensor* dst) {
  if (src_device == dst_device) {
    *dst = src;
    return absl::OkStatus();
  }
  Tensor host;
  if (src_device->IsHost()) {
    host = src;
  } else {
    RILL_RETURN_IF_ERROR(src_device->CopyToHost(src, &host));
  }
  if (dst_device->IsHost()) {
    *dst = std::move(host);
    return absl::OkStatus();
  }
  return dst_device->CopyFromHost(host, dst);
}

absl::StatusOr<Node*> AddCopyNode(Graph* graph, const std::string& value_name, DataType dtype,
                                  const PartialTensorShape& shape, const Device& src,
                                  const Device& dst) {
  NodeSpec spec;
  spec.name = absl::StrCat("_copy/", absl::StrReplaceAll(value_name, {{":", "_"}}), "/to_",
                           dst.device_type(), "_", dst.id());
  spec.op = "_Copy";
  spec.attrs = {
      {"T", dtype}, {"shape", shape}, {"src_device", src.name()}, {"dst_device", dst.name()}};
  spec.device = dst.name();
  return graph->AddNode(std::move(spec));
}

namespace {
class CopyKernel : public OpKernel {
 public:
  CopyKernel(OpKernelConstruction& c, Device* src, Device* dst, bool until_sync)
      : OpKernel(c), src_(src), dst_(dst), until_sync_(until_sync) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor out;
    if (until_sync_ && dst_->IsHost() && !src_->IsHost()) {
      RILL_RETURN_IF_ERROR(src_->CopyToHostAsync(ctx.input(0), &out));
    } else {
      RILL_RETURN_IF_ERROR(CopyBetweenDevices(ctx.input(0), src_, dst_, &out));
    }
    ctx.set_output(0, std::move(out));
    return absl::OkStatus();
  }

 private:
  Device* src_;
  Device* dst_;
  bool until_sync_;
};
}  // namespace

std::unique_ptr<OpKernel> MakeCopyKernel(const Node& copy_node, Device* src, Device* dst,
                                         ResourceMgr* resources, bool until_sync) {
  OpKernelConstruction c(copy_node, dst, resources);
  return std::make_unique<CopyKernel>(c, src, dst, until_sync);
}

}  // namespace rill
