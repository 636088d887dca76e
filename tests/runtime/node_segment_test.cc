// dist::MapNodeSegment on one process: the memory the replica update shares between the
// ranks of one host. A job of one rank maps it (zeros, writable, held by its Tensors); a
// rank that cannot take part, or a world whose other ranks did not map it, is Unavailable
// on every rank, and no name is left in /dev/shm either way. tests/dist/ shares it between
// 2 and 3 processes.
#include "rill/runtime/dist/node_segment.h"

#include <dirent.h>

#include <cstring>
#include <string>

#include "absl/strings/match.h"
#include "fake_comm.h"

namespace rill::testing {
namespace {
namespace node_segment_test {

// How many of rill's segments /dev/shm names.
int NamedSegments() {
  int count = 0;
  DIR* dir = opendir("/dev/shm");
  if (dir == nullptr) return 0;
  while (dirent* e = readdir(dir)) count += absl::StartsWith(e->d_name, "rill-");
  closedir(dir);
  return count;
}

TEST(NodeSegment, OneRankMapsZerosThatItsTensorsShare) {
  const int named = NamedSegments();
  std::unique_ptr<dist::Comm> comm = dist::MakeLocalComm();
  absl::StatusOr<Tensor> seg = dist::MapNodeSegment(*comm, DT_FLOAT, TensorShape({300, 7}));
  ASSERT_TRUE(seg.ok()) << seg.status();
  EXPECT_EQ(seg->shape(), TensorShape({300, 7}));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(seg->data()) % 64, 0u);
  for (int64_t i = 0; i < seg->NumElements(); ++i) ASSERT_EQ(seg->flat<float>()(i), 0.f) << i;
  Tensor other = *seg;
  seg->flat<float>()(2099) = 4.5f;
  EXPECT_EQ(other.flat<float>()(2099), 4.5f);
  EXPECT_TRUE(other.SharesBufferWith(*seg));
  EXPECT_TRUE(other.RefCountIs(2));
  seg = Tensor();
  EXPECT_TRUE(other.RefCountIsOne());
  EXPECT_EQ(NamedSegments(), named);
  EXPECT_TRUE(dist::NodeBarrier(*comm).ok());
}

TEST(NodeSegment, ARankThatCannotOrOthersThatDidNotAreUnavailable) {
  const int named = NamedSegments();
  std::unique_ptr<dist::Comm> one = dist::MakeLocalComm();
  absl::StatusOr<Tensor> unable = dist::MapNodeSegment(*one, DT_FLOAT, TensorShape({4}), false);
  EXPECT_TRUE(absl::IsUnavailable(unable.status())) << unable.status();
  EXPECT_TRUE(absl::StrContains(unable.status().message(), "1 of 1 could not map it"))
      << unable.status();
  absl::StatusOr<Tensor> empty = dist::MapNodeSegment(*one, DT_DOUBLE, TensorShape({0, 3}));
  EXPECT_TRUE(absl::IsUnavailable(empty.status())) << empty.status();
  // A fake world of 2 whose other rank never maps: rank 0 made the segment, and lets it go.
  fake_comm::FakeComm two(2, [](void*) {});
  absl::StatusOr<Tensor> alone = dist::MapNodeSegment(two, DT_FLOAT, TensorShape({1024}));
  EXPECT_TRUE(absl::IsUnavailable(alone.status())) << alone.status();
  EXPECT_TRUE(absl::StrContains(alone.status().message(), "1 of 2 could not map it"))
      << alone.status();
  EXPECT_EQ(NamedSegments(), named);
}

}  // namespace node_segment_test
}  // namespace
}  // namespace rill::testing
