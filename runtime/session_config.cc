#include "rill/runtime/session_config.h"

#include "rill/runtime/device.h"
#include "rill/runtime/optimize_options.h"
#include "rill/runtime/session.h"

namespace rill {

SessionOptions ApplyConfig(SessionOptions o) {
  const ConfigProto& c = o.config;
  if (c.has_allow_soft_placement()) o.allow_soft_placement = c.allow_soft_placement();
  if (c.has_log_device_placement()) o.log_device_placement = c.log_device_placement();
  // Negative: every kernel on the caller's thread (the Session makes no pool; session.cc).
  if (c.inter_op_parallelism_threads() > 0) {
    o.inter_op_threads = c.inter_op_parallelism_threads();
  }
  return o;
}

OptimizeOptions OptimizeOptionsOf(const SessionOptions& o) {
  OptimizeOptions out;
  if (!o.optimize_graph) {
    out.fold_constants = out.eliminate_common_subexpressions = out.simplify_arithmetic =
        out.optimize_loops = out.fuse = false;
    return out;
  }
  const OptimizerOptions& classic = o.config.graph_options().optimizer_options();
  const RewriterConfig& grappler = o.config.graph_options().rewrite_options();
  const bool l1 = classic.opt_level() != OptimizerOptions::L0;
  const bool meta = !grappler.disable_meta_optimizer();
  auto on = [&](RewriterConfig::Toggle t) { return meta && t != RewriterConfig::OFF; };
  out.fold_constants = l1 || classic.do_constant_folding() || on(grappler.constant_folding());
  out.simplify_arithmetic = on(grappler.arithmetic_optimization());
  out.eliminate_common_subexpressions = l1 || classic.do_common_subexpression_elimination() ||
                                        on(grappler.common_subgraph_elimination()) ||
                                        on(grappler.arithmetic_optimization());
  out.optimize_loops = on(grappler.loop_optimization());
  out.fuse = on(grappler.remapping());
  return out;
}

DeviceSet DevicesFor(const ConfigProto& config) {
  DeviceSet local = DeviceSet::Local();
  auto gpus = config.device_count().find(DEVICE_GPU);
  if (gpus == config.device_count().end()) return local;
  DeviceSet out;
  int kept = 0;
  for (const std::shared_ptr<Device>& d : local.devices()) {
    if (d->device_type() == DEVICE_GPU && kept++ >= gpus->second) continue;
    out.Add(d);
  }
  return out;
}

}  // namespace rill
