# Sourced by scripts/gpu-run.sh and scripts/gpu-figures.sh on the GPU machine: unpacks
# the bundle (once) and sets the paths, NCCL's included. RILL_SYSTEM_LD_LIBRARY_PATH keeps
# the machine's own path for python3 (PyTorch): the bundle's Debian libraries must not
# shadow the machine's newer ones there.
export RILL_SYSTEM_LD_LIBRARY_PATH=${LD_LIBRARY_PATH-}
# NCCL (the collectives' GPU path) comes with the machine's PyTorch when the toolkit lacks it.
nccl=$(python3 -c "import nvidia.nccl,os; print(os.path.join(list(nvidia.nccl.__path__)[0],'lib'))" 2>/dev/null)
[[ -d .devbundle ]] || tar xJf .devpack/bundle.tar.xz
source .devbundle/env.sh
if [[ -n $nccl ]]; then export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$nccl"; fi
