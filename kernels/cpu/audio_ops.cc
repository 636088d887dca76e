// CPU kernels of AudioSpectrogram and Mfcc: core/spectrogram.h's and core/mfcc.h's work,
// with the attrs read (and checked) once when the kernel is made.
#include "rill/core/mfcc.h"
#include "rill/core/spectrogram.h"

namespace rill::cpu {
namespace {

class AudioSpectrogramOp : public OpKernel {
 public:
  explicit AudioSpectrogramOp(OpKernelConstruction& c)
      : OpKernel(c), params_(SpectrogramAttrs(c.node().attrs())) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(params_.status());
    return ComputeSpectrogram(ctx, *params_);
  }

 private:
  const absl::StatusOr<SpectrogramParams> params_;
};

class MfccOp : public OpKernel {
 public:
  explicit MfccOp(OpKernelConstruction& c) : OpKernel(c), params_(MfccAttrs(c.node().attrs())) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(params_.status());
    return ComputeMfcc(ctx, *params_);
  }

 private:
  const absl::StatusOr<MfccParams> params_;
};

RILL_REGISTER_KERNEL("AudioSpectrogram", DEVICE_CPU, "", DT_INVALID, AudioSpectrogramOp);
RILL_REGISTER_KERNEL("Mfcc", DEVICE_CPU, "", DT_INVALID, MfccOp);

}  // namespace
}  // namespace rill::cpu
