#include "rill/runtime/dist/collectives.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "rill/core/status.h"
#include "rill/runtime/dist/node_segment.h"

namespace rill::dist {
namespace {

// What each rank states before a collective, exchanged as plain bytes.
struct Statement {
  int32_t kind;
  int32_t dtype;
  int64_t root;
  int64_t rows;
  int64_t variant;
  int64_t segment;  // not compared: picks a replica update's way
  int32_t ndims;
  int32_t shown;  // dims recorded in `dims`
  int64_t dims[8];
  uint64_t shape_hash;  // every dim
  uint64_t rest_hash;   // every dim but the first (allgathers agree only on those)
  char node[64];
  // Where the data is (not compared: it picks the path, see Start).
  int32_t nccl_able;
  int32_t gpu;
  uint64_t host;
};

// FNV-1a over dims: the same on every rank (absl's hashes are seeded per process).
uint64_t HashDims(absl::Span<const int64_t> dims) {
  uint64_t h = 1469598103934665603ull;
  for (int64_t d : dims) {
    for (int b = 0; b < 8; ++b) {
      h ^= static_cast<uint64_t>(d >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  return h ^ dims.size();
}

const char* KindName(int32_t k) {
  switch (static_cast<CollectiveKind>(k)) {
    case CollectiveKind::kAllReduce:
      return "CollectiveAllReduce";
    case CollectiveKind::kBroadcast:
      return "CollectiveBroadcast";
    case CollectiveKind::kAllGather:
      return "CollectiveAllGather";
    case CollectiveKind::kBroadcastGrad:
      return "_CollectiveBroadcastGrad";
    case CollectiveKind::kAllGatherGrad:
      return "_CollectiveAllGatherGrad";
    case CollectiveKind::kReplicaUpdate:
      return "_MatMulAllReduceApplyGradientDescent";
  }
  return "an unknown collective";
}

Statement State(const CollectiveSpec& spec, const NcclReach& reach) {
  Statement s;
  std::memset(&s, 0, sizeof(s));
  s.kind = static_cast<int32_t>(spec.kind);
  s.dtype = spec.dtype;
  s.root = spec.root;
  s.rows = spec.rows;
  s.variant = spec.variant;
  s.segment = spec.segment;
  s.ndims = spec.shape.dims();
  s.shown = std::min(s.ndims, 8);
  for (int d = 0; d < s.shown; ++d) s.dims[d] = spec.shape.dim_size(d);
  absl::Span<const int64_t> dims = spec.shape.dim_sizes();
  s.shape_hash = HashDims(dims);
  s.rest_hash = dims.empty() ? 0 : HashDims(dims.subspan(1));
  std::strncpy(s.node, spec.node.c_str(), sizeof(s.node) - 1);
  s.nccl_able = reach.able;
  s.gpu = reach.gpu;
  s.host = reach.node;
  return s;
}

std::string Describe(const Statement& s, int rank) {
  std::string dims;
  for (int d = 0; d < s.shown; ++d) absl::StrAppend(&dims, d ? "," : "", s.dims[d]);
  if (s.shown < s.ndims) absl::StrAppend(&dims, ",...");
  return absl::StrCat("rank ", rank, " runs ", KindName(s.kind), " '", s.node, "' on ",
                      DataTypeString(static_cast<DataType>(s.dtype)), " [", dims, "]",
                      s.variant != 0 ? absl::StrCat(" (way ", s.variant, ")") : "");
}

// Every rank's statement; an error (the same on every rank) when they disagree.
absl::StatusOr<std::vector<Statement>> Agree(Comm& comm, const CollectiveSpec& spec,
                                             const NcclReach& reach) {
  const Statement mine = State(spec, reach);
  std::vector<Statement> all(comm.size());
  RILL_RETURN_IF_ERROR(comm.AllGather(&mine, sizeof(mine), all.data()));
  const bool gather = spec.kind == CollectiveKind::kAllGather;
  for (int r = 1; r < comm.size(); ++r) {
    const Statement &a = all[0], &b = all[r];
    const bool same = a.kind == b.kind && std::strncmp(a.node, b.node, sizeof(a.node)) == 0 &&
                      a.dtype == b.dtype && a.root == b.root && a.variant == b.variant &&
                      a.ndims == b.ndims &&
                      (gather ? a.rest_hash == b.rest_hash : a.shape_hash == b.shape_hash);
    if (!same) {
      return errors::InvalidArgument(
          "the ranks disagree on this collective (every rank must run the same graph; ",
          gather ? "an allgather's inputs may differ in dim 0 only" : "shapes must be equal",
          "): ", Describe(a, 0), "; ", Describe(b, r));
    }
  }
  return all;
}

// NCCL moves the data when every rank can use it, each on a GPU of its own (two ranks on
// one GPU cannot both join a communicator): the same answer on every rank.
bool EveryRankOnItsOwnNcclGpu(const std::vector<Statement>& all) {
  for (size_t r = 0; r < all.size(); ++r) {
    if (!all[r].nccl_able) return false;
    for (size_t q = 0; q < r; ++q) {
      if (all[q].host == all[r].host && all[q].gpu == all[r].gpu) return false;
    }
  }
  return true;
}

struct Started {
  std::vector<Statement> all;
  DataPath* data = nullptr;
};

// Runs `moves` on the path, then waits for it: also after an error, since a GPU path's
// queued work may still read or write the buffers the caller releases when this returns.
template <typename Moves>
absl::Status Moved(DataPath* data, Moves moves) {
  const absl::Status st = moves();
  const absl::Status done = data->Finish();
  return st.ok() ? done : st;
}

// Every rank states its collective; then the data's path is chosen.
absl::StatusOr<Started> Start(Comm& comm, DataPlace& place, const CollectiveSpec& spec) {
  Started s;
  RILL_ASSIGN_OR_RETURN(s.all, Agree(comm, spec, place.reach()));
  RILL_ASSIGN_OR_RETURN(s.data, place.Choose(comm, EveryRankOnItsOwnNcclGpu(s.all)));
  return s;
}

absl::Status SumFilled(Comm& comm, Started& s, const Tensor& buf,
                       const std::function<absl::Status(bool)>& fill) {
  return Moved(s.data, [&]() -> absl::Status {
    // The other ranks are in the sum now: a fill that fails still takes part, so they do
    // not wait for this rank until the timeout; its error is this rank's result.
    const absl::Status filled = fill(comm.rank() == 0);
    RILL_RETURN_IF_ERROR(
        s.data->AllReduce(buf.data(), buf.data(), buf.NumElements(), buf.dtype(), false));
    return filled;
  });
}

// Whether a replica update gathers its factors (UpdateReplicas): decided from the
// statements alone, so alike on every rank. Each gather is one call of MPI's int counts.
bool GatherFactors(const CollectiveSpec& spec, const std::vector<Statement>& all) {
  if (spec.variant != 1 || all.size() < 2 || spec.shape.dims() != 2) return false;
  const double m = static_cast<double>(spec.shape.dim_size(0));
  const double n = static_cast<double>(spec.shape.dim_size(1));
  double k = 0;
  for (const Statement& st : all) {
    if (st.rows < 0) return false;
    k += static_cast<double>(st.rows);
  }
  const double elem = DataTypeSize(spec.dtype), most = INT_MAX;
  if (k * std::max(m, n) * elem > most || m * n * elem > most) return false;
  return k * (m + n) < m * n;
}

// Bytes each rank brings to a gather of its `rows` rows of `row_elems` elements each.
std::vector<int64_t> GatherBytes(const std::vector<Statement>& all, int64_t row_elems,
                                 DataType dtype) {
  std::vector<int64_t> bytes(all.size());
  for (size_t r = 0; r < all.size(); ++r) bytes[r] = all[r].rows * row_elems * DataTypeSize(dtype);
  return bytes;
}

// Where rank r's slice of m rows starts.
int64_t FirstRow(int64_t m, int size, int r) { return m * r / size; }

// UpdateReplicas's rows and shared ways. As in SumFilled, a fill that fails still takes
// part. Shared: every rank's buf is the same memory, so the rows need only a barrier.
absl::Status RowsGathered(
    Comm& comm, Started& s, const Tensor& buf, const Tensor& a, const Tensor& b, bool shared,
    const std::function<absl::Status(const Tensor&, const Tensor&, int64_t, int64_t)>& fill) {
  const int size = comm.size(), rank = comm.rank();
  const int64_t m = buf.dim_size(0), n = buf.dim_size(1);
  int64_t k = 0;
  for (const Statement& st : s.all) k += st.rows;
  Tensor a_all(s.data->allocator(), a.dtype(), TensorShape({k, m}));
  Tensor b_all(s.data->allocator(), b.dtype(), TensorShape({k, n}));
  if (k > 0 && (a_all.data() == nullptr || b_all.data() == nullptr)) {  // m, n > 0 here
    return errors::ResourceExhausted("cannot allocate the gathered factors, [", k, ",", m,
                                     "] and [", k, ",", n, "]");
  }
  std::vector<int64_t> rows(size + 1);
  for (int r = 0; r <= size; ++r) rows[r] = FirstRow(m, size, r);
  std::vector<int64_t> out_bytes(size);
  for (int r = 0; r < size; ++r)
    out_bytes[r] = (rows[r + 1] - rows[r]) * n * DataTypeSize(buf.dtype());
  char* mine = static_cast<char*>(buf.data()) + rows[rank] * n * DataTypeSize(buf.dtype());
  return Moved(s.data, [&]() -> absl::Status {
    RILL_RETURN_IF_ERROR(
        s.data->AllGatherV(a.data(), GatherBytes(s.all, m, a.dtype()), a_all.data()));
    RILL_RETURN_IF_ERROR(
        s.data->AllGatherV(b.data(), GatherBytes(s.all, n, b.dtype()), b_all.data()));
    const absl::Status filled = fill(a_all, b_all, rows[rank], rows[rank + 1] - rows[rank]);
    RILL_RETURN_IF_ERROR(shared ? NodeBarrier(comm)
                                : s.data->AllGatherV(mine, out_bytes, buf.data()));
    return filled;
  });
}

absl::Status CheckRoot(const Comm& comm, const CollectiveSpec& spec) {
  if (spec.root < comm.size()) return absl::OkStatus();
  return errors::InvalidArgument("root_rank ", spec.root, " is not a rank of this job of ",
                                 comm.size());
}

}  // namespace

absl::Status HostAllReduce(Comm& comm, const void* send, void* recv, int64_t count, DataType dtype,
                           bool mean) {
  return comm.AllReduce(send, recv, count, dtype, mean);
}

absl::Status HostPlace::Copy(void* dst, const void* src, int64_t bytes) {
  if (bytes > 0 && dst != src) std::memcpy(dst, src, static_cast<size_t>(bytes));
  return absl::OkStatus();
}

absl::Status HostPlace::Zero(void* dst, int64_t bytes) {
  if (bytes > 0) std::memset(dst, 0, static_cast<size_t>(bytes));
  return absl::OkStatus();
}

absl::Status AllReduce(Comm& comm, DataPlace& place, const CollectiveSpec& spec, const Tensor& in,
                       const Tensor& out, bool mean) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  return Moved(s.data, [&] {
    return s.data->AllReduce(in.data(), out.data(), in.NumElements(), in.dtype(), mean);
  });
}

absl::Status AllReduceFilled(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                             const Tensor& buf, const std::function<absl::Status(bool)>& fill) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  return SumFilled(comm, s, buf, fill);
}

absl::Status UpdateReplicas(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                            const Tensor& buf, const Tensor& a, const Tensor& b,
                            const ReplicaFills& fills) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  const bool rows = GatherFactors(spec, s.all);
  const bool one_host = comm.local_size() == comm.size();
  const auto every = [&](auto pred) {
    return std::all_of(s.all.begin(), s.all.end(), [&](const Statement& st) { return pred(st); });
  };
  const bool shared = rows && one_host && s.all[0].segment > 0 &&
                      every([&](const Statement& st) { return st.segment == s.all[0].segment; });
  if (fills.taken != nullptr) {
    *fills.taken = shared ? ReplicaWay::kShared : rows ? ReplicaWay::kRows : ReplicaWay::kSum;
  }
  if (shared) {
    CountPath(4);
    return RowsGathered(comm, s, buf, a, b, true, fills.rows);
  }
  // A rank that cannot leave still takes part (the others are in the transfer): it writes
  // its own rows, and the others' same values, into the segment; its error is its result.
  Tensor target = buf;
  absl::Status left;
  if (spec.segment > 0 && fills.leave) {
    absl::StatusOr<Tensor> copy = fills.leave();
    if (copy.ok()) target = *std::move(copy);
    left = copy.status();
  }
  if (!rows) {
    const absl::Status summed = SumFilled(comm, s, target, fills.sum);
    return left.ok() ? summed : left;
  }
  CountPath(3);
  const absl::Status updated = RowsGathered(comm, s, target, a, b, false, fills.rows);
  if (!left.ok()) return left;  // it stated a segment: no rank adopts
  if (!one_host || !fills.adopt || !every([](const Statement& st) { return st.segment == 0; })) {
    return updated;
  }
  // Every rank takes part in the adoption, one whose update failed as unable to.
  const int64_t m = target.dim_size(0);
  const int64_t row0 = FirstRow(m, comm.size(), comm.rank());
  const absl::Status adopted =
      fills.adopt(comm, row0, FirstRow(m, comm.size(), comm.rank() + 1) - row0, updated.ok());
  return updated.ok() ? adopted : updated;
}

absl::Status Broadcast(Comm& comm, DataPlace& place, const CollectiveSpec& spec, const Tensor& in,
                       const Tensor& out) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  RILL_RETURN_IF_ERROR(CheckRoot(comm, spec));
  const int64_t bytes = static_cast<int64_t>(out.TotalBytes());
  return Moved(s.data, [&] {
    if (comm.rank() == spec.root) RILL_RETURN_IF_ERROR(s.data->Copy(out.data(), in.data(), bytes));
    return s.data->Broadcast(out.data(), bytes, static_cast<int>(spec.root));
  });
}

absl::StatusOr<Tensor> AllGather(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                                 const Tensor& in) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  const int64_t row_bytes = [&] {
    int64_t e = 1;
    for (int d = 1; d < spec.shape.dims(); ++d) e *= spec.shape.dim_size(d);
    return e * DataTypeSize(spec.dtype);
  }();
  int64_t rows = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (s.all[r].rows < 0 || s.all[r].rows > (int64_t{1} << 40)) {
      return errors::InvalidArgument("rank ", r, " brings ", s.all[r].rows, " rows");
    }
    rows += s.all[r].rows;
  }
  std::vector<int64_t> dims(spec.shape.dim_sizes().begin(), spec.shape.dim_sizes().end());
  dims[0] = rows;
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  if (row_bytes > 0 && rows > (int64_t{1} << 31) / row_bytes) {
    return errors::InvalidArgument("the gathered value, ", shape.DebugString(), " of ",
                                   DataTypeString(spec.dtype),
                                   ", is over 2 GiB (MPI's counts are ints)");
  }
  std::vector<int64_t> bytes(comm.size());
  for (int r = 0; r < comm.size(); ++r) bytes[r] = s.all[r].rows * row_bytes;
  Tensor out(s.data->allocator(), spec.dtype, shape);
  if (out.data() == nullptr && out.TotalBytes() > 0) {
    return errors::ResourceExhausted("cannot allocate the gathered value, ", shape.DebugString(),
                                     " of ", DataTypeString(spec.dtype));
  }
  RILL_RETURN_IF_ERROR(
      Moved(s.data, [&] { return s.data->AllGatherV(in.data(), bytes, out.data()); }));
  return out;
}

absl::Status BroadcastGrad(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                           const Tensor& grad, const Tensor& out) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  RILL_RETURN_IF_ERROR(CheckRoot(comm, spec));
  return Moved(s.data, [&]() -> absl::Status {
    RILL_RETURN_IF_ERROR(
        s.data->AllReduce(grad.data(), out.data(), grad.NumElements(), grad.dtype(), false));
    if (comm.rank() == spec.root) return absl::OkStatus();
    return s.data->Zero(out.data(), static_cast<int64_t>(out.TotalBytes()));
  });
}

absl::Status AllGatherGrad(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                           const Tensor& grad, const Tensor& out) {
  RILL_ASSIGN_OR_RETURN(Started s, Start(comm, place, spec));
  int64_t before = 0, rows = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (s.all[r].rows < 0 || s.all[r].rows > (int64_t{1} << 40)) {
      return errors::InvalidArgument("rank ", r, " took ", s.all[r].rows, " rows");
    }
    if (r < comm.rank()) before += s.all[r].rows;
    rows += s.all[r].rows;
  }
  const int64_t grad_rows = spec.shape.dim_size(0);
  if (rows != grad_rows) {
    return errors::InvalidArgument("the gradient has ", grad_rows, " rows (",
                                   spec.shape.DebugString(), ") but the ranks gathered ", rows);
  }
  Tensor sum(s.data->allocator(), grad.dtype(), grad.shape());
  if (sum.data() == nullptr && sum.TotalBytes() > 0) {
    return errors::ResourceExhausted("cannot allocate the summed gradient, ",
                                     grad.shape().DebugString());
  }
  const int64_t row_bytes = grad_rows > 0 ? static_cast<int64_t>(grad.TotalBytes()) / grad_rows : 0;
  // `sum` goes back to the allocator only once the copy out of it is done.
  return Moved(s.data, [&]() -> absl::Status {
    RILL_RETURN_IF_ERROR(
        s.data->AllReduce(grad.data(), sum.data(), grad.NumElements(), grad.dtype(), false));
    return s.data->Copy(out.data(), static_cast<const char*>(sum.data()) + before * row_bytes,
                        static_cast<int64_t>(out.TotalBytes()));
  });
}

}  // namespace rill::dist
