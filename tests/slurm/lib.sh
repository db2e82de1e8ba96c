# tests/slurm/lib.sh - a real one-node Slurm for the tests: munged, slurmctld and slurmd
# (Debian's slurm-wlm, installed by scripts/setup/install_deps.sh --test), started from a
# private slurm.conf under the test's temporary folder, ports of their own, stopped by their
# process ids in the caller's trap whatever happens. Source it after tests/e2e/lib.sh, then:
#   slurm_start || { skip ...; exit 0; }     # SLURM_CONF exported; the node idle
#   slurm_wait JOBID [SECONDS]               # until the job (and its array) has left the queue
#   slurm_stop                               # (also run by the EXIT trap)
SL=$WORK/slurm
slurm_stop() {
  local p
  for p in ${SLURMD_PID:-} ${SLURMCTLD_PID:-} ${MUNGED_PID:-}; do kill "$p" 2>/dev/null || true; done
  for p in ${SLURMD_PID:-} ${SLURMCTLD_PID:-} ${MUNGED_PID:-}; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  SLURMD_PID= SLURMCTLD_PID= MUNGED_PID=
}
trap 'slurm_stop; rm -rf "$WORK"' EXIT
slurm_why=""
slurm_start() {
  for b in munged slurmctld slurmd sbatch srun squeue scontrol; do
    command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || { slurm_why="$b not installed (scripts/setup/install_deps.sh --test installs slurm-wlm)"; return 1; }
  done
  [ "$(id -u)" = 0 ] || { slurm_why="the daemons run as root here (SlurmUser=root)"; return 1; }
  mkdir -p "$SL"/{state,spool,log,run,munge}
  chmod 700 "$SL/munge"
  head -c 1024 /dev/urandom > "$SL/munge/munge.key"; chmod 400 "$SL/munge/munge.key"
  local host port cpus mem
  host=$(hostname -s); cpus=$(nproc); mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  port=$(( 20000 + ($$ * 7) % 20000 ))
  cat > "$SL/slurm.conf" <<CONF
ClusterName=webtext-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SrunPortRange=$((port + 2))-$((port + 40))
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/run/slurmctld.pid
SlurmdPidFile=$SL/run/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
AuthType=auth/munge
AuthInfo=socket=$SL/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=2,sched_min_interval=0
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
KillWait=10
MinJobAge=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  export SLURM_CONF=$SL/slurm.conf
  /usr/sbin/munged -F --force --key-file="$SL/munge/munge.key" --socket="$SL/munge/munge.socket" \
    --pid-file="$SL/munge/munged.pid" --log-file="$SL/munge/munged.log" --seed-file="$SL/munge/seed" \
    > "$SL/log/munged.out" 2>&1 &
  MUNGED_PID=$!
  for _ in $(seq 50); do [ -S "$SL/munge/munge.socket" ] && break; sleep 0.1; done
  /usr/sbin/slurmctld -D -i -f "$SL/slurm.conf" > "$SL/log/slurmctld.out" 2>&1 &
  SLURMCTLD_PID=$!
  /usr/sbin/slurmd -D -f "$SL/slurm.conf" -N "$host" > "$SL/log/slurmd.out" 2>&1 &
  SLURMD_PID=$!
  local state=""
  for _ in $(seq 150); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    case $state in idle*|mixed*|allocated*) return 0 ;; esac
    kill -0 "$SLURMCTLD_PID" 2>/dev/null && kill -0 "$SLURMD_PID" 2>/dev/null || break
    sleep 0.2
  done
  slurm_why="the node did not come up (state '${state:-none}'): $(tail -2 "$SL/log/slurmctld.log" "$SL/log/slurmd.log" 2>/dev/null | tr '\n' ' ' | cut -c1-300)"
  slurm_stop
  return 1
}
# slurm_wait JOBID [SECONDS]: until no job of JOBID (an array's tasks included) is queued or running
slurm_wait() {
  local t=${2:-300}
  [ -n "$1" ] || return 1
  for _ in $(seq $((t * 5))); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  return 1
}
# slurm_state JOBID: the job's final state as scontrol shows it (COMPLETED, FAILED, ...)
slurm_state() { [ -n "$1" ] && scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
