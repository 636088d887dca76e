// rill: a TensorFlow-style dataflow-graph library. One include for the whole public API.
//   #include <rill/rill.h>
//   using namespace rill;
#pragma once

#include "rill/core/tensor.h"
#include "rill/core/types.h"
#include "rill/ops/activation_ops.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/conv_ops.h"
#include "rill/ops/fused_ops.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"
#include "rill/ops/optimizers.h"
#include "rill/ops/random_ops.h"
#include "rill/ops/scope.h"
#include "rill/ops/state_ops.h"
#include "rill/ops/training_ops.h"
#include "rill/runtime/gradient_checker.h"
#include "rill/runtime/io/graph_dot.h"
#include "rill/runtime/io/graph_io.h"
#include "rill/runtime/io/trace.h"
#include "rill/runtime/keras/backend.h"
#include "rill/runtime/keras/layers.h"
#include "rill/runtime/keras/model.h"
#include "rill/runtime/saver.h"
#include "rill/runtime/session.h"
