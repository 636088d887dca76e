// The kernels' argument checks of CropAndResize, CropAndResizeGradImage and
// CropAndResizeGradBoxes, shared by the CPU and GPU kernels (elements in
// core/crop_resize_row.h). box_ind and the sizes are host inputs: every box index is
// checked against the batch before anything reads the image.
#pragma once

#include "rill/core/crop_resize_row.h"
#include "rill/core/kernel.h"

namespace rill {

// CropAndResize(image, boxes, box_ind (host), crop_size (host)): the float output allocated.
absl::StatusOr<CropDims> PrepareCropAndResize(OpKernelContext& ctx, Tensor** out);
// CropAndResizeGradImage(grads, boxes, box_ind (host), image_size (host)): the image's
// gradient allocated (not zeroed).
absl::StatusOr<CropDims> PrepareCropGradImage(OpKernelContext& ctx, Tensor** out);
// CropAndResizeGradBoxes(grads, image, boxes, box_ind (host)): [boxes, 4] float allocated.
absl::StatusOr<CropDims> PrepareCropGradBoxes(OpKernelContext& ctx, Tensor** out);

}  // namespace rill
