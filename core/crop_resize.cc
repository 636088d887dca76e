#include "rill/core/crop_resize.h"

#include "rill/core/status.h"

namespace rill {
namespace {

absl::Status Check4D(const Tensor& t, const char* what) {
  if (t.dims() != 4) {
    return errors::InvalidArgument(what, " must be 4-D, got ", t.shape().DebugString());
  }
  return absl::OkStatus();
}

// boxes [n, 4] and box_ind [n], every index in [0, batch). TensorFlow's words first.
absl::StatusOr<int64_t> CheckBoxes(const Tensor& boxes, const Tensor& box_ind, int64_t batch) {
  if (boxes.dims() != 2 || boxes.dim_size(1) != 4) {
    return errors::InvalidArgument("boxes must be [num_boxes, 4], got ",
                                   boxes.shape().DebugString());
  }
  if (box_ind.dims() != 1 || box_ind.dim_size(0) != boxes.dim_size(0)) {
    return errors::InvalidArgument(
        "box_index has incompatible shape: box_ind must be [num_boxes] (", boxes.dim_size(0),
        "), got ", box_ind.shape().DebugString());
  }
  const int32_t* ind = box_ind.base<int32_t>();
  for (int64_t b = 0; b < box_ind.NumElements(); ++b) {
    if (ind[b] < 0 || ind[b] >= batch) {
      return errors::InvalidArgument("box_index has values outside [0, batch_size): box_ind[", b,
                                     "] = ", ind[b], " is not in [0, ", batch,
                                     ") (the image's batch)");
    }
  }
  return boxes.dim_size(0);
}

// A host int32 vector of `n` positive values.
absl::Status PositiveSizes(const Tensor& t, int64_t n, const char* what) {
  if (t.dims() != 1 || t.NumElements() != n) {
    return errors::InvalidArgument(what, " must be a ", n, "-element vector, got shape ",
                                   t.shape().DebugString());
  }
  for (int64_t i = 0; i < n; ++i) {
    if (t.base<int32_t>()[i] < 1) {
      return errors::InvalidArgument(what, " must be positive, got ", t.base<int32_t>()[i], " at ",
                                     i);
    }
  }
  return absl::OkStatus();
}

CropDims Dims(const OpKernelContext& ctx, int64_t batch, int64_t h, int64_t w, int64_t depth,
              int64_t boxes, int64_t crop_h, int64_t crop_w) {
  CropDims d;
  d.batch = batch;
  d.in_h = h;
  d.in_w = w;
  d.depth = depth;
  d.boxes = boxes;
  d.crop_h = crop_h;
  d.crop_w = crop_w;
  d.bilinear = ctx.node().attr<std::string>("method") == "bilinear";
  const auto& attrs = ctx.node().attrs();
  if (auto it = attrs.find("extrapolation_value"); it != attrs.end()) {
    d.extrapolation = std::get<float>(it->second);
  }
  return d;
}

}  // namespace

absl::StatusOr<CropDims> PrepareCropAndResize(OpKernelContext& ctx, Tensor** out) {
  const Tensor& image = ctx.input(0);
  RILL_RETURN_IF_ERROR(Check4D(image, "input image"));
  if (image.dim_size(1) < 1 || image.dim_size(2) < 1) {
    return errors::InvalidArgument("the image's height and width must be positive, got ",
                                   image.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(const int64_t n, CheckBoxes(ctx.input(1), ctx.input(2), image.dim_size(0)));
  RILL_RETURN_IF_ERROR(PositiveSizes(ctx.input(3), 2, "crop_size"));
  const int32_t* crop = ctx.input(3).base<int32_t>();
  RILL_RETURN_IF_ERROR(
      ctx.allocate_output(0, TensorShape({n, crop[0], crop[1], image.dim_size(3)}), out));
  return Dims(ctx, image.dim_size(0), image.dim_size(1), image.dim_size(2), image.dim_size(3), n,
              crop[0], crop[1]);
}

absl::StatusOr<CropDims> PrepareCropGradImage(OpKernelContext& ctx, Tensor** out) {
  const Tensor& grads = ctx.input(0);
  RILL_RETURN_IF_ERROR(Check4D(grads, "grads"));
  RILL_RETURN_IF_ERROR(PositiveSizes(ctx.input(3), 4, "image_size"));
  const int32_t* size = ctx.input(3).base<int32_t>();
  if (size[3] != grads.dim_size(3)) {
    return errors::InvalidArgument("image_size's depth ", size[3], " is not grads' ",
                                   grads.dim_size(3));
  }
  RILL_ASSIGN_OR_RETURN(const int64_t n, CheckBoxes(ctx.input(1), ctx.input(2), size[0]));
  if (grads.dim_size(0) != n) {
    return errors::InvalidArgument("grads ", grads.shape().DebugString(),
                                   " must have one crop per box (", n, ")");
  }
  RILL_RETURN_IF_ERROR(
      ctx.allocate_output(0, TensorShape({size[0], size[1], size[2], size[3]}), out));
  return Dims(ctx, size[0], size[1], size[2], size[3], n, grads.dim_size(1), grads.dim_size(2));
}

absl::StatusOr<CropDims> PrepareCropGradBoxes(OpKernelContext& ctx, Tensor** out) {
  const Tensor& grads = ctx.input(0);
  const Tensor& image = ctx.input(1);
  RILL_RETURN_IF_ERROR(Check4D(grads, "grads"));
  RILL_RETURN_IF_ERROR(Check4D(image, "image"));
  if (image.dim_size(1) < 1 || image.dim_size(2) < 1 || image.dim_size(3) != grads.dim_size(3)) {
    return errors::InvalidArgument("image ", image.shape().DebugString(),
                                   " must have a positive height and width and grads' depth (",
                                   grads.dim_size(3), ")");
  }
  RILL_ASSIGN_OR_RETURN(const int64_t n, CheckBoxes(ctx.input(2), ctx.input(3), image.dim_size(0)));
  if (grads.dim_size(0) != n) {
    return errors::InvalidArgument("grads ", grads.shape().DebugString(),
                                   " must have one crop per box (", n, ")");
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({n, 4}), out));
  return Dims(ctx, image.dim_size(0), image.dim_size(1), image.dim_size(2), image.dim_size(3), n,
              grads.dim_size(1), grads.dim_size(2));
}

}  // namespace rill
