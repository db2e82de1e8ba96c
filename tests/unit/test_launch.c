/* test_launch.c - common/launch (which launcher started how many copies) and the
 * refusal of a launch of several copies by a trainer built without MPI: this
 * test links train/parallel/dist.c compiled without WEBTEXT_MPI (the Makefile's
 * dist_nompi.o), whatever the rest of the build has. */
#include "common/err.h"
#include "common/launch.h"
#include "train/parallel/dist.h"
#include "tests/unit/check.h"

#include <stdlib.h>
#include <string.h>

static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "PMIX_SIZE",
                                   "SLURM_STEP_NUM_TASKS", "SLURM_STEP_ID", "SLURM_PROCID", "SLURM_NTASKS",
                                   "PMIX_RANK", "PMI_RANK"};

static void clear_env(void)
{
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
}

static void test_detect(void)
{
    clear_env();
    launch_info li = launch_detect();
    CHECK_EQ_INT(li.size, 1);
    CHECK(li.launcher == NULL);
    setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
    li = launch_detect();
    CHECK_EQ_INT(li.size, 4);
    CHECK(li.launcher && strstr(li.launcher, "mpirun"));
    clear_env();
    setenv("PMI_SIZE", "3", 1);
    li = launch_detect();
    CHECK_EQ_INT(li.size, 3);
    CHECK(li.launcher && strstr(li.launcher, "PMI"));
    clear_env();
    /* a batch script's own environment (sbatch --ntasks 4): not a launch */
    setenv("SLURM_NTASKS", "4", 1);
    setenv("SLURM_STEP_NUM_TASKS", "4", 1);
    CHECK_EQ_INT(launch_detect().size, 1);
    /* a task of an srun job step */
    setenv("SLURM_STEP_ID", "0", 1);
    setenv("SLURM_PROCID", "2", 1);
    li = launch_detect();
    CHECK_EQ_INT(li.size, 4);
    CHECK(li.launcher && strstr(li.launcher, "srun"));
    /* mpirun inside an allocation is mpirun */
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    CHECK_EQ_INT(launch_detect().size, 2);
    clear_env();
    setenv("OMPI_COMM_WORLD_SIZE", "junk", 1);
    CHECK_EQ_INT(launch_detect().size, 1);
    setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
    CHECK_EQ_INT(launch_refuse_several("tool", "fix."), 0);
    clear_env();
}

static void test_refuse(void)
{
    clear_env();
    CHECK_EQ_INT(launch_refuse_several("tool", "Do X."), 0);
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    CHECK_EQ_INT(launch_refuse_several("tool", "Do X."), ERR_USAGE);
    CHECK(strstr(err_msg(), "2 copies") && strstr(err_msg(), "mpirun") && strstr(err_msg(), "Do X."));
    CHECK_EQ_INT(err_exit_code(ERR_USAGE), 2);
    clear_env();
}

/* The trainer's communicator without MPI: one copy trains; two are refused. */
static void test_dist_without_mpi(void)
{
    clear_env();
    dist_ctx d;
    CHECK_EQ_INT(dist_init(&d, 1, 1), 0);
    CHECK_EQ_INT(d.world_size, 1);
    dist_finalize(&d);
    CHECK(strncmp(dist_mpi_info(), "no", 2) == 0);
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    CHECK_EQ_INT(dist_init(&d, 1, 1), ERR_USAGE);
    CHECK(strstr(err_msg(), "started as 2 copies by mpirun") && strstr(err_msg(), "no MPI") &&
          strstr(err_msg(), "make tools"));
    dist_finalize(&d);
    clear_env();
    setenv("SLURM_STEP_NUM_TASKS", "8", 1);
    setenv("SLURM_STEP_ID", "0", 1);
    setenv("SLURM_PROCID", "0", 1);
    CHECK_EQ_INT(dist_init(&d, 1, 1), ERR_USAGE);
    CHECK(strstr(err_msg(), "8 copies by srun"));
    dist_finalize(&d);
    clear_env();
}

int main(void)
{
    RUN(test_detect);
    RUN(test_refuse);
    RUN(test_dist_without_mpi);
    return check_total_failed ? 1 : 0;
}
