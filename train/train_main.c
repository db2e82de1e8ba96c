/* train_main.c - bin/train: Megatron-LM's pretrain_gpt.py flags (train_args.c) and the
 * trainer (trainer.c). */
#include "train/train_args.h"
#include "train/trainer.h"

int main(int argc, char **argv)
{
    train_args a;
    int rc = train_args_parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    rc = trainer_run(&a);
    train_args_free(&a);
    return rc;
}
