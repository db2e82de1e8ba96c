/* launch.c - see launch.h. */
#include "common/launch.h"

#include <stdlib.h>

#include "common/err.h"

static int env_int(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    return *end || n < 1 || n > 1 << 24 ? 0 : (int)n;
}

launch_info launch_detect(void)
{
    /* Most specific first: an mpirun inside a Slurm allocation is mpirun. */
    static const struct {
        const char *var, *launcher;
    } sizes[] = {
        {"OMPI_COMM_WORLD_SIZE", "mpirun (Open MPI)"},
        {"PMI_SIZE", "mpiexec (a PMI launcher: MPICH or Intel MPI's Hydra, srun --mpi=pmi2)"},
        {"MV2_COMM_WORLD_SIZE", "mpirun_rsh (MVAPICH)"},
        {"PMIX_SIZE", "a PMIx launcher (prterun, srun --mpi=pmix)"},
        {"SLURM_STEP_NUM_TASKS", "srun (Slurm)"},
    };
    launch_info li = {1, NULL, NULL};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int n = env_int(sizes[i].var);
        /* srun's variables are set in a batch script too: only a task of a job
         * step (SLURM_STEP_ID, SLURM_PROCID) was started by srun. */
        if (n && i == sizeof sizes / sizeof *sizes - 1 && !(getenv("SLURM_STEP_ID") && getenv("SLURM_PROCID")))
            n = 0;
        if (n) {
            li.size = n;
            li.launcher = sizes[i].launcher;
            li.var = sizes[i].var;
            return li;
        }
    }
    return li;
}

int launch_refuse_several(const char *prog, const char *fix)
{
    launch_info li = launch_detect();
    if (li.size <= 1)
        return 0;
    return err_set(ERR_USAGE,
                   "%s: started as %d copies by %s (%s=%d), but %s is one process: every copy would do the "
                   "whole job and write the same output. %s",
                   prog, li.size, li.launcher, li.var, li.size, prog, fix);
}
