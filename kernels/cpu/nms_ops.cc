// The NonMaxSuppression ops on the CPU: the inputs checked as the shape function checks
// them (for fed values), core/non_max_suppression.h's selection, the outputs (padded with
// zeros to max_output_size when asked).
#include <algorithm>
#include <string>

#include "rill/core/combined_nms.h"
#include "rill/core/non_max_suppression.h"

namespace rill {
namespace {

absl::StatusOr<float> Scalar(const Tensor& t, const char* what) {
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, is ", t.shape().DebugString());
  }
  return t.scalar<float>()();  // the thresholds are float (the op's T_threshold)
}

class NmsOp : public OpKernel {
 public:
  explicit NmsOp(OpKernelConstruction& c)
      : OpKernel(c),
        version_(VersionOf(c.node().type_string())),
        iou_attr_(version_ == 1 ? c.node().attr<float>("iou_threshold") : 0.f),
        pad_(version_ >= 4 && c.node().attr<bool>("pad_to_max_output_size")) {}

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &boxes = ctx.input(0), &scores = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckNmsShapes(boxes.shape(), scores.shape()));
    if (ctx.input(2).dims() != 0) {
      return errors::InvalidArgument("max_output_size must be a scalar, is ",
                                     ctx.input(2).shape().DebugString());
    }
    NmsOptions o;
    o.max_output = ctx.input(2).scalar<int32_t>()();
    if (version_ == 1) {
      o.iou_threshold = iou_attr_;
    } else {
      RILL_ASSIGN_OR_RETURN(o.iou_threshold, Scalar(ctx.input(3), "iou_threshold"));
    }
    if (version_ >= 3) {
      RILL_ASSIGN_OR_RETURN(o.score_threshold, Scalar(ctx.input(4), "score_threshold"));
    }
    if (version_ == 5) {
      RILL_ASSIGN_OR_RETURN(o.soft_nms_sigma, Scalar(ctx.input(5), "soft_nms_sigma"));
    }
    RILL_RETURN_IF_ERROR(CheckNmsOptions(o));
    NmsOverlap overlap{.boxes = boxes.base<float>(), .n = boxes.dim_size(0)};
    NmsResult r = NonMaxSuppression(overlap, scores.base<float>(), o);
    // Padding is written into the output, never into a vector sized by max_output_size
    // (a hostile 2^31 - 1 is then the allocator's ResourceExhausted, not an abort).
    const int64_t valid = static_cast<int64_t>(r.indices.size());
    const TensorShape shape({pad_ ? std::max<int64_t>(o.max_output, valid) : valid});
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    std::fill(std::copy(r.indices.begin(), r.indices.end(), out->base<int32_t>()),
              out->base<int32_t>() + shape.num_elements(), 0);
    if (version_ == 5) {
      RILL_RETURN_IF_ERROR(ctx.allocate_output(1, shape, &out));
      std::fill(std::copy(r.scores.begin(), r.scores.end(), out->base<float>()),
                out->base<float>() + shape.num_elements(), 0.f);
    }
    if (version_ >= 4) {
      RILL_RETURN_IF_ERROR(ctx.allocate_output(version_ == 5 ? 2 : 1, TensorShape({}), &out));
      out->scalar<int32_t>()() = static_cast<int32_t>(valid);
    }
    return absl::OkStatus();
  }

 private:
  static int VersionOf(const std::string& op) {
    return op == "NonMaxSuppression" ? 1 : op.back() - '0';
  }
  const int version_;
  const float iou_attr_;
  const bool pad_;
};

// NonMaxSuppressionWithOverlaps: the overlaps given as a matrix; any threshold.
class NmsOverlapsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &overlaps = ctx.input(0), &scores = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckOverlapShapes(overlaps.shape(), scores.shape()));
    if (ctx.input(2).dims() != 0) {
      return errors::InvalidArgument("max_output_size must be a scalar, is ",
                                     ctx.input(2).shape().DebugString());
    }
    NmsOptions o;
    o.max_output = ctx.input(2).scalar<int32_t>()();
    RILL_ASSIGN_OR_RETURN(o.iou_threshold, Scalar(ctx.input(3), "overlap_threshold"));
    RILL_ASSIGN_OR_RETURN(o.score_threshold, Scalar(ctx.input(4), "score_threshold"));
    if (o.max_output < 0) {
      return errors::InvalidArgument("max_output_size must be non-negative, is ", o.max_output);
    }
    NmsOverlap overlap{.overlaps = overlaps.base<float>(), .n = overlaps.dim_size(0)};
    const NmsResult r = NonMaxSuppression(overlap, scores.base<float>(), o);
    Tensor* out;
    RILL_RETURN_IF_ERROR(
        ctx.allocate_output(0, TensorShape({static_cast<int64_t>(r.indices.size())}), &out));
    std::copy(r.indices.begin(), r.indices.end(), out->base<int32_t>());
    return absl::OkStatus();
  }
};

// CombinedNonMaxSuppression: its scalars read and checked, then core/combined_nms.h.
class CombinedNmsOp : public OpKernel {
 public:
  explicit CombinedNmsOp(OpKernelConstruction& c)
      : OpKernel(c),
        pad_per_class_(c.node().attr<bool>("pad_per_class")),
        clip_boxes_(c.node().attr<bool>("clip_boxes")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    CombinedNmsOptions o;
    for (int i : {2, 3}) {
      if (ctx.input(i).dims() != 0) {
        return errors::InvalidArgument(i == 2 ? "max_output_size_per_class" : "max_total_size",
                                       " must be a scalar, is ",
                                       ctx.input(i).shape().DebugString());
      }
    }
    o.per_class = ctx.input(2).scalar<int32_t>()();
    o.total = ctx.input(3).scalar<int32_t>()();
    RILL_ASSIGN_OR_RETURN(o.iou_threshold, Scalar(ctx.input(4), "iou_threshold"));
    RILL_ASSIGN_OR_RETURN(o.score_threshold, Scalar(ctx.input(5), "score_threshold"));
    o.pad_per_class = pad_per_class_;
    o.clip_boxes = clip_boxes_;
    return CombinedNms(ctx, o);
  }

 private:
  const bool pad_per_class_, clip_boxes_;
};

RILL_REGISTER_KERNEL("CombinedNonMaxSuppression", DEVICE_CPU, "", DT_INVALID, CombinedNmsOp);
RILL_REGISTER_KERNEL("NonMaxSuppressionWithOverlaps", DEVICE_CPU, "", DT_INVALID, NmsOverlapsOp);
RILL_REGISTER_KERNEL("NonMaxSuppression", DEVICE_CPU, "", DT_INVALID, NmsOp);
RILL_REGISTER_KERNEL("NonMaxSuppressionV2", DEVICE_CPU, "T", DT_FLOAT, NmsOp);
RILL_REGISTER_KERNEL("NonMaxSuppressionV3", DEVICE_CPU, "T", DT_FLOAT, NmsOp);
RILL_REGISTER_KERNEL("NonMaxSuppressionV4", DEVICE_CPU, "T", DT_FLOAT, NmsOp);
RILL_REGISTER_KERNEL("NonMaxSuppressionV5", DEVICE_CPU, "T", DT_FLOAT, NmsOp);

}  // namespace
}  // namespace rill
