// Pass 6: plan memory.
//
// What: for one plan and one set of feed shapes, the offset of every value its kernels
// allocate within one arena per device, so that a run takes its outputs from memory
// that was laid out once, instead of asking the allocator per value per run (as ggml's
// graph allocator and ONNX Runtime's memory patterns do).
//
// Input: what the plan's first run with these feed shapes recorded (runtime/memory_plan.h):
// the bytes of each value its producer allocated, and which values shared a buffer with an
// input (forwarded in place, Identity, Reshape). Sizes come from a run, not from shape
// inference, because kernels decide them (data-dependent shapes, broadcasting).
//
// Values: slots that share a buffer form one value (union over the recorded aliases),
// allocated by the first producer of the chain and alive until every consumer of every
// member has run. Values with a fed, fetched or excluded member stay outside the arena,
// as do those not allocated by their producer (constants, variables, host-memory outputs).
//
// Lifetimes: the executor runs independent nodes concurrently and in no fixed order, so a
// linear schedule says nothing. Two values may share memory only when one is dead before
// the other is born in every schedule: each last user (producer or consumer) of the first
// is a strict ancestor, in the plan's dependency graph, of the second's producer. The
// ancestor sets are bitsets, one per node (kMaxMemoryPlannedNodes bounds them).
//
// Offsets: greedy by size, largest first (TensorFlow Lite's arena planner): each value
// goes at the lowest offset where it overlaps no already placed value whose lifetime it
// shares. The arena is as large as the highest end.
//
// Safety beyond the plan: each value records the values it overlaps; the arena hands it
// out only while all of those are idle (runtime/arena.h), so a value that outlives its
// planned life (kept by a variable, fetched through an alias the first run did not show)
// is never overwritten: the newcomer is allocated as before, and the executor excludes
// the escaped value from the next layout.
#include <algorithm>
#include <numeric>

#include "rill/core/allocator.h"
#include "rill/runtime/memory_plan.h"
#include "rill/runtime/plan.h"

namespace rill {
namespace {

struct Deps {                               // the plan's dependency graph, as the executor sees it
  std::vector<int> producer;                // per slot; -1: fed
  std::vector<std::vector<int>> consumers;  // per slot: plan nodes reading it
  std::vector<uint64_t> ancestors;          // per node, `words` words
  size_t words = 0;

  bool IsAncestor(int a, int of) const { return (ancestors[of * words + a / 64] >> (a % 64)) & 1; }
};

Deps BuildDeps(const ExecutionPlan& plan) {
  const int n = static_cast<int>(plan.nodes.size());
  Deps g;
  g.producer.assign(plan.num_slots, -1);
  g.consumers.resize(plan.num_slots);
  for (int i = 0; i < n; ++i) {
    const PlanNode& pn = plan.nodes[i];
    for (int o = 0; o < pn.node->num_outputs(); ++o) g.producer[pn.first_output_slot + o] = i;
    for (int s : pn.input_slots) g.consumers[s].push_back(i);
  }
  // Ancestors in a topological order (the plan's node order puts copies last).
  g.words = (n + 63) / 64;
  g.ancestors.assign(static_cast<size_t>(n) * g.words, 0);
  std::vector<int> pending(n), ready(plan.roots.begin(), plan.roots.end());
  for (int i = 0; i < n; ++i) pending[i] = plan.nodes[i].num_predecessors;
  while (!ready.empty()) {
    const int p = ready.back();
    ready.pop_back();
    for (int c : plan.nodes[p].consumers) {
      uint64_t* dst = &g.ancestors[c * g.words];
      const uint64_t* src = &g.ancestors[p * g.words];
      for (size_t w = 0; w < g.words; ++w) dst[w] |= src[w];
      dst[p / 64] |= uint64_t{1} << (p % 64);
      if (--pending[c] == 0) ready.push_back(c);
    }
  }
  return g;
}

int Root(const std::vector<int>& alias, int s) {
  while (alias[s] >= 0) s = alias[s];
  return s;
}

struct Candidate {
  int slot;  // the root, allocated by its producer
  size_t bytes;
  Device* device;
  std::vector<int> last_users;  // users that are no other user's ancestor
  bool planned = true;
};

// The values worth planning, one per alias chain, with the users that end their lives.
std::vector<Candidate> Candidates(const ExecutionPlan& plan, const MemoryRecord& record,
                                  const std::vector<char>& excluded, const Deps& g) {
  std::vector<int> value_of(plan.num_slots, -1);
  std::vector<Candidate> out;
  for (int s = 0; s < plan.num_slots; ++s) {
    if (record.alias[s] >= 0 || record.bytes[s] < 0 || excluded[s] || g.producer[s] < 0) continue;
    value_of[s] = static_cast<int>(out.size());
    const size_t bytes =
        std::max<size_t>(kTensorAlignment, (record.bytes[s] + kTensorAlignment - 1) /
                                               kTensorAlignment * kTensorAlignment);
    out.push_back({s, bytes, plan.nodes[g.producer[s]].device, {}});
  }
  std::vector<std::vector<int>> users(out.size());
  for (int s = 0; s < plan.num_slots; ++s) {
    if (g.producer[s] < 0 && record.alias[s] < 0) continue;
    const int v = value_of[Root(record.alias, s)];
    if (v < 0) continue;
    if (plan.slot_pinned[s]) out[v].planned = false;
    users[v].push_back(g.producer[s]);
    users[v].insert(users[v].end(), g.consumers[s].begin(), g.consumers[s].end());
  }
  for (size_t v = 0; v < out.size(); ++v) {
    std::vector<int>& u = users[v];
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    for (int a : u) {
      const bool before_another =
          std::any_of(u.begin(), u.end(), [&](int b) { return b != a && g.IsAncestor(a, b); });
      if (!before_another) out[v].last_users.push_back(a);
    }
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const Candidate& c) { return !c.planned; }),
            out.end());
  return out;
}

// True when `a` is dead before `b` is allocated, in every order the executor may take.
bool DeadBefore(const Candidate& a, const Candidate& b, const Deps& g) {
  const int born = g.producer[b.slot];
  return std::all_of(a.last_users.begin(), a.last_users.end(),
                     [&](int u) { return g.IsAncestor(u, born); });
}

// Greedy by size: the lowest offset clear of every placed value alive at the same time.
void Place(const std::vector<Candidate>& cands, const Deps& g, MemoryLayout* layout) {
  std::vector<int> order(cands.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return cands[a].bytes > cands[b].bytes; });
  std::vector<int> placed;  // candidate indices, in placement order
  std::vector<std::pair<size_t, size_t>> busy;
  layout->values.resize(cands.size());
  for (int v : order) {
    const Candidate& c = cands[v];
    int arena = 0;
    while (arena < static_cast<int>(layout->arenas.size()) &&
           layout->arenas[arena].device != c.device) {
      ++arena;
    }
    if (arena == static_cast<int>(layout->arenas.size())) layout->arenas.push_back({c.device, 0});
    busy.clear();
    for (int p : placed) {
      const MemoryLayout::Value& pv = layout->values[p];
      if (pv.arena != arena) continue;
      if (DeadBefore(cands[p], c, g) || DeadBefore(c, cands[p], g)) continue;
      busy.emplace_back(pv.offset, pv.offset + pv.bytes);
    }
    std::sort(busy.begin(), busy.end());
    size_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (offset + c.bytes <= begin) break;
      offset = std::max(offset, end);
    }
    layout->values[v] = {arena, offset, c.bytes, c.slot, {}};
    layout->arenas[arena].bytes = std::max(layout->arenas[arena].bytes, offset + c.bytes);
    placed.push_back(v);
  }
}

// Each value learns which others share some of its bytes.
void FindOverlaps(MemoryLayout* layout) {
  std::vector<int> by_offset(layout->values.size());
  std::iota(by_offset.begin(), by_offset.end(), 0);
  std::sort(by_offset.begin(), by_offset.end(), [&](int a, int b) {
    const MemoryLayout::Value &va = layout->values[a], &vb = layout->values[b];
    return std::tie(va.arena, va.offset) < std::tie(vb.arena, vb.offset);
  });
  for (size_t i = 0; i < by_offset.size(); ++i) {
    MemoryLayout::Value& a = layout->values[by_offset[i]];
    for (size_t j = i + 1; j < by_offset.size(); ++j) {
      MemoryLayout::Value& b = layout->values[by_offset[j]];
      if (b.arena != a.arena || b.offset >= a.offset + a.bytes) break;
      a.overlaps.push_back(by_offset[j]);
      b.overlaps.push_back(by_offset[i]);
    }
  }
}

}  // namespace

void MemoryRecord::Reset(int num_slots) {
  bytes.assign(num_slots, kNotProduced);
  alias.assign(num_slots, -1);
}

bool MemoryLayout::Fits(const Tensor* const* feeds) const {
  for (size_t i = 0; i < feed_shapes.size(); ++i) {
    if (!(feeds[i]->shape() == feed_shapes[i])) return false;
  }
  return true;
}

std::shared_ptr<const MemoryLayout> PlanMemory(const ExecutionPlan& plan,
                                               const MemoryRecord& record,
                                               const std::vector<char>& excluded,
                                               const Tensor* const* feeds) {
  auto layout = std::make_shared<MemoryLayout>();
  for (size_t i = 0; i < plan.feed_slots.size(); ++i)
    layout->feed_shapes.push_back(feeds[i]->shape());
  layout->slot_value.assign(plan.num_slots, -1);
  if (plan.nodes.size() <= static_cast<size_t>(kMaxMemoryPlannedNodes)) {
    const Deps g = BuildDeps(plan);
    const std::vector<Candidate> cands = Candidates(plan, record, excluded, g);
    Place(cands, g, layout.get());
    FindOverlaps(layout.get());
  }
  MemoryPlanStats& st = layout->stats;
  for (size_t v = 0; v < layout->values.size(); ++v) {
    layout->slot_value[layout->values[v].slot] = static_cast<int>(v);
    st.planned_value_bytes += static_cast<int64_t>(layout->values[v].bytes);
  }
  for (const MemoryLayout::Arena& a : layout->arenas)
    st.arena_bytes += static_cast<int64_t>(a.bytes);
  st.planned_values = static_cast<int>(layout->values.size());
  st.unplanned_values = 0;
  for (int s = 0; s < plan.num_slots; ++s) {
    const bool in_arena = layout->slot_value[Root(record.alias, s)] >= 0;
    if ((record.bytes[s] != MemoryRecord::kNotProduced || plan.slot_pinned[s]) && !in_arena) {
      ++st.unplanned_values;
    }
  }
  return layout;
}

}  // namespace rill
