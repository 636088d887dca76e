#include "support/op_tester.h"

#include <map>

#include "absl/strings/str_cat.h"

namespace rill::testing {
namespace {

std::map<std::string, std::function<std::vector<OpCase>()>>& Makers() {
  static auto* m = new std::map<std::string, std::function<std::vector<OpCase>()>>();
  return *m;
}

Tensor Widened(const Tensor& t) {
  if (t.dtype() != DT_FLOAT) return t;
  return FromDoubles(DT_DOUBLE, t.shape(), ToDoubles(t));
}

struct Built {
  Scope scope = Scope::NewRootScope();
  Session::FeedType feeds;
  Output out;
};

// The case's graph over placeholders for `inputs`; the output's node on `device` if given.
void Build(const OpCase& c, const std::vector<Tensor>& inputs, const std::string& device,
           Built* b) {
  std::vector<Output> ph;
  for (const Tensor& t : inputs) {
    auto p = ops::Placeholder(b->scope, t.dtype());
    ph.push_back(p);
    b->feeds.emplace(p.output, Input::Initializer(t));
  }
  b->out = c.build(device.empty() ? b->scope : b->scope.WithDevice(device), ph);
}

absl::StatusOr<Tensor> RunOn(const OpCase& c, const std::vector<Tensor>& inputs,
                             const std::string& device) {
  Built b;
  Build(c, inputs, device, &b);
  if (!b.scope.ok()) return b.scope.status();
  SessionOptions options;
  options.allow_soft_placement = device.empty();
  std::unique_ptr<Session> session = device.empty()
                                         ? std::make_unique<Session>(b.scope, options, CpuOnly())
                                         : std::make_unique<Session>(b.scope, options);
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session->Run(b.feeds, {b.out}, &out));
  if (!device.empty()) {
    absl::StatusOr<std::string> placed = session->AssignedDevice(b.out.op());
    if (!placed.ok() || placed->find("GPU:0") == std::string::npos) {
      return errors::Internal("the output's node ran on ", placed.ok() ? *placed : "?");
    }
  }
  return out[0];
}

}  // namespace

bool HasGpuKernel(const OpCase& c) {
  Built b;
  Build(c, c.inputs, "", &b);
  return b.scope.ok() && b.out.node() != nullptr &&
         KernelRegistry::Global()->Find(*b.out.node(), DEVICE_GPU) != nullptr;
}

OpCaseRegistration::OpCaseRegistration(const char* group,
                                       std::function<std::vector<OpCase>()> make) {
  Makers().emplace(group, std::move(make));
}

std::vector<std::string> OpCaseGroups() {
  std::vector<std::string> groups;
  for (const auto& [group, make] : Makers()) groups.push_back(group);
  return groups;
}

std::vector<OpCase> OpCasesOf(const std::string& group) {
  auto it = Makers().find(group);
  return it == Makers().end() ? std::vector<OpCase>{} : it->second();
}

std::vector<OpCase> AllOpCases() {
  std::vector<OpCase> all;
  for (const auto& [group, make] : Makers()) {
    for (OpCase& c : make()) all.push_back(std::move(c));
  }
  return all;
}

std::set<std::string> OpsOf(const OpCase& c) {
  Built b;
  Build(c, c.inputs, "", &b);
  std::set<std::string> ops;
  const Graph& g = *b.scope.graph();
  for (int id = 0; id < g.num_nodes(); ++id) ops.insert(g.node(id)->type_string());
  ops.erase("Placeholder");
  return ops;
}

namespace {

void ExpectOpCaseOn(const OpCase& c, const std::vector<std::string>& devices) {
  SCOPED_TRACE(c.name);
  std::vector<Tensor> ref_inputs = c.inputs;
  if (c.float64_reference) {
    for (Tensor& t : ref_inputs) t = Widened(t);
  }
  absl::StatusOr<Tensor> ref = RunOn(c, ref_inputs, "");
  ASSERT_TRUE(ref.ok()) << "the reference run failed: " << ref.status();
  const std::vector<double> want = ToDoubles(*ref);
  for (const std::string& d : devices) {
    SCOPED_TRACE(d);
    absl::StatusOr<Tensor> got = RunOn(c, c.inputs, d == "/CPU:0" ? "" : d);
    ASSERT_TRUE(got.ok()) << got.status();
    const double tol = !c.float64_reference ? c.rtol : got->dtype() == DT_DOUBLE ? 1e-9 : c.rtol;
    // The reference's dtype is the widened one: compare the device's own dtype and shape.
    ExpectTensorNear(*got, got->dtype(), ref->shape(), want, tol);
    if (c.float64_reference && ref->dtype() == DT_DOUBLE) {
      EXPECT_TRUE(got->dtype() == DT_DOUBLE || got->dtype() == DT_FLOAT)
          << DataTypeString(got->dtype());
    } else {
      EXPECT_EQ(got->dtype(), ref->dtype());
    }
  }
}

}  // namespace

bool ExpectOpCase(const OpCase& c) {
  std::vector<std::string> devices = {"/CPU:0"};
  // An op with no GPU kernel (the placer would refuse it there) is tested on the CPU alone.
  if (HaveGpu() && HasGpuKernel(c)) devices.push_back("/GPU:0");
  ExpectOpCaseOn(c, devices);
  return devices.size() > 1;
}

}  // namespace rill::testing
