#!/usr/bin/env bash
# test_launch.sh - a launch a tool cannot serve is refused, not run N times: every
# data tool started as several copies (mpirun -np N, srun, a PMI launcher; their
# environment variables say so) exits 2 naming the launcher, the number of copies
# and the fix; a batch script's own Slurm variables are no launch. `train --version`
# names what the build has, and says MPI yes when bin/train links libmpi. (A trainer
# built without MPI refusing mpirun -np 2 is tests/unit/test_launch.c.)
. "$(dirname "$0")/lib.sh"
echo '{"text": "a b c"}' > "$WORK/in.jsonl"
for t in blacklist_urls cleanup shuffle tokenize preprocess_data merge_datasets inspect_dataset train_bpe \
         minhash find_duplicates group_duplicates remove_duplicates generate convert_checkpoint; do
  [ -x "$BIN/$t" ] || { fail "launch_$t" "$BIN/$t missing"; continue; }
  expect_exit "launch_ompi_$t" 2 env OMPI_COMM_WORLD_SIZE=2 "$BIN/$t" "$WORK/in.jsonl"
  stderr_has "launch_ompi_msg_$t" "$t: started as 2 copies by mpirun (Open MPI) (OMPI_COMM_WORLD_SIZE=2)"
done
expect_exit launch_pmi 2 env PMI_SIZE=3 "$BIN/tokenize" "$WORK/in.jsonl"
stderr_has launch_pmi_msg "3 copies by mpiexec"
expect_exit launch_srun 2 env SLURM_STEP_NUM_TASKS=4 SLURM_STEP_ID=0 SLURM_PROCID=1 "$BIN/tokenize" "$WORK/in.jsonl"
stderr_has launch_srun_msg "4 copies by srun (Slurm)"
# sbatch --ntasks 4 runs the batch script once: its variables are no launch
expect_exit launch_batch_script 0 env SLURM_NTASKS=4 SLURM_STEP_NUM_TASKS=1 SLURM_PROCID=0 "$BIN/tokenize" -q "$WORK/in.jsonl"
expect_exit launch_one_copy 0 env OMPI_COMM_WORLD_SIZE=1 "$BIN/tokenize" -q "$WORK/in.jsonl"
expect_exit launch_help_still 0 env OMPI_COMM_WORLD_SIZE=2 "$BIN/tokenize" --help
# A real launcher, when there is one: two copies of a data tool are refused.
if command -v mpirun >/dev/null 2>&1; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  timeout 60 mpirun --oversubscribe -np 2 "$BIN/tokenize" -o "$WORK/out.txt" "$WORK/in.jsonl" >"$WORK/mpi.out" 2>&1
  rc=$?
  if [ $rc != 0 ] && grep -q "tokenize: started as 2 copies by mpirun" "$WORK/mpi.out" && [ ! -e "$WORK/out.txt" ]; then
    pass launch_mpirun_data_tool
  else fail launch_mpirun_data_tool "exit $rc: $(head -c 300 "$WORK/mpi.out")"; fi
else
  skip launch_mpirun_data_tool "mpirun not installed"
fi
# --version names the build's parts, one line each.
"$BIN/train" --version > "$WORK/v.txt" 2>&1
ok=1
for part in "MPI: " "OpenMP: " "BLAS: " "CUDA: " "GPU architectures: " "cuDNN: " "NCCL: "; do
  grep -q "^$part" "$WORK/v.txt" || { ok=0; fail train_version_lists "no '$part' line: $(cat "$WORK/v.txt")"; }
done
[ $ok = 1 ] && pass train_version_lists
if ldd "$BIN/train" | grep -q libmpi; then mpi=yes; else mpi=no; fi
if grep -q "^MPI: $mpi" "$WORK/v.txt"; then pass train_version_mpi_true; else fail train_version_mpi_true "ldd says $mpi: $(grep ^MPI "$WORK/v.txt")"; fi
if ldd "$BIN/train" | grep -q libcublas; then cuda=yes; else cuda=no; fi
if grep -q "^CUDA: $cuda" "$WORK/v.txt"; then pass train_version_cuda_true; else fail train_version_cuda_true "ldd says $cuda: $(grep ^CUDA "$WORK/v.txt")"; fi
