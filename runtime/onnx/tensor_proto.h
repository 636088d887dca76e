// Internal: ONNX TensorProto <-> Tensor. Every size is checked against the data the proto
// holds, so a hostile file can neither make rill allocate more than it carries nor read
// past it.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"
#include "rill/core/tensor.h"

namespace rill::onnx::internal {

// `what` names the tensor in messages ("initializer 'w'").
absl::StatusOr<Tensor> TensorFromProto(const ::onnx::TensorProto& p, const std::string& what);
// InvalidArgument for a dtype ONNX cannot hold.
absl::Status TensorToProto(const Tensor& t, ::onnx::TensorProto* p);

}  // namespace rill::onnx::internal
