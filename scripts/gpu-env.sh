# Sourced by scripts/gpu-check.sh and scripts/gpu-figures.sh on the GPU machine: unpacks
# the bundle (once) and sets the paths, NCCL's included.
[[ -d .devbundle ]] || tar xJf .devpack/bundle.tar.xz
source .devbundle/env.sh
# NCCL (the collectives' GPU path) comes with the machine's PyTorch when the toolkit lacks it.
nccl=$(python3 -c "import nvidia.nccl,os; print(os.path.join(list(nvidia.nccl.__path__)[0],'lib'))" 2>/dev/null)
[[ -n $nccl ]] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$nccl"
# Open MPI's launcher from the bundle (scripts/bundle-mpi.sh), where the machine has none.
if ! mpirun --version > /dev/null 2>&1 && [[ -f .devbundle/ompi/mpi-env.sh ]]; then
  source .devbundle/ompi/mpi-env.sh
fi
