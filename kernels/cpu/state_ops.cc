// CPU kernels that move values rather than compute: Const, Placeholder, Identity, Snapshot, NoOp,
// and the variable ops.
#include <cstring>

#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

class ConstOp : public OpKernel {
 public:
  explicit ConstOp(OpKernelConstruction& c) : OpKernel(c), value_(*c.node().constant_value()) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    ctx.set_output(0, value_);  // shared, never copied: constants are immutable
    return absl::OkStatus();
  }

 private:
  Tensor value_;
};

class PlaceholderOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) override {
    // Unreachable through Session (pruning reports unfed placeholders first); kept so a
    // placeholder is placeable and a direct call still gets a clear message.
    return errors::InvalidArgument("You must feed a value for placeholder tensor '", node().name(),
                                   "'");
  }
};

class IdentityOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }
};

class IdentityNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    for (int i = 0; i < ctx.num_inputs(); ++i) ctx.set_output(i, ctx.input(i));
    return absl::OkStatus();
  }
};

// Snapshot: the input's bytes in a new buffer.
class SnapshotOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    if (x.TotalBytes() > 0) std::memcpy(out->data(), x.data(), x.TotalBytes());
    return absl::OkStatus();
  }
};

// Reads only the shape, so the same kernel serves every device (the tensor passes through
// wherever it lives).
class EnsureShapeOp : public OpKernel {
 public:
  explicit EnsureShapeOp(OpKernelConstruction& c)
      : OpKernel(c), want_(c.node().attr<PartialTensorShape>("shape")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    if (!want_.IsCompatibleWith(ctx.input(0).shape())) {
      return errors::InvalidArgument(node().DebugName(), " on ", ctx.device()->name(),
                                     ": the value's shape ", ctx.input(0).shape().DebugString(),
                                     " does not fit the shape ", want_.DebugString());
    }
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }

 private:
  PartialTensorShape want_;
};

class NoOpOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) override { return absl::OkStatus(); }
};

// Does nothing at run time: consumers read the variable when they run (see
// runtime/plan.cc), and updates reach it through their reference input.
class VariableOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) override { return absl::OkStatus(); }
};

// Reads only the variable's state, never its value: a host-memory kernel on every device.
class IsVariableInitializedOp : public OpKernel {
 public:
  explicit IsVariableInitializedOp(OpKernelConstruction& c) : OpKernel(c) {
    const Node& v = *c.node().input(0).node;
    var_ = c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0));
  }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape(), &out));
    std::lock_guard<std::mutex> lock(var_->mu());
    *out->base<bool>() = var_->initialized();
    return absl::OkStatus();
  }

 private:
  Var* var_;
};

enum class AssignMode { kSet, kAdd, kSub };

template <typename T, AssignMode kMode>
class AssignOp : public OpKernel {
 public:
  explicit AssignOp(OpKernelConstruction& c) : OpKernel(c) {
    const Node& v = *c.node().input(0).node;
    var_ = c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0));
    validate_shape_ = kMode != AssignMode::kSet || c.node().attr<bool>("validate_shape");
  }

  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& value = ctx.input(1);
    std::lock_guard<std::mutex> lock(var_->mu());
    if (validate_shape_ && !var_->shape().IsCompatibleWith(value.shape())) {
      return errors::InvalidArgument("cannot assign a value of shape ", value.shape().DebugString(),
                                     " to variable '", var_->name(), "' of shape ",
                                     var_->shape().DebugString());
    }
    Tensor& cur = var_->value();
    if constexpr (kMode == AssignMode::kSet) {
      // Copy: the variable must never share a buffer with a value it did not create.
      if (cur.IsInitialized() && cur.RefCountIsOne() && cur.shape() == value.shape()) {
        std::memcpy(cur.data(), value.data(), value.TotalBytes());
      } else {
        RILL_ASSIGN_OR_RETURN(
            Tensor fresh, Tensor::Create(value.dtype(), value.shape(), ctx.device()->allocator()));
        std::memcpy(fresh.data(), value.data(), value.TotalBytes());
        cur = std::move(fresh);
      }
    } else {
      if (!cur.IsInitialized()) {
        return errors::FailedPrecondition("Attempting to use uninitialized value ", var_->name());
      }
      if (cur.shape() != value.shape()) {
        return errors::InvalidArgument("variable '", var_->name(), "' has shape ",
                                       cur.shape().DebugString(), " but the update has shape ",
                                       value.shape().DebugString());
      }
      if (!cur.RefCountIsOne()) {  // a reader holds the old value: update a copy
        RILL_ASSIGN_OR_RETURN(Tensor copy,
                              Tensor::Create(cur.dtype(), cur.shape(), ctx.device()->allocator()));
        std::memcpy(copy.data(), cur.data(), cur.TotalBytes());
        cur = std::move(copy);
      }
      if constexpr (kMode == AssignMode::kAdd) {
        AsArray<T>(&cur) += AsArray<T>(value);
      } else {
        AsArray<T>(&cur) -= AsArray<T>(value);
      }
    }
    ctx.set_output(0, cur);
    return absl::OkStatus();
  }

 private:
  Var* var_;
  bool validate_shape_;
};

RILL_REGISTER_KERNEL("Const", DEVICE_CPU, "", DT_INVALID, ConstOp);
// An int32 constant placed on the GPU stays in host memory (TensorFlow's HostConst): it
// is a shape or an axis, read on the host.
RILL_REGISTER_KERNEL_HOST_OUTPUTS("Const", DEVICE_GPU, "dtype", DT_INT32, {}, ConstOp);
RILL_REGISTER_KERNEL("Placeholder", DEVICE_CPU, "", DT_INVALID, PlaceholderOp);
RILL_REGISTER_KERNEL("Identity", DEVICE_CPU, "", DT_INVALID, IdentityOp);
RILL_REGISTER_KERNEL("IdentityN", DEVICE_CPU, "", DT_INVALID, IdentityNOp);
RILL_REGISTER_KERNEL("Snapshot", DEVICE_CPU, "", DT_INVALID, SnapshotOp);
RILL_REGISTER_KERNEL("GuaranteeConst", DEVICE_CPU, "", DT_INVALID, IdentityOp);
RILL_REGISTER_KERNEL("EnsureShape", DEVICE_CPU, "", DT_INVALID, EnsureShapeOp);
RILL_REGISTER_KERNEL("EnsureShape", DEVICE_GPU, "", DT_INVALID, EnsureShapeOp);
RILL_REGISTER_KERNEL("NoOp", DEVICE_CPU, "", DT_INVALID, NoOpOp);
RILL_REGISTER_KERNEL("Variable", DEVICE_CPU, "", DT_INVALID, VariableOp);
RILL_REGISTER_KERNEL("IsVariableInitialized", DEVICE_CPU, "", DT_INVALID, IsVariableInitializedOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("IsVariableInitialized", DEVICE_GPU, "", DT_INVALID, {},
                                  IsVariableInitializedOp);
#define RILL_REG_ASSIGN(T, unused)                                          \
  RILL_REGISTER_KERNEL("Assign", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       AssignOp<T, AssignMode::kSet>);
#define RILL_REG_ASSIGN_UPDATE(T, unused)                                      \
  RILL_REGISTER_KERNEL("AssignAdd", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       AssignOp<T, AssignMode::kAdd>);                         \
  RILL_REGISTER_KERNEL("AssignSub", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       AssignOp<T, AssignMode::kSub>);
RILL_FOR_ALL_TYPES(RILL_REG_ASSIGN, 0)
RILL_FOR_NUMBER_TYPES(RILL_REG_ASSIGN_UPDATE, 0)

}  // namespace
}  // namespace rill::cpu
