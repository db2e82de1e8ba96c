/* launch.h - how many copies of this program a parallel launcher started.
 *
 * mpirun (Open MPI), MPICH's and Intel MPI's mpiexec (Hydra, PMI), MVAPICH and
 * srun each tell the processes they start how many they are through the
 * environment. A tool that is one process (every data tool; a trainer built
 * without MPI) reads it to refuse a launch of several copies, which would each
 * do the whole job and overwrite one another's output, instead of running it
 * N times. */
#ifndef COMMON_LAUNCH_H
#define COMMON_LAUNCH_H

typedef struct {
    int size;             /* the number of copies started (1: not launched, or one) */
    const char *launcher; /* "mpirun (Open MPI)", "srun (Slurm)", ...; NULL when not launched */
    const char *var;      /* the variable that said so, e.g. "OMPI_COMM_WORLD_SIZE" */
} launch_info;

/* What the environment says. */
launch_info launch_detect(void);

/* 0, or ERR_USAGE with a message naming the launcher, the number of copies and
 * the fix when launch_detect() sees more than one copy. prog names the tool;
 * fix is what to do instead (one sentence). */
int launch_refuse_several(const char *prog, const char *fix);

#endif
