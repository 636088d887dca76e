#!/usr/bin/env bash
# bundle-mpi.sh DIR: Open MPI's launcher as this machine has it (Debian's 4.1), relocatable,
# for the GPU machine, which has no MPI: DIR/usr/{bin/mpirun, lib/x86_64-linux-gnu/openmpi,
# lib/x86_64-linux-gnu/pmix2, share/openmpi} and DIR/lib with the shared libraries they
# load that the GPU machine lacks. There: `source DIR/mpi-env.sh`, which sets OPAL_PREFIX
# (Open MPI finds its plugins and help files under it) and the paths.
set -euo pipefail
out=$1
multiarch=lib/x86_64-linux-gnu
rm -rf "$out"
mkdir -p "$out/usr/bin" "$out/usr/$multiarch" "$out/usr/share" "$out/lib"
cp -L /usr/bin/orterun "$out/usr/bin/mpirun"
cp -a /usr/$multiarch/openmpi "$out/usr/$multiarch/"
cp -a /usr/$multiarch/pmix2 "$out/usr/$multiarch/"
rm -rf "$out/usr/$multiarch/openmpi/include" "$out/usr/$multiarch/pmix2/include" \
  "$out/usr/$multiarch/openmpi/lib/"*.a "$out/usr/$multiarch/pmix2/lib/"*.a \
  "$out/usr/$multiarch/openmpi/lib/"libmpi_java* "$out/usr/$multiarch/openmpi/lib/"*.jar
cp -a /usr/share/openmpi "$out/usr/share/"
# What the launcher and the plugins load, less what every Linux and the GPU machine have.
keep_out='^(linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libstdc\+\+|libgcc_s|libcuda\.so|libcudart|libnvidia)'
find "$out/usr" -type f \( -name '*.so*' -o -name mpirun \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '/=>/ && $3 ~ /^\// { print $1, $3 }' | sort -u |
  while read -r name path; do
    [[ $name =~ $keep_out ]] && continue
    [[ $path == /usr/$multiarch/openmpi/* || $path == /usr/$multiarch/pmix2/* ]] && continue
    cp -Ln "$path" "$out/lib/$name" 2>/dev/null || true
  done
cat >"$out/mpi-env.sh" <<'ENV'
# source this on the GPU machine: the bundled Open MPI, relocated.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX="$here/usr"
export PATH="$here/usr/bin:$PATH"
export LD_LIBRARY_PATH="$here/usr/lib/x86_64-linux-gnu/openmpi/lib:$here/usr/lib/x86_64-linux-gnu/pmix2/lib:$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Shared memory between the ranks of one machine; no network stacks to probe.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx
ENV
echo "bundle-mpi: $(du -sm "$out" | cut -f1) MiB in $out"
